"""Who may take a seat (issue 29): blocks, the table's reliability rule, the cap on games.

Each refusal says why in the player's words; a block's says only that they cannot join this
table (blocking is silent: the blocked player learns nothing of who or why).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Exists, OuterRef

from games import providers
from games.models import Seat, Table
from games.reliability import NEW_BELOW

from .errors import BadOptions, NotSeated


class Refused(NotSeated):
    """A seat refused by a rule (403): ``blocked``, ``below_table_reliability``,
    ``too_many_games``."""


def reliability_rule(table_options: dict[str, Any]) -> tuple[float | None, int | None]:
    """The table's join rule: ``(min_reliability, max_timeouts)``, each None when unset."""
    low = table_options.get("min_reliability")
    most = table_options.get("max_timeouts")
    return (None if low is None else float(low), None if most is None else int(most))


def check_rule_options(min_reliability: Any, max_timeouts: Any) -> dict[str, Any]:
    """The join rule's options as a table stores them (absent when unset)."""
    out: dict[str, Any] = {}
    if min_reliability is not None:
        if (
            isinstance(min_reliability, bool)
            or not isinstance(min_reliability, int | float)
            or not 0 <= min_reliability <= 1
        ):
            raise BadOptions("min_reliability must be a number from 0 to 1")
        if min_reliability > 0:
            out["min_reliability"] = round(float(min_reliability), 2)
    if max_timeouts is not None:
        if isinstance(max_timeouts, bool) or not isinstance(max_timeouts, int):
            raise BadOptions("max_timeouts must be an integer from 0 to 1000")
        if not 0 <= max_timeouts <= 1000:
            raise BadOptions("max_timeouts must be an integer from 0 to 1000")
        out["max_timeouts"] = max_timeouts
    return out


def check_may_sit(*, user: User, table: Table, seats: Sequence[Seat]) -> None:
    """Raise ``Refused`` when ``user`` may not take a seat at ``table`` (the caller holds its
    lock): a block either way with someone seated, the table's reliability rule, the cap."""
    people = [s.user_id for s in seats if s.user_id is not None and s.user_id != user.pk]
    if providers.relations().blocks_among(user, people):
        raise Refused("you cannot join this table", code="blocked")
    check_reliability_rule(user=user, options=table.options)
    check_game_cap(user=user)


def check_reliability_rule(*, user: User, options: dict[str, Any]) -> None:
    low, most = reliability_rule(options)
    if low is None and most is None:
        return
    mine = providers.trust().reliability(user.pk)
    if low is not None:
        wanted = f"this table asks for a reliability of at least {round(low * 100)}%"
        if mine.share is None:
            raise Refused(
                f"{wanted}, and you have finished {mine.games} game"
                f"{'s' if mine.games != 1 else ''}: a reliability shows from {NEW_BELOW} games",
                code="below_table_reliability",
            )
        if mine.share < low:
            raise Refused(
                f"{wanted}: yours is {mine.percent}% (finished {mine.finished} of your last "
                f"{mine.games} games in your seat)",
                code="below_table_reliability",
            )
    if most is not None and mine.timeouts > most:
        raise Refused(
            f"this table accepts players with at most {most} turn"
            f"{'s' if most != 1 else ''} timed out in their last games: you have "
            f"{mine.timeouts} in your last {mine.games}",
            code="below_table_reliability",
        )


def max_open_games(user: User) -> int:
    """How many unfinished turn-based games ``user`` may have: the setting, one more for
    each game they finished in their seat."""
    finished = providers.trust().games_finished(user.pk)
    return int(settings.MAYI_MAX_OPEN_GAMES) + finished


def open_games(user: User) -> int:
    """``user``'s unfinished turn-based games: tables open or being played where they sit (not
    expelled), but for games against bots alone ("Play now": bots and no other person)."""
    others = Seat.objects.filter(table=OuterRef("pk"), is_bot=False, user__isnull=False).exclude(
        user=user
    )
    bots = Seat.objects.filter(table=OuterRef("pk"), is_bot=True)
    mine = Seat.objects.filter(user=user, expelled=False).values("table_id")
    return (
        Table.objects.filter(pk__in=mine, status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        .annotate(people=Exists(others), bots=Exists(bots))
        .exclude(people=False, bots=True)
        .count()
    )


def check_game_cap(*, user: User) -> None:
    limit = max_open_games(user)
    if open_games(user) >= limit:
        raise Refused(
            f"you have {limit} unfinished games, as many as you may: finish one (each game "
            "you finish also lets you play one more at once); games against bots alone do "
            "not count",
            code="too_many_games",
        )
