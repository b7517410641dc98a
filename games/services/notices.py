"""What a committed change tells players who are away: their turn came, a "May I?" offer waits
on their answer, their game ended. Worked out in the move's transaction from what it changed;
handed to the notify app's task after the commit, by name (``enqueue.NOTIFY_TABLE``), which
decides per player whether and where to push (preferences, subscriptions, a tab on the table).

Each notice is ``[user_id, kind, key]``; the key names the event once ("turn:<table>:<turn
seq>"), so a task that runs twice pushes once.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction

from games import engine, presence
from games.models import Seat, Table

from . import enqueue

logger = logging.getLogger("games.services")

TURN, MAYI, ENDED = "turn", "mayi", "ended"


def _person(seats: list[Seat], position: int | None) -> int | None:
    seat = next((s for s in seats if s.position == position), None)
    if seat is None or seat.user_id is None or seat.played_by_bot:
        return None
    return seat.user_id


def notices_of(
    table: Table,
    seats: list[Seat],
    state: engine.State,
    *,
    turn_started: bool,
    window_opened: bool,
) -> list[list[Any]]:
    """The notices of a change that left ``table`` at ``state`` (``table.version`` and
    ``turn_seq`` already the new ones)."""
    found: list[list[Any]] = []
    if engine.is_over(state):
        for seat in seats:
            user = _person(seats, seat.position)
            if user is not None:
                found.append([user, ENDED, f"ended:{table.pk}"])
        return found
    if turn_started:
        user = _person(seats, engine.clock_seat(state))
        if user is not None:
            found.append([user, TURN, f"turn:{table.pk}:{table.turn_seq}"])
    if window_opened and engine.window_open(state):
        for position in engine.answerers(state):
            user = _person(seats, position)
            if user is not None:
                found.append([user, MAYI, f"mayi:{table.pk}:{table.version}"])
    return found


def on_commit_notices(table_id: int, notices: list[list[Any]]) -> None:
    """After the commit, queue the notify task for these notices (none: nothing queued).

    A player with the table on screen is never pushed about it (the notify task's own rule,
    ``presence.is_looking``), so their notices are dropped here, from one cache read, instead
    of queueing a task that would read the table and find it so: with every seat of a game
    in play at the page, that was a task for nearly every move (bench/load.py)."""
    if not notices:
        return

    def queue() -> None:
        looking = presence.looking_at(table_id, sorted({n[0] for n in notices}))
        away = [n for n in notices if n[0] not in looking]
        if not away:
            return
        try:
            enqueue.send_task(
                enqueue.NOTIFY_TABLE, (table_id, away), queue=settings.MAYI_MAIL_QUEUE
            )
        except Exception:
            # A push is a courtesy: a broker that is down loses it, never the move.
            logger.exception("could not queue the notices of table %s", table_id)

    transaction.on_commit(queue, robust=True)
