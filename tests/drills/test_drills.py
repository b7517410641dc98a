"""The fault drills of bench/drills/ and the proxy check, short, against the real stack.

Each runs as ./scripts/test's third pass (CI's PostgreSQL + Redis run, beside the other two):
its own daphne, Celery worker and beat, a redis-server of its own and a database of its own,
dropped and made afresh; bot clients play through real HTTP and websockets while the fault
happens. Each ends with the drills' check (bench/harness.py ``check_run``): no acknowledged
move lost, none applied twice, every window closed once, no deadline overdue, every table
replays from its seed; and no answer was a 500. The longer runs quoted in docs/RELIABILITY.md
are the same scripts with their default sizes.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
DATABASE_URL = os.environ.get("DATABASE_URL", "")

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(
        not DATABASE_URL.startswith("postgres"), reason="the drills run on PostgreSQL"
    ),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]

# Small enough for CI (about a minute each), long enough for the fault to land mid-game.
DRILLS = {
    "celery_kill": ["--tables", "4", "--seconds", "20", "--kills", "1"],
    "daphne_restart": ["--tables", "4", "--seconds", "20", "--restarts", "1"],
    "redis_outage": ["--tables", "4", "--seconds", "30", "--outage", "10"],
    "db_terminate": ["--tables", "4", "--seconds", "20", "--every", "3"],
}


def database_for(name: str) -> str:
    return DATABASE_URL.rsplit("/", 1)[0] + f"/mayi_drill_{name}"


def run(script: str, args: list[str]) -> tuple[int, Any, str]:
    # A drill that hangs is interrupted as Ctrl-C would, so that its ``finally`` stops the
    # stack it started (daphne, Celery, its redis-server, the proxy: each in a session of its
    # own), which would otherwise hold their ports; then killed with its process group.
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / script), *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        # A guard against a hang, not a speed check: on a loaded 2-core machine (CI's other
        # passes beside it) the proxy check alone has taken over 300 s.
        out, err = proc.communicate(timeout=900)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        pytest.fail(f"{script} did not end within 900 s: {err[-3000:]}")
    start = min((i for i in (out.find("{"), out.find("[")) if i >= 0), default=-1)
    report = json.loads(out[start:]) if start >= 0 else None
    return proc.returncode, report, err[-3000:]


@pytest.mark.parametrize("drill", sorted(DRILLS))
def test_a_short_drill_loses_and_doubles_nothing(drill: str) -> None:
    code, report, log = run(
        f"bench/drills/{drill}.py", [*DRILLS[drill], "--database-url", database_for(drill)]
    )
    assert report is not None, log
    check = report["check"]
    assert check["ok"], check["problems"]
    assert check["acknowledged_moves"] > 0, "nobody played"
    assert "500" not in report["clients"]["statuses"], report["clients"]["statuses"]
    assert code == 0, log


@pytest.mark.skipif(
    shutil.which("nginx") is None or shutil.which("caddy") is None,
    reason="needs nginx and caddy (apt-get install nginx caddy; ./scripts/test does in CI)",
)
@pytest.mark.parametrize("proxy, port, redis_port", [("nginx", 8260, 8275), ("caddy", 8264, 8274)])
def test_the_shipped_proxy_configs_serve_the_site_through_a_restart(
    proxy: str, port: int, redis_port: int
) -> None:
    # One proxy a test, on ports and a database of its own: the two run side by side.
    code, reports, log = run(
        "bench/proxy_check.py",
        [
            *("--proxy", proxy, "--tables", "4", "--seconds", "20"),
            *("--port", str(port), "--redis-port", str(redis_port)),
            *("--database-url", database_for(f"proxy_{proxy}")),
        ],
    )
    assert reports is not None, log
    for report in reports:
        failed = {name: c for name, c in report["checks"].items() if not c["ok"]}
        assert not failed, f"{report['proxy']}: {json.dumps(failed)[:2000]}"
    assert code == 0, log
