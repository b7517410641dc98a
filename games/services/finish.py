"""Games ended by the platform's clocks, not by their players: a table whose time is up
(a tournament round's deadline) is played to its end by the bots at once, and a player gives
their seat to the bot for the rest of a game (withdrawing from a tournament mid-game)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import Table

from .errors import Conflict, NotSeated
from .locking import lock_table_with_seats, retry_on_contention
from .transition import Transition

PLATFORM_MOVES_CAP = 20_000


@retry_on_contention
def table_finish_by_bots(*, table_id: int, now: datetime | None = None) -> bool:
    """Play a game being played to its end at once, every seat's turns by the bot of the
    table's timeout level, as the turn clock's timeouts would (docs/RULES.md section 8): each turn a
    ``timeout`` platform move (recorded with the plays its bot chose), each open "May I?"
    window closed by ``close_window`` (unanswered seats pass). Bot seats play as usual between
    them. Nobody gets a strike: the clock that ran out is the table's, not a player's.

    Returns False (and changes nothing) for a table not being played, so a second call, or
    one after the players finished, does nothing.
    """
    now = now or timezone.now()
    with transaction.atomic():
        table, seats = lock_table_with_seats(table_id)
        if table.status != Table.Status.PLAYING or table.state is None:
            return False
        level = str(table.options.get("timeout_level") or "normal")
        change = Transition(table=table, seats=seats, state=table.state, turn_changed=True)
        change.run_bots()
        # Each platform move ends a turn or a window: a whole 7-round game takes under a
        # thousand. The bound only stops a state the engine never ends from spinning (a bug).
        for _ in range(PLATFORM_MOVES_CAP):
            if engine.is_over(change.state):
                break
            if engine.window_open(change.state):
                change.apply(None, {"type": "close_window"})
            else:
                change.apply(None, {"type": "timeout", "level": level})
            change.run_bots()
        change.commit(now=now)
    return True


@retry_on_contention
def seat_resign(*, table_id: int, user: User) -> bool:
    """``user`` gives their seat to the bot for the rest of the game being played (as an
    expelled player's: they keep it in the record and watch). False if the game is not being
    played or the bot already has the seat."""
    with transaction.atomic():
        table, seats = lock_table_with_seats(table_id)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotSeated("you have no seat at this table")
        if table.status != Table.Status.PLAYING or table.state is None:
            if table.status == Table.Status.OPEN:
                raise Conflict("the game has not started yet", code="game_not_started")
            return False
        if seat.played_by_bot:
            return False
        seat.expelled = True
        seat.save(update_fields=["expelled"])
        # The seat may be the one to play now: the bot takes it at once.
        change = Transition(table=table, seats=seats, state=table.state)
        change.run_bots()
        change.commit()
    return True
