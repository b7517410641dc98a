"""Reliability: of a player's last ``RECENT`` games, how many they finished in their seat, and
how long they take to move (issue 29; Board Game Arena's "karma", with its counts shown).

A game counts once it is over: finished, or (for a player a moderator replaced by someone else
while it was played) when the seat was handed over. It was finished *in their seat* unless the
turn clock expelled them, a moderator gave their seat to the bot (a suspension does too) or to
another player. A table a moderator aborted is no game of anybody's here: its end was nobody's
doing. Play against bots counts like any game: walking away from one is walking away.

The time to move of one game is the median of the player's seconds from each turn's start to
their first action in it (the round records' ``think_seconds``); a player's figure is the
median of those over the same games. Below ``NEW_BELOW`` games the share is ``None``: the page
says "new" (``games.reliability.Figure``, the figure as the platform shows it).

Kept per player in ``stats.Reliability`` (written in the transaction that finishes the game),
so a lobby of many players reads one row each.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from statistics import median
from typing import Any

from django.contrib.auth.models import User

# The figure is the platform's (its lobby and join rules show and read it): stats computes it.
from games.reliability import NONE, Figure

from .models import Reliability

RECENT = 100


def game_move_seconds(think_seconds: Iterable[float]) -> float | None:
    """The median of one game's times to move (None when the player never moved)."""
    values = [float(v) for v in think_seconds]
    return round(median(values), 1) if values else None


def summarise(recent: Sequence[Sequence[Any]]) -> tuple[int, int, float | None, int]:
    """``(games, finished, median seconds to move, timeouts)`` of a window of games."""
    times = [float(r[2]) for r in recent if r[2] is not None]
    return (
        len(recent),
        sum(1 for r in recent if r[1]),
        round(median(times), 1) if times else None,
        sum(int(r[3]) for r in recent if len(r) > 3),
    )


Entry = tuple[int, bool, float | None, int]


def reliability_record(*, entries: Mapping[int, Entry]) -> None:
    """Add one game to each player's window: ``{user id: (table id, finished in their seat,
    median seconds to move, turns timed out)}``. The caller is in the transaction of the game's end; the rows
    are locked in user order (two games ending at once lock the same way round)."""
    if not entries:
        return
    ids = sorted(entries)
    Reliability.objects.bulk_create([Reliability(user_id=u) for u in ids], ignore_conflicts=True)
    rows = list(Reliability.objects.select_for_update().filter(user_id__in=ids).order_by("user_id"))
    for row in rows:
        table_id, finished, seconds, timeouts = entries[row.user_id]
        recent = [r for r in row.recent if r[0] != table_id]
        recent.append([table_id, 1 if finished else 0, seconds, timeouts])
        row.recent = recent[-RECENT:]
        row.games, row.finished, row.median_move_seconds, row.timeouts = summarise(row.recent)
    Reliability.objects.bulk_update(
        rows, ["recent", "games", "finished", "median_move_seconds", "timeouts"]
    )


def figure_of(row: Reliability | None) -> Figure:
    if row is None:
        return NONE
    return Figure(
        finished=row.finished,
        games=row.games,
        median_move_seconds=row.median_move_seconds,
        timeouts=row.timeouts,
    )


def reliability(user: User | int) -> Figure:
    """A player's reliability (``share`` None, "new", below 5 games)."""
    user_id = user if isinstance(user, int) else user.pk
    return figure_of(Reliability.objects.filter(user_id=user_id).first())


def reliability_many(user_ids: Iterable[int | None]) -> dict[int, Figure]:
    """Reliability of many players in one query (every id given is in the answer)."""
    ids = {u for u in user_ids if u is not None}
    if not ids:
        return {}
    rows = {
        r.user_id: r
        for r in Reliability.objects.filter(user_id__in=ids).only(
            "user_id", "games", "finished", "median_move_seconds", "timeouts"
        )
    }
    return {u: figure_of(rows.get(u)) for u in ids}
