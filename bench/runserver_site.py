"""A throwaway site for the page benches: a fresh SQLite database in a temporary folder, Django
set up on it in this process (to arrange the data through the services), and ``manage.py
runserver`` (DEBUG on, so it serves the static files) on 127.0.0.1 for the browser. Everything
is removed when the bench exits."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def wait_for(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def fresh_database(prefix: str) -> dict[str, str]:
    """Point this process at a new, migrated SQLite database; the environment the server
    must be started with."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
        "REDIS_URL": "",
        "DEBUG": "1",
        "SECRET_KEY": "bench-only",
        "DJANGO_SETTINGS_MODULE": "mayi_site.settings",
    }
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return env


def serve(env: dict[str, str], port: int) -> str:
    """``runserver`` on 127.0.0.1:``port`` with ``env``, until the bench exits; its base URL
    once it answers."""
    from django.db import connection

    connection.close()  # the server writes the same SQLite file
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    atexit.register(server.terminate)
    base = f"http://127.0.0.1:{port}"
    wait_for(f"{base}/healthz")
    return base
