"""Vacation: a player spends whole days to pause their turn clocks at every table.

Each player has ``MAYI_VACATION_DAYS_PER_YEAR`` days per calendar year (UTC), counted when
taken; ending a vacation early gives back the whole days not begun. While on vacation a running
turn's clock is stopped (its deadline moves by the vacation), a turn that starts then starts
its clock when the vacation ends, and no reminder is sent. Windows do not wait: a player on
vacation who did not answer passes when the window's timer runs out (or set a standing order).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.models import Profile
from games.models import Seat, Table

from .clocks import near, shift_running_turn
from .errors import BadOptions
from .locking import lock_table_with_seats, retry_on_contention
from .transition import on_commit_changed

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


def _shift_clocks(user: User, until: datetime, now: datetime) -> None:
    """Move the running turn clocks of ``user`` to restart at ``until``, table by table (in id
    order, the order every writer locks in)."""
    table_ids = (
        Seat.objects.filter(user=user, expelled=False, table__status=Table.Status.PLAYING)
        .order_by("table_id")
        .values_list("table_id", flat=True)
    )
    for table_id in table_ids:
        table, seats = lock_table_with_seats(table_id)
        if shift_running_turn(table, seats, user.pk, until, now):
            table.version += 1
            table.timers_queued = table.version if near(table, now) else None
            table.save(
                update_fields=[
                    "version",
                    "turn_started",
                    "turn_deadline",
                    "remind_at",
                    "timers_queued",
                    "updated",
                ]
            )
            on_commit_changed(table)
