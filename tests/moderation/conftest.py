from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Table
from moderation.models import CannedReason
from tests.site.conftest import SEED, bot_game, error_of, snapshot, three_player_game  # noqa: F401

__all__ = ["error_of"]


@pytest.fixture
def public_game(alice: Any, bob: Any, carol: Any) -> Table:
    """alice, bob and carol playing at a public table; charlie may watch."""
    table = services.table_create(host=alice, seats=3, public=True)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed=SEED)
    table.refresh_from_db()
    return table


@pytest.fixture
def private_game(alice: Any, bob: Any, carol: Any) -> Table:
    table = services.table_create(host=alice, seats=3, public=False)
    services.table_join(user=bob, invite_code=table.invite_code)
    services.table_join(user=carol, invite_code=table.invite_code)
    services.table_start(user=alice, table_id=table.pk, seed=SEED)
    table.refresh_from_db()
    return table


@pytest.fixture
def presets(db: None) -> dict[str, Any]:
    """The starter canned reasons (migration 0007 makes them; a transactional test's flush
    empties the table for the tests after it, so they are made again when missing)."""
    rows = [
        ("Insults in chat", "mute", "You were muted in table chat for insulting players.", 2),
        ("Spam in chat", "mute", "You were muted in table chat for flooding it.", 1),
        ("Cheating or collusion", "suspend", "Your account was suspended for cheating.", 72),
    ]
    return {
        title: CannedReason.objects.get_or_create(
            title=title, defaults={"kind": kind, "message": message, "suggested_hours": hours}
        )[0]
        for title, kind, message, hours in rows
    }
