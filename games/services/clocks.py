"""Turn clocks with a time bank, in the manner of Board Game Arena's turn-based mode.

Each seat has a bank of seconds (``Seat.clock_bank``; ``None`` means the table's starting
allowance). When a seat's turn starts, its clock runs: the turn deadline is the start plus the
bank. When the turn ends (a discard, a held discard waiting on a window, going out, or a
timeout), the time used is taken from the bank, the time per move is added, and the sum is
capped. With the three options equal (the default: ``turn_seconds`` for all three) every turn
simply gets ``turn_seconds``.

A player on vacation (``Profile.vacation_until`` in the future) has the clock paused: a turn
that starts during the vacation starts at its end, and a running one is shifted by it. A player's
nightly sleep hours (``Profile.sleep_start``/``sleep_end``) do not count either: the deadline
falls that much later and the bank is charged only the time that counts (sleep.py).

The buy-window timer is the table's, not a seat's: it is set when a window opens.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist

from games import engine
from games.models import Seat, Table
from games.options import TABLE_DEFAULTS

from .sleep import Sleep, asleep_until, counted_seconds, deadline_after, sleep_of_profile

# Reminder stages of a running turn: "it is your turn", then half and 80% of the clock gone.
REMIND_TURN, REMIND_HALF, REMIND_LATE, REMIND_DONE = 0, 1, 2, 3
REMIND_FRACTIONS = {REMIND_HALF: 0.5, REMIND_LATE: 0.8}


@dataclass(frozen=True)
class ClockOptions:
    start: int  # the starting allowance of every seat
    add: int  # added to the bank when a turn ends
    cap: int  # the bank never holds more

    @classmethod
    def of(cls, options: dict[str, Any]) -> ClockOptions:
        add = TABLE_DEFAULTS.turn_seconds_of(options)
        start = int(options.get("bank_seconds") or add)
        cap = int(options.get("bank_max_seconds") or max(start, add))
        return cls(start=start, add=add, cap=cap)


def bank_after_turn(bank: float, used: float, clock: ClockOptions, *, add: bool = True) -> float:
    """The bank once a turn that used ``used`` seconds ends: what is left (never below zero),
    plus the time per move, capped.

    >>> bank_after_turn(100, 30, ClockOptions(start=100, add=20, cap=200))
    90
    >>> bank_after_turn(100, 500, ClockOptions(start=100, add=20, cap=200))
    20
    >>> bank_after_turn(190, 0, ClockOptions(start=100, add=20, cap=200))
    200
    """
    return min(clock.cap, max(0, bank - max(0, used)) + (clock.add if add else 0))


def seat_bank(seat: Seat | None, clock: ClockOptions) -> float:
    if seat is None or seat.clock_bank is None:
        return float(clock.start)
    return seat.clock_bank


def vacation_until(seat: Seat | None, now: datetime) -> datetime | None:
    """The end of the seat's player's vacation, if they are on one now."""
    if seat is None or seat.user is None or seat.played_by_bot:
        return None
    # Seats are loaded with select_related("user__profile"): no query here. A user without a
    # profile row has never been on vacation.
    try:
        until = seat.user.profile.vacation_until
    except ObjectDoesNotExist:
        return None
    return until if until is not None and until > now else None


def sleep_of(seat: Seat | None) -> Sleep | None:
    """The nightly sleep hours of the seat's player (None for a bot, or none set)."""
    if seat is None or seat.user is None or seat.played_by_bot:
        return None
    # Loaded with the seat (select_related("user__profile")), as vacation_until.
    try:
        return sleep_of_profile(seat.user.profile)
    except ObjectDoesNotExist:
        return None


def set_deadlines(
    table: Table,
    seats: list[Seat],
    state: engine.State,
    *,
    turn_changed: bool,
    window_opened: bool,
    now: datetime,
) -> list[Seat]:
    """Set the window and turn deadlines of ``table`` for the new ``state``; charge the time a
    finished turn used to its seat's bank. Returns the seats whose bank changed (to save).

    ``turn_changed`` and ``window_opened``: the change started a turn, opened a window (from
    its events). ``table.state`` is still the state before the change. The caller holds the
    table lock.
    """
    options = table.options
    if engine.window_open(state):
        if window_opened or table.window_deadline is None:
            table.window_deadline = now + timedelta(seconds=int(options["window_seconds"]))
    else:
        table.window_deadline = None

    clock = ClockOptions.of(options)
    by_position = {s.position: s for s in seats}
    before = engine.clock_seat(table.state) if table.turn_started is not None else None
    after = engine.clock_seat(state)
    new_turn = after is not None and (
        turn_changed or before != after or table.turn_deadline is None
    )
    changed: list[Seat] = []
    if before is not None and (new_turn or after is None):
        seat = by_position.get(before)
        if seat is not None and not seat.played_by_bot:
            # Only the time that counts: not the player's sleep hours (sleep.py).
            # A turn that ends had started: its clock was set when it began.
            started = table.turn_started
            assert started is not None
            used = counted_seconds(started, now, sleep_of(seat))
            # A sale-first draw (petras, classic) stops the clock while the discard is on sale;
            # the turn goes on after it, so the time per move comes at its real end.
            paused = after is None and engine.on_sale(state, before)
            seat.clock_bank = bank_after_turn(seat_bank(seat, clock), used, clock, add=not paused)
            changed.append(seat)
    if after is None:
        table.turn_deadline = table.turn_started = table.remind_at = None
    elif new_turn:
        seat = by_position.get(after)
        start = vacation_until(seat, now) or now
        table.turn_started = start
        # Past the player's sleep hours: the clock stops while they sleep.
        table.turn_deadline = deadline_after(start, seat_bank(seat, clock), sleep_of(seat))
        table.turn_seq += 1
        if seat is not None and not seat.played_by_bot and seat.user_id is not None:
            table.remind_stage = REMIND_TURN
            table.remind_at = start + timedelta(seconds=settings.MAYI_TURN_REMINDER_DELAY)
        else:
            table.remind_at = None
    table.timers_queued = table.version if near(table, now) else None
    return changed


def next_reminder(table: Table) -> datetime | None:
    """When the reminder after ``table.remind_stage`` falls due (None: no more this turn)."""
    fraction = REMIND_FRACTIONS.get(table.remind_stage)
    if fraction is None or table.turn_started is None or table.turn_deadline is None:
        return None
    return table.turn_started + (table.turn_deadline - table.turn_started) * fraction


def near(table: Table, now: datetime) -> bool:
    """Is a deadline of ``table`` close enough to queue its task with an ETA now?

    A task waits in Redis with an ETA only for a few minutes: the Redis transport redelivers
    an unacknowledged task after its visibility timeout, so long ETAs would run several times
    (and a flushed Redis would lose them). Farther deadlines are queued by the sweep later.
    """
    horizon = now + timedelta(seconds=settings.MAYI_TIMER_HORIZON)
    return any(d is not None and d <= horizon for d in (table.window_deadline, table.turn_deadline))


def running_seat_of(table: Table, seats: list[Seat], user_id: int) -> Seat | None:
    """``user_id``'s seat at ``table`` if the turn clock running is theirs, as a person's (not
    a bot's standing in for them); else None."""
    running = engine.clock_seat(table.state)
    seat = next((s for s in seats if s.position == running), None)
    if seat is None or seat.user_id != user_id or seat.played_by_bot:
        return None
    return seat


def shift_running_turn(
    table: Table, seats: list[Seat], user_id: int, until: datetime, now: datetime
) -> bool:
    """Pause (or resume) ``user_id``'s running clock at ``table`` so that it restarts at
    ``until`` with the time it had left. The caller holds the lock. True if it moved."""
    if (
        running_seat_of(table, seats, user_id) is None
        or table.turn_started is None
        or table.turn_deadline is None
    ):
        return False
    left = table.turn_deadline - max(now, table.turn_started)
    used = max(now, table.turn_started) - table.turn_started
    # The time already used stays used: the clock restarts at ``until`` where it stopped.
    table.turn_started = until - used
    table.turn_deadline = until + left
    if table.remind_at is not None:
        # The clock reminders keep their fractions of the moved clock.
        table.remind_at = next_reminder(table) if table.remind_stage else max(until, now)
    return True


def clock_meta(table: Table, seats: list[Seat], now: datetime) -> dict[str, Any]:
    """What the page needs to draw the clocks: the options, and each seat's time left."""
    clock = ClockOptions.of(table.options)
    deadline = table.turn_deadline
    running = engine.clock_seat(table.state) if deadline is not None else None
    per_seat = []
    for seat in seats:
        sleep = sleep_of(seat)
        if seat.position == running and deadline is not None:
            left = counted_seconds(max(now, table.turn_started or now), deadline, sleep)
        else:
            left = seat_bank(seat, clock)
        until = vacation_until(seat, now)
        asleep = asleep_until(sleep, now)
        per_seat.append(
            {
                "position": seat.position,
                "seconds_left": max(0, round(left)),
                "running": seat.position == running,
                "vacation_until": until.isoformat() if until else None,
                # In their sleep hours now: their clock is stopped until then.
                "asleep_until": asleep.isoformat() if asleep else None,
            }
        )
    return {
        "bank_seconds": clock.start,
        "add_seconds": clock.add,
        "max_seconds": clock.cap,
        "turn_started": table.turn_started.isoformat() if table.turn_started else None,
        "seats": per_seat,
    }
