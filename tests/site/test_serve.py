"""The serving command (``python -m mayi_site.serve``, daphne's own arguments), as
scripts/start, deploy/Procfile and the systemd unit run it: daphne on uvloop's event loop."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LOOP_OF_DAPHNE = (
    "from mayi_site.serve import use_uvloop; chosen = use_uvloop();"
    "import daphne.server; print(chosen, type(daphne.server.twisted_loop).__module__)"
)


def fresh_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"MAYI_UVLOOP", "REDIS_URL"}}
    return {**env, **extra}


def loop_of_daphne(**extra: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", LOOP_OF_DAPHNE],
        cwd=ROOT,
        env=fresh_env(**extra),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_daphne_runs_on_uvloop_unless_turned_off():
    assert loop_of_daphne() == "True uvloop"
    chosen, module = loop_of_daphne(MAYI_UVLOOP="0").split()
    assert chosen == "False" and module.startswith("asyncio")


def test_the_loop_cannot_be_chosen_after_daphne_made_its_own():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import daphne.server; from mayi_site.serve import use_uvloop;use_uvloop()",
        ],
        cwd=ROOT,
        env=fresh_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0 and "imported before the event loop was chosen" in done.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_the_serving_command_serves_and_stops_cleanly_on_sigterm(tmp_path: Path):
    port = free_port()
    log = (tmp_path / "serve.log").open("w+")
    # As scripts/start runs it.
    command = f"-m mayi_site.serve -b 127.0.0.1 -p {port} mayi_site.asgi:application"
    proc = subprocess.Popen(
        [sys.executable, *command.split()],
        cwd=ROOT,
        env=fresh_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}"),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, body = get(port, "/healthz")
                break
            except OSError:
                assert proc.poll() is None, log.seek(0) or log.read()
                assert time.monotonic() < deadline, "the site did not start within 60 s"
                time.sleep(0.2)
        assert status == 200, body
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        log.close()
