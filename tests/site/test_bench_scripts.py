"""The load bench and the fault drills stay runnable: each answers --help with the options the
docs quote (docs/PERFORMANCE.md, docs/RELIABILITY.md), without starting anything."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPTS = {
    "bench/load.py": ["--tables", "--seconds", "--daphne-processes", "--workers", "--arrivals"],
    "bench/drills/celery_kill.py": ["--kills", "--workers", "--redis-port"],
    "bench/drills/redis_outage.py": ["--outage", "--redis-port"],
    "bench/drills/daphne_restart.py": ["--restarts", "--signal", "--daphne-processes"],
    "bench/drills/db_terminate.py": ["--every", "--database-url"],
    "bench/proxy_check.py": ["--proxy", "--tables", "--seconds", "--database-url"],
    "bench/replay_step.py": ["--players", "--port", "--jumps", "--width"],
    "bench/page_idle_cpu.py": ["--seconds", "--settle", "--port"],
    "bench/analysis_budget.py": ["--games", "--people", "--samples", "--budget"],
    "bench/auth_timing.py": ["--users", "--runs", "--hashers", "--database-url"],
    "bench/spy_breakdown.py": ["--json"],
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


@pytest.mark.skipif(
    not settings.MAYI_BENCH_ENDPOINTS, reason="the bench app is installed with the setting only"
)
def test_the_floor_of_bench_api_moves_writes_one_row_behind_the_api_auth(alice, api_for, client):
    """What bench/api_moves.py's ``floor`` POSTs (the bench's own app, benchapp/)."""
    from benchapp.models import BenchWrite

    answer = api_for(alice).post("/api/bench/write")
    assert answer.status_code == 200, answer.content
    assert BenchWrite.objects.get(pk=answer.json()["id"]).note == "alice"
    assert client.post("/api/bench/write").status_code == 401
    assert BenchWrite.objects.count() == 1
