"""Vacation: a player spends whole days to pause their turn clocks at every table.

Each player has ``MAYI_VACATION_DAYS_PER_YEAR`` days per calendar year (UTC), counted when
taken; ending a vacation early gives back the whole days not begun. While on vacation a running
turn's clock is stopped (its deadline moves by the vacation), a turn that starts then starts
its clock when the vacation ends, and no reminder is sent. Windows do not wait: a player on
vacation who did not answer passes when the window's timer runs out (or set a standing order).
"""

from __future__ import annotations

import math
from datetime import datetime, time, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.models import Profile
from games.models import Seat, Table

from .clocks import ClockOptions, near, running_seat_of, seat_bank, shift_running_turn
from .errors import BadOptions
from .locked import do_bump_version
from .locking import lock_table_with_seats, retry_on_contention
from .sleep import MAX_SLEEP, deadline_after, sleep_length, sleep_of_profile

DAY = timedelta(days=1)


def vacation_days_left(profile: Profile, now: datetime) -> int:
    used = profile.vacation_days_used if profile.vacation_year == now.year else 0
    return max(0, settings.MAYI_VACATION_DAYS_PER_YEAR - used)


def _profile_locked(user: User) -> Profile:
    return Profile.objects.for_user(user, lock=True)


def _charge(profile: Profile, days: int, now: datetime) -> None:
    if profile.vacation_year != now.year:
        profile.vacation_year, profile.vacation_days_used = now.year, 0
    profile.vacation_days_used = max(0, profile.vacation_days_used + days)


@retry_on_contention
def vacation_start(*, user: User, days: int, now: datetime | None = None) -> Profile:
    """Pause ``user``'s clocks for ``days`` more days (from now, or from the end of the
    vacation already running)."""
    now = now or timezone.now()
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise BadOptions("days must be a whole number of at least 1")
    with transaction.atomic():
        profile = _profile_locked(user)
        left = vacation_days_left(profile, now)
        if days > left:
            raise BadOptions(f"you have {left} vacation day(s) left this year", code="no_days_left")
        start = max(now, profile.vacation_until or now)
        _charge(profile, days, now)
        profile.vacation_until = start + days * DAY
        profile.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
        _shift_clocks(user, profile.vacation_until, now)
    return profile


@retry_on_contention
def vacation_end(*, user: User, now: datetime | None = None) -> Profile:
    """Come back early: clocks run again now; whole days not begun are given back."""
    now = now or timezone.now()
    with transaction.atomic():
        profile = _profile_locked(user)
        until = profile.vacation_until
        if until is None or until <= now:
            return profile
        _charge(profile, -math.floor((until - now) / DAY), now)
        profile.vacation_until = None
        profile.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
        _shift_clocks(user, now, now)
    return profile


def _playing_table_ids(user: User) -> list[int]:
    """The tables in play where ``user`` still holds a seat, in id order (the order every
    writer locks in)."""
    return list(
        Seat.objects.filter(user=user, expelled=False, table__status=Table.Status.PLAYING)
        .order_by("table_id")
        .values_list("table_id", flat=True)
    )


def _shift_clocks(user: User, until: datetime, now: datetime) -> None:
    """Move the running turn clocks of ``user`` to restart at ``until``, table by table."""
    for table_id in _playing_table_ids(user):
        table, seats = lock_table_with_seats(table_id)
        if shift_running_turn(table, seats, user.pk, until, now):
            do_bump_version(
                table,
                fields=["turn_started", "turn_deadline", "remind_at"],
                queue_timers=near(table, now),
            )


@retry_on_contention
def sleep_hours_set(
    *, user: User, start: time | None, end: time | None, now: datetime | None = None
) -> Profile:
    """Set (or, with None, clear) ``user``'s nightly sleep hours, local times in their time
    zone, at most 10 h; the running turn clocks of theirs move to the new hours at once."""
    now = now or timezone.now()
    if (start is None) != (end is None):
        raise BadOptions("give both the hour you go to sleep and the hour you wake, or neither")
    if start is not None and end is not None:
        if start == end:
            raise BadOptions("sleep hours must not start and end at the same time")
        if sleep_length(start, end) > MAX_SLEEP:
            raise BadOptions("sleep hours last at most 10 hours")
    with transaction.atomic():
        profile = _profile_locked(user)
        profile.sleep_start, profile.sleep_end = start, end
        profile.save(update_fields=["sleep_start", "sleep_end"])
        sleep = sleep_of_profile(profile)
        for table_id in _playing_table_ids(user):
            table, seats = lock_table_with_seats(table_id)
            seat = running_seat_of(table, seats, user.pk)
            if seat is None or table.turn_started is None:
                continue
            bank = seat_bank(seat, ClockOptions.of(table.options))
            table.turn_deadline = deadline_after(table.turn_started, bank, sleep)
            do_bump_version(table, fields=["turn_deadline"], queue_timers=near(table, now))
    return profile
