"""The selection check of the table page's contract meter and lay-off targets: a read, no
lock, no write; the engine (games.engine.selection) answers from the seat's own hand only."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.engine import check_selection
from games.models import Table

from .errors import Conflict, NotSeated
from .queries import seat_of
from .selectors import read_table_with_seats


def table_check_selection(
    *, table_id: int, user: User, cards: list[str], melds: list[list[str]]
) -> dict[str, Any]:
    """What the user's selected ``cards`` and staged ``melds`` make this round, and where one
    selected card may be laid off. Only a seated player asks, about cards in their own hand
    (anything else is refused without saying where the card is)."""
    table, seats = read_table_with_seats(table_id, lock=False)
    mine = seat_of(seats, user)
    if mine is None:
        raise NotSeated("only a player at this table checks a selection")
    if table.status == Table.Status.OPEN or table.state is None:
        raise Conflict("the game has not started yet", code="game_not_started")
    if table.status != Table.Status.PLAYING:
        raise Conflict(f"the game is {table.status}", code="game_finished")
    return check_selection(table.state, mine.position, cards, melds)
