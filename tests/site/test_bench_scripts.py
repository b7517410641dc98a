"""The load bench and the fault drills stay runnable: each answers --help with the options the
docs quote (docs/PERFORMANCE.md, docs/RELIABILITY.md), without starting anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPTS = {
    "bench/load.py": ["--tables", "--seconds", "--daphne-processes", "--workers", "--arrivals"],
    "bench/drills/celery_kill.py": ["--kills", "--workers", "--redis-port"],
    "bench/drills/redis_outage.py": ["--outage", "--redis-port"],
    "bench/drills/daphne_restart.py": ["--restarts", "--signal", "--daphne-processes"],
    "bench/drills/db_terminate.py": ["--every", "--database-url"],
    "bench/proxy_check.py": ["--proxy", "--tables", "--seconds", "--database-url"],
}


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_each_bench_script_explains_itself(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / script), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for option in SCRIPTS[script]:
        assert option in done.stdout, f"{script} --help does not mention {option}"
    for doc in ("docs/PERFORMANCE.md", "docs/RELIABILITY.md"):
        name = Path(script).name
        if name in (ROOT / doc).read_text():
            break
    else:
        pytest.fail(f"{script} is described in neither docs/PERFORMANCE.md nor RELIABILITY.md")
