"""A player's analysed decisions for their statistics page, in a fixed number of queries.

Per ruleset: the average cost per decision and by kind, the share not best; the mistakes they
make most often (alike ones counted together: ``Decision.pattern``); game by game, over time;
and the state of each game's analysis on the page's list of finished games.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Avg, Count, Q, Sum

from .models import Decision, GameAnalysis

# The kinds of decision, as the page's columns name them.
KINDS = [
    (Decision.Kind.DRAW.value, "Draws"),
    (Decision.Kind.BUY.value, "“May I?”"),
    (Decision.Kind.DISCARD.value, "Discards"),
    (Decision.Kind.LAY_DOWN.value, "Lay-downs"),
    (Decision.Kind.LAY_OFF.value, "Lay-offs"),
]
# The mistakes listed, the most frequent first.
PATTERNS_SHOWN = 5
# The games drawn over time (the newest).
GAMES_SHOWN = 60
WRONG = ~Q(label=Decision.Label.BEST)
SERIOUS = Q(label__in=[Decision.Label.MISTAKE, Decision.Label.BLUNDER])


@dataclass
class KindFigure:
    kind: str
    name: str
    decisions: int = 0
    cost: float | None = None  # average
    wrong: int = 0


@dataclass
class RulesetFigures:
    ruleset: str
    decisions: int = 0
    cost: float | None = None
    wrong: int = 0
    blunders: int = 0
    kinds: list[KindFigure] = field(default_factory=list)

    @property
    def wrong_share(self) -> float | None:
        return self.wrong / self.decisions if self.decisions else None


def _scoped(user: User, scope: str) -> Any:
    decisions = Decision.objects.filter(user=user)
    return decisions if scope == "all" else decisions.filter(ruleset=scope)


def player_decisions(*, user: User, scope: str) -> dict[str, Any]:
    """The figures of ``user``'s analysed decisions, in ``scope`` (a ruleset, or ``all``)."""
    mine = _scoped(user, scope)
    by_ruleset: dict[str, RulesetFigures] = {}
    for row in (
        mine.values("ruleset", "kind")
        .annotate(
            n=Count("id"),
            mean=Avg("cost"),
            total=Sum("cost"),
            wrong=Count("id", filter=WRONG),
            blunders=Count("id", filter=Q(label=Decision.Label.BLUNDER)),
        )
        .order_by("ruleset", "kind")
    ):
        figures = by_ruleset.setdefault(
            row["ruleset"],
            RulesetFigures(row["ruleset"], kinds=[KindFigure(k, name) for k, name in KINDS]),
        )
        kind = next(k for k in figures.kinds if k.kind == row["kind"])
        kind.decisions, kind.cost, kind.wrong = row["n"], row["mean"], row["wrong"]
        total_before = (figures.cost or 0.0) * figures.decisions
        figures.decisions += row["n"]
        figures.cost = (total_before + (row["total"] or 0.0)) / figures.decisions
        figures.wrong += row["wrong"]
        figures.blunders += row["blunders"]
    patterns = list(
        mine.filter(WRONG)
        .values("kind", "pattern")
        .annotate(n=Count("id"), mean=Avg("cost"))
        .order_by("-n", "-mean", "pattern")[:PATTERNS_SHOWN]
    )
    games = list(
        mine.values("analysis_id", "analysis__ended", "analysis__table__public", "ruleset")
        .annotate(n=Count("id"), mean=Avg("cost"), serious=Count("id", filter=SERIOUS))
        .order_by("-analysis__ended", "-analysis_id")[:GAMES_SHOWN]
    )
    games.reverse()
    return {
        "rulesets": sorted(by_ruleset.values(), key=lambda f: -f.decisions),
        "patterns": patterns,
        "games": [
            {
                "table": g["analysis_id"],
                "ended": g["analysis__ended"],
                "ruleset": g["ruleset"],
                "public": g["analysis__table__public"],
                "decisions": g["n"],
                "cost": g["mean"],
                "serious": g["serious"],
            }
            for g in games
        ],
    }


@dataclass
class GameMark:
    """A finished game's analysis as the list of games shows it."""

    status: str  # "ready", "pending" (queued or waiting), "failed"
    queued: bool
    decisions: int = 0
    cost: float | None = None
    mistakes: int = 0
    blunders: int = 0


def game_marks(*, user: User, table_ids: list[int]) -> dict[int, GameMark]:
    """The analysis of each of these games, with ``user``'s own decisions' figures (two
    queries, however many games)."""
    marks = {
        pk: GameMark(status=status, queued=queued is not None)
        for pk, status, queued in GameAnalysis.objects.filter(pk__in=table_ids).values_list(
            "pk", "status", "queued"
        )
    }
    for row in (
        Decision.objects.filter(analysis_id__in=list(marks), user=user)
        .values("analysis_id")
        .annotate(
            n=Count("id"),
            mean=Avg("cost"),
            mistakes=Count("id", filter=Q(label=Decision.Label.MISTAKE)),
            blunders=Count("id", filter=Q(label=Decision.Label.BLUNDER)),
        )
        .order_by()
    ):
        mark = marks[row["analysis_id"]]
        mark.decisions, mark.cost = row["n"], row["mean"]
        mark.mistakes, mark.blunders = row["mistakes"], row["blunders"]
    return marks
