from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Move, Table

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
