from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Move, Table
from games.services import enqueue
from notify import tasks as notify_tasks
from tests.push_receiver import Receiver

SEED = "site-tests-seed"


@pytest.fixture
def three_player_game(alice: Any, bob: Any, carol: Any) -> Table:
    """alice, bob and carol (all people) at a started 3-seat table with a known seed."""
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed=SEED)
    table.refresh_from_db()
    return table


@pytest.fixture
def bot_game(alice: Any) -> Table:
    """alice and two bots at a started 3-seat table with a known seed."""
    table = services.table_create(host=alice, seats=3)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed=SEED)
    table.refresh_from_db()
    return table


class Snapshot:
    """What a refused request must leave alone."""

    def __init__(self, table: Table) -> None:
        table.refresh_from_db()
        self.table = table
        self.version = table.version
        self.state = table.state
        self.moves = Move.objects.filter(table=table).count()

    def assert_unchanged(self) -> None:
        self.table.refresh_from_db()
        assert self.table.version == self.version
        assert self.table.state == self.state
        assert Move.objects.filter(table=self.table).count() == self.moves


@pytest.fixture
def snapshot() -> Any:
    return Snapshot


def error_of(response: Any) -> tuple[int, str]:
    body = response.json()
    assert set(body["error"]) >= {"code", "message"}, body
    assert body["error"]["message"]
    return response.status_code, body["error"]["code"]


@pytest.fixture(autouse=True)
def _every_finished_game_replays(request: pytest.FixtureRequest) -> Any:
    """After each test that uses the database, every game it finished (with a move log) is
    dealt again from its seed and replayed: the result must be the stored final state, card
    for card, and SHA-256 of the seed the commitment published at the start (issue 12)."""
    if "db" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("db")
    yield
    from django.db import connection

    from games.engine.verify import verify_game

    if connection.needs_rollback:
        return  # the test ended inside a broken transaction: nothing can be read
    for table in Table.objects.filter(status=Table.Status.FINISHED, move_count__gt=0):
        moves = Move.objects.filter(table=table).order_by("seq").values_list("seat", "action")
        result = verify_game(table.state, list(moves), table.seed_sha256 or None)
        assert result.ok, f"table {table.pk}: {result.problem or 'the commitment does not match'}"


# Web push (tests/site/test_push.py, test_nudge.py): a push service of our own on 127.0.0.1,
# and the notify tasks run as a worker would, right after the commit that queues them.
@pytest.fixture
def receiver(settings: Any) -> Any:
    settings.MAYI_PUSH_ALLOW_LOOPBACK = True
    r = Receiver().start()
    yield r
    r.stop()


@pytest.fixture
def run_notify(monkeypatch: Any) -> list[tuple[str, tuple]]:
    """The notify tasks run as soon as the commit queues them (as a worker would); the others
    are only recorded."""
    queued: list[tuple[str, tuple]] = []

    def send_task(name: str, args: tuple, **options: Any) -> None:
        queued.append((name, args))
        if name.startswith("notify."):
            getattr(notify_tasks, name.rsplit(".", 1)[1])(*args)

    monkeypatch.setattr(enqueue, "send_task", send_task)
    return queued
