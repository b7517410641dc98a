"""The embedded default: with no REDIS_URL, a real Celery worker and its beat run inside the
site's process (games/embedded.py, as ./scripts/start runs daphne), fire the timers and
analyse finished games.

A subprocess plays the site's process on a SQLite file of its own: it turns the embedded worker
on the way scripts/start does (MAYI_EMBEDDED_WORKER=1), opens a buy window with a 1 s timer
and reports when the window was closed, and by which path (the ETA task or the sweep); then a
game against bots ends and its analysis (issue 33: the analysis queue, in slices, within a
budget of 1 CPU second) is made by the same worker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import json, time
    import django
    django.setup()  # games.apps starts the embedded worker and beat here
    from django.core.management import call_command
    call_command("migrate", verbosity=0)
    from django.contrib.auth.models import User
    from games import engine, services
    from games.embedded import _started
    from games.models import Move, Table
    names = ["alice", "bob", "carol"]
    users = [User.objects.create_user(n, f"{n}@example.com", "pw") for n in names]
    table = services.table_create(host=users[0], seats=3, window_seconds=1, turn_seconds=600)
    for u in users[1:]:
        services.table_join(user=u, table_id=table.pk)
    services.table_start(user=users[0], table_id=table.pk, seed="embedded")
    table.refresh_from_db()
    active = engine.seats_to_act(table.state)[0]
    seat_user = {s.position: s.user for s in table.seats.select_related("user")}
    services.table_submit_action(table_id=table.pk, user=seat_user[active],
        action={"type": "draw", "source": "stock"}, expect_version=table.version)
    table.refresh_from_db()
    deadline = table.window_deadline
    closed = None
    for _ in range(100):
        closed = Move.objects.filter(table=table, action={"type": "close_window"}).first()
        if closed:
            break
        time.sleep(0.1)
    from analysis.models import GameAnalysis
    from tests.site.stats_play import play_game
    game = play_game(users[0], [], bots=2, seed="embedded-analysis")
    analysis = None
    for _ in range(600):
        analysis = GameAnalysis.objects.filter(pk=game.pk, status="ready").first()
        if analysis:
            break
        time.sleep(0.1)
    print(json.dumps({
        "embedded": _started,
        "closed": closed is not None,
        "late": (closed.created - deadline).total_seconds() if closed else None,
        "closings": Move.objects.filter(table=table, action={"type": "close_window"}).count(),
        "analysed": analysis is not None,
        "weighed": analysis.decisions.count() if analysis else 0,
        "analysis_cpu": analysis.cpu_seconds if analysis else None,
    }))
    """
)


def test_the_embedded_worker_fires_a_window_timer(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="mayi_site.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'embedded.sqlite3'}",
        MAYI_EMBEDDED_WORKER="1",
        MAYI_MIN_CLOCK_SECONDS="1",
        MAYI_SWEEP_SECONDS="1",
        MAYI_ANALYSIS_SAMPLES="1",
        MAYI_ANALYSIS_BUDGET_SECONDS="1",
        MAYI_ANALYSIS_SLICE_SECONDS="0.3",
    )
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["embedded"] is True
    assert result["closed"], done.stderr[-4000:]
    assert result["closings"] == 1
    # Fired, once, soon after its deadline: within the sweep's period (1 s here) and the load
    # of a CI machine running two passes of the suite on its 2 cores (1.7 s seen). How late the
    # timers fire is bench/timers.py's to measure, not a test's.
    assert 0 <= result["late"] < 5, result
    assert result["analysed"] and result["weighed"] > 0, (result, done.stderr[-4000:])
    assert result["analysis_cpu"] < 1 + 0.5, result


pytestmark = pytest.mark.live
