"""Two ticks at once, each in its own connection, pair a round once (PostgreSQL row locks and
the unique round number), and neither fails; a worker killed (SIGKILL) mid-pairing leaves
nothing of the round, and the next tick pairs it whole, once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from games.models import Table
from tests.site.test_concurrency import race
from tests.site.tournament_helpers import past_deadline, players, started
from tournaments.models import Round, RoundTable
from tournaments.services import tournaments_tick

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql")),
        reason="needs DATABASE_URL pointing at PostgreSQL (row locks)",
    ),
    pytest.mark.django_db(transaction=True),
]


def test_two_ticks_at_once_pair_once(django_user_model, api_for):
    users = players(django_user_model, 9)
    tournament = started(api_for, users)
    now = past_deadline(tournament)
    results = race([lambda: tournaments_tick(now=now), lambda: tournaments_tick(now=now)])
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(r["paired"] for r in results) == 1
    assert sum(r["scored"] for r in results) == 1
    assert sum(r["failed"] for r in results) == 0
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert RoundTable.objects.filter(round__tournament=tournament, round__number=2).count() == 3


def test_a_worker_killed_mid_pairing_loses_nothing(django_user_model, api_for, settings):
    users = players(django_user_model, 9)
    tournament = started(api_for, users)
    now = past_deadline(tournament)
    tables_before = Table.objects.count()
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    if db.get("PASSWORD"):
        url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(root)}
    env.pop("REDIS_URL", None)
    worker = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).with_name("tournament_tick_killed.py")),
            now.isoformat(),
        ],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert worker.stdout is not None
        line = worker.stdout.readline()
        if line.strip() != "PAIRING":
            worker.wait(30)
            assert worker.stderr is not None
            raise AssertionError(f"the worker said {line!r}: {worker.stderr.read()[-2000:]}")
        # Round 2's first table is made, inside the pairing's transaction: kill the worker.
        worker.send_signal(signal.SIGKILL)
        worker.wait(30)
    finally:
        if worker.poll() is None:
            worker.kill()
    # Round 1 was finished by the bots and scored (their own commits); of round 2, nothing.
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.FINISHED
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    assert Table.objects.count() == tables_before
    # The next tick pairs round 2 whole, once.
    assert tournaments_tick(now=now)["paired"] == 1
    assert tournaments_tick(now=now)["paired"] == 0
    assert RoundTable.objects.filter(round__tournament=tournament, round__number=2).count() == 3
    assert Table.objects.count() == tables_before + 3
