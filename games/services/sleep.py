"""Clocks that sleep: a player's nightly sleep hours, in their time zone, during which their
turn clock does not run.

``counted_seconds`` is the one answer to "how much of this interval counts on this player's
clock": the clock code charges a turn's time with it, draws the seats' time left with it, and
the timeout service checks a deadline with it before a bot plays the turn (the sweep's path,
games/services/play.py); ``deadline_after`` is its inverse, the moment a turn's allowance is
used up, written to the table's deadline column. Nights are local: a night that spans a change
of daylight saving time is an hour longer or shorter in real time (zoneinfo).

>>> from datetime import datetime, time, UTC
>>> night = Sleep(time(23), time(7), ZoneInfo("Europe/Paris"))
>>> a = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)  # 21:00 in Paris
>>> deadline_after(a, 3 * 3600, night).isoformat()  # 2 h before bed, 1 h after 07:00
'2026-12-04T07:00:00+00:00'
>>> counted_seconds(a, datetime(2026, 12, 4, 7, 0, tzinfo=UTC), night)
10800.0
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

MAX_SLEEP = timedelta(hours=10)
DAY = timedelta(days=1)


@dataclass(frozen=True)
class Sleep:
    start: time
    end: time
    zone: ZoneInfo

    def night(self, day: date) -> tuple[datetime, datetime]:
        """The sleep that begins on local ``day``, in UTC."""
        begins = datetime.combine(day, self.start, tzinfo=self.zone)
        end_day = day if self.end > self.start else day + DAY
        ends = datetime.combine(end_day, self.end, tzinfo=self.zone)
        return begins.astimezone(UTC), ends.astimezone(UTC)

    def nights(self, after: datetime) -> Iterator[tuple[datetime, datetime]]:
        """Every sleep that ends after ``after``, in order, without end."""
        day = after.astimezone(self.zone).date() - DAY
        while True:
            begins, ends = self.night(day)
            if ends > after:
                yield begins, ends
            day += DAY


def sleep_length(start: time, end: time) -> timedelta:
    """How long sleep hours last on a day without a change of time."""
    minutes = (end.hour * 60 + end.minute) - (start.hour * 60 + start.minute)
    return timedelta(minutes=minutes % (24 * 60))


def sleep_of_profile(profile: object | None) -> Sleep | None:
    """The profile's sleep hours (None: none set, or not valid)."""
    start = getattr(profile, "sleep_start", None)
    end = getattr(profile, "sleep_end", None)
    if start is None or end is None or start == end:
        return None
    if sleep_length(start, end) > MAX_SLEEP:
        return None
    try:
        zone = ZoneInfo(getattr(profile, "time_zone", "") or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    return Sleep(start, end, zone)


def counted_seconds(start: datetime, end: datetime, sleep: Sleep | None) -> float:
    """The seconds of ``[start, end]`` that count on the clock: all but the sleep hours."""
    total = (end - start).total_seconds()
    if sleep is None or total <= 0:
        return max(0.0, total)
    for begins, ends in sleep.nights(start):
        if begins >= end:
            break
        overlap = (min(ends, end) - max(begins, start)).total_seconds()
        if overlap > 0:
            total -= overlap
    return max(0.0, total)


def deadline_after(start: datetime, seconds: float, sleep: Sleep | None) -> datetime:
    """The moment ``seconds`` of counted time have passed since ``start``."""
    if sleep is None:
        return start + timedelta(seconds=seconds)
    at, remaining = start, max(0.0, seconds)
    for begins, ends in sleep.nights(start):
        if begins > at:
            awake = (begins - at).total_seconds()
            if remaining <= awake:
                return at + timedelta(seconds=remaining)
            remaining -= awake
        at = max(at, ends)
    raise AssertionError("unreachable: nights() never ends")


def asleep_until(sleep: Sleep | None, now: datetime) -> datetime | None:
    """The end of the sleep ``now`` falls in, if it does."""
    if sleep is None:
        return None
    for begins, ends in sleep.nights(now):
        return ends if begins <= now else None
    return None
