"""Playing: a seated player's action, and the two platform actions the clocks send."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import Seat, Table
from games.options import TABLE_DEFAULTS
from mayi_site import metrics

from . import clocks, recent
from .bot_levels import timeout_level
from .errors import Conflict, NotSeated, StaleVersion
from .locking import lock_table_with_seats, retry_on_contention
from .recent import Committed
from .selectors import read_table_with_seats
from .sleep import counted_seconds, deadline_after
from .transition import Transition

logger = logging.getLogger("games.services")


def _state(table: Table) -> engine.State:
    """The state of a table being played (every playing table has one)."""
    if table.state is None:
        raise Conflict("the game has not started yet", code="game_not_started")
    return table.state


def _clock_not_out(table: Table, seats: list[Any], now: datetime) -> bool:
    """Has the running clock, counted as the clock code counts it (without the player's sleep
    hours), still time left, though its deadline passed (sleep hours changed since it was
    set)? Then the deadline moves to when it runs out, and no bot plays. The caller holds the
    lock."""
    running = engine.clock_seat(table.state)
    seat = next((s for s in seats if s.position == running), None)
    sleep = clocks.sleep_of(seat)
    if sleep is None or table.turn_started is None:
        return False
    bank = clocks.seat_bank(seat, clocks.ClockOptions.of(table.options))
    if counted_seconds(table.turn_started, now, sleep) + 1 >= bank:
        return False
    deadline = deadline_after(table.turn_started, bank, sleep)
    Table.objects.filter(pk=table.pk, version=table.version).update(
        turn_deadline=deadline, timers_queued=None
    )
    return True


def _check_playing(table: Table) -> None:
    if table.status == Table.Status.OPEN:
        raise Conflict("the game has not started yet", code="game_not_started")
    if table.status != Table.Status.PLAYING:
        raise Conflict(f"the game is {table.status}", code="game_finished")


@metrics.observe_action
@retry_on_contention
def table_submit_action(
    *, table_id: int, user: User, action: dict[str, Any], expect_version: int
) -> Committed:
    """Apply ``user``'s action at the version they saw, then let the bots answer.

    All in one transaction under the table's row lock: either the move, the bots' replies, the
    new state, the version and the deadlines are all written, or nothing is. Returns the table,
    seats and moves as committed (the answer's log is those moves). Raises StaleVersion (with
    the fresh table), IllegalMove, or another ServiceError.
    """
    if action.get("type") in engine.PLATFORM_ACTIONS:
        raise engine.IllegalMove(
            "platform_only", f"{action['type']!r} is sent by the platform only"
        )
    last = recent.latest_version(table_id)
    if last is not None and expect_version < last:
        # Stale for sure: this process committed a later version (versions only grow). Under
        # load most refused moves are two seats answering one window: the fresh table is read
        # without taking the lock and a transaction (docs/PERFORMANCE.md).
        table, seats = read_table_with_seats(table_id, lock=False)
        _check_submitter(table, seats, user, expect_version)
    with transaction.atomic():
        table, seats = lock_table_with_seats(table_id)
        seat = _check_submitter(table, seats, user, expect_version)
        _check_playing(table)
        change = Transition(table=table, seats=seats, state=_state(table))
        change.apply(seat.position, action)
        if seat.missed_turns:
            # Acting takes the seat back from the clock: the strikes start again from zero.
            seat.missed_turns = 0
            Seat.objects.filter(pk=seat.pk).update(missed_turns=0)
        change.run_bots()
        return change.commit()


def _check_submitter(table: Table, seats: list[Seat], user: User, expect_version: int) -> Seat:
    """The user's seat, if they may act on this table at ``expect_version``; else NotSeated or
    StaleVersion (with the fresh table)."""
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise NotSeated("you have no seat at this table")
    # Before the version: a stale answer carries the table's view, which an expelled
    # player of a private table may no longer see.
    if seat.expelled and table.status == Table.Status.PLAYING:
        raise NotSeated("you were expelled; a bot plays this seat", code="expelled")
    if expect_version != table.version:
        raise StaleVersion(
            f"you saw version {expect_version}; the table is at version {table.version}",
            table=table,
            seats=seats,
            since=expect_version,
        )
    return seat


def _deadline_due(
    table: Table, deadline: datetime | None, now: datetime, expect_version: int | None
) -> bool:
    """Under the row lock: the game is on, ``deadline`` has passed, and the table is still at
    the version the timer was set for (when given). Anything else is a late, early or duplicate
    timer, which must do nothing."""
    return (
        table.status == Table.Status.PLAYING
        and deadline is not None
        and deadline <= now
        and (expect_version is None or expect_version == table.version)
    )


@retry_on_contention
def table_close_buy_window(
    *, table_id: int, expect_version: int | None = None, now: datetime | None = None
) -> bool:
    """Close a buy window whose timer ran out (unanswered seats pass). Safe to call twice.

    Does nothing (returns False) unless, under the lock, the window deadline has passed and the
    version is still ``expect_version`` when given: a late or duplicate timer is harmless.
    """
    now = now or timezone.now()
    with transaction.atomic():
        table, seats = lock_table_with_seats(table_id)
        if not _deadline_due(table, table.window_deadline, now, expect_version):
            return False
        _fired("window", table.window_deadline, now, expect_version)
        change = Transition(table=table, seats=seats, state=_state(table))
        try:
            change.apply(None, {"type": "close_window"})
        except engine.IllegalMove as exc:
            return _drop_deadline(table, "window_deadline", exc)
        change.run_bots()
        change.commit(now=now)
    return True


@retry_on_contention
def table_timeout_turn(
    *, table_id: int, expect_version: int | None = None, now: datetime | None = None
) -> bool:
    """The active seat's turn clock ran out: the bot plays the rest of the turn and the seat
    gets a strike; enough strikes in a row expel the player (a bot plays the seat to the end).
    Both are events of the timeout's move, so everyone sees them in the log. Safe to call
    twice, like :func:`table_close_buy_window`.
    """
    now = now or timezone.now()
    with transaction.atomic():
        table, seats = lock_table_with_seats(table_id)
        if not _deadline_due(table, table.turn_deadline, now, expect_version):
            return False
        if _clock_not_out(table, seats, now):
            return False
        _fired("turn", table.turn_deadline, now, expect_version)
        active = engine.active_seat(_state(table))
        change = Transition(table=table, seats=seats, state=_state(table), turn_changed=True)
        seat = next((s for s in seats if s.position == active), None)
        # A person's seat gets a strike; enough in a row expel them: the platform's part of
        # the timeout's move, recorded with it.
        struck = seat if seat is not None and not seat.played_by_bot else None
        strikes: list[dict[str, Any]] = []
        if struck is not None:
            limit = TABLE_DEFAULTS.strikes_of(table.options)
            missed = struck.missed_turns + 1
            strikes.append({"type": "strike", "seat": active, "strikes": missed, "of": limit})
            if missed >= limit:
                strikes.append({"type": "expelled", "seat": active})
        try:
            level = timeout_level(table)
            # The move records the level and the actions its bot played (Transition.apply:
            # engine.concrete_action), so a replay plays the timed-out turn the same way
            # whatever the bots' code is by then.
            change.apply(None, {"type": "timeout", "level": level}, platform_events=strikes)
        except engine.IllegalMove as exc:
            return _drop_deadline(table, "turn_deadline", exc)
        if struck is not None:
            struck.missed_turns += 1
            if struck.missed_turns >= limit:
                struck.expelled = True
            struck.save(update_fields=["missed_turns", "expelled"])
        change.run_bots()
        change.commit(now=now)
    return True


def _fired(kind: str, due: datetime | None, now: datetime, expect_version: int | None) -> None:
    """Count a deadline fired and how late (fired - due): by its ETA task (which names the
    version it was queued for) or by the sweep (a task was lost, or the deadline was far)."""
    if due is not None:
        metrics.deadline_fired(kind, now - due, via="task" if expect_version else "sweep")


def _drop_deadline(table: Table, field: str, exc: engine.IllegalMove) -> bool:
    """A deadline the engine has nothing to do for (a state the clocks did not foresee): clear
    it rather than let every sweep try again, and say so loudly."""
    logger.error("table %s: %s fired but the engine refused: %s", table.pk, field, exc)
    setattr(table, field, None)
    table.save(update_fields=[field])
    return False
