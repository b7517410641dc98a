"""A table's pace in words ("1 day a turn", "fast: 2 min a turn"), and the lobby's filters:
ruleset, pace and seats free, applied in the lobby's query (issue 29)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce

from games.engine import RULESETS
from games.models import MAX_SEATS, Seat, Table

HOUR = 3600
DAY = 24 * HOUR
# The lobby's pace filter: a turn clock under an hour is a game played in one sitting.
PACES = {
    "fast": "fast: under an hour a turn",
    "day": "an hour to a day a turn",
    "slow": "more than a day a turn",
}


def duration(seconds: int | float) -> str:
    """A clock's length in the unit that reads best.

    >>> [duration(s) for s in (30, 120, 5400, 3600, 86400, 172800, 90000)]
    ['30 s', '2 min', '1.5 h', '1 h', '1 day', '2 days', '25 h']
    """
    s = int(seconds)
    if s < 60:
        return f"{s} s"
    if s < HOUR:
        return f"{round(s / 60)} min"
    if s < 2 * DAY and s % DAY:
        hours = s / HOUR
        return f"{hours:.1f} h".replace(".0 h", " h")
    days = s / DAY
    text = f"{days:.1f}".replace(".0", "")
    return f"{text} day{'s' if days != 1 else ''}"


def pace_words(turn_seconds: Any, window_seconds: Any = None) -> str:
    """The turn clock in words, with "fast" for a game of one sitting.

    >>> pace_words(86400), pace_words(120)
    ('1 day a turn', 'fast: 2 min a turn')
    """
    if not isinstance(turn_seconds, int | float) or isinstance(turn_seconds, bool):
        return ""
    text = f"{duration(turn_seconds)} a turn"
    return f"fast: {text}" if turn_seconds < HOUR else text


def window_words(window_seconds: Any) -> str:
    """ "“May I?” 1 h": the buy window's timer."""
    if not isinstance(window_seconds, int | float) or isinstance(window_seconds, bool):
        return ""
    return f"“May I?” {duration(window_seconds)}"


def pace_of(turn_seconds: int) -> str:
    """The lobby filter's bucket of a turn clock."""
    if turn_seconds < HOUR:
        return "fast"
    return "day" if turn_seconds <= DAY else "slow"


@dataclass(frozen=True)
class LobbyFilters:
    """Which open tables the lobby lists; a value out of range is no filter."""

    ruleset: str = ""
    pace: str = ""
    seats_free: int = 1

    @classmethod
    def parse(cls, params: Any) -> LobbyFilters:
        """From a page's or the API's query parameters (``ruleset``, ``pace``, ``seats_free``,
        or ``seats`` for short)."""
        ruleset = str(params.get("ruleset") or "")
        pace = str(params.get("pace") or "")
        try:
            seats = int(params.get("seats_free") or params.get("seats") or 1)
        except (TypeError, ValueError):
            seats = 1
        return cls(
            ruleset=ruleset if ruleset in RULESETS else "",
            pace=pace if pace in PACES else "",
            seats_free=min(max(seats, 1), MAX_SEATS - 1),
        )

    @property
    def active(self) -> bool:
        return bool(self.ruleset or self.pace or self.seats_free > 1)

    def apply(self, tables: QuerySet[Table]) -> QuerySet[Table]:
        """Open tables with at least ``seats_free`` seats free (a full table is never offered:
        a rematch fills its seats when it is made) of the ruleset and pace asked for."""
        # A subquery, not a join: a GROUP BY would group by every column (the state's too).
        taken = (
            Seat.objects.filter(table=OuterRef("pk"))
            .order_by()
            .values("table")
            .annotate(n=Count("pk"))
            .values("n")
        )
        tables = tables.annotate(
            seat_total=Coalesce(Subquery(taken, output_field=IntegerField()), 0),
            size=Cast(KT("options__seats"), IntegerField()),
            turn=Cast(KT("options__turn_seconds"), IntegerField()),
        ).filter(size__gte=F("seat_total") + self.seats_free)
        if self.ruleset:
            tables = tables.filter(ruleset=self.ruleset)
        if self.pace == "fast":
            tables = tables.filter(turn__lt=HOUR)
        elif self.pace == "day":
            tables = tables.filter(turn__gte=HOUR, turn__lte=DAY)
        elif self.pace == "slow":
            tables = tables.filter(turn__gt=DAY)
        return tables
