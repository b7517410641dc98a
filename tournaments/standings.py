"""Reading a tournament's standings from its scored results (tournaments/scoring.py ranks)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tournaments.models import Entry, Result, Tournament

from . import scoring


def standings_of(tournament: Tournament) -> list[scoring.Standing]:
    """Every registered player (withdrawn ones keep their points), ranked: three queries."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user"))
    names = {e.pk: e.user.get_username() for e in entries}
    results = list(
        Result.objects.filter(round_table__round__tournament=tournament).values(
            "round_table_id", "entry_id", "place_points", "duplicate"
        )
    )
    at_table: dict[int, list[int]] = defaultdict(list)
    for r in results:
        if r["entry_id"] is not None:
            at_table[r["round_table_id"]].append(r["entry_id"])
    games = [
        scoring.GameLine(
            player=r["entry_id"],
            points=r["place_points"],
            duplicate=r["duplicate"],
            opponents=tuple(e for e in at_table[r["round_table_id"]] if e != r["entry_id"]),
        )
        for r in results
        if r["entry_id"] is not None
    ]
    return scoring.standings(names, games)


def standings_json(lines: list[scoring.Standing], withdrawn: set[Any]) -> list[dict[str, Any]]:
    """The standings as the API and the kept final standings give them."""
    return [
        {
            "rank": line.rank,
            "username": line.name,
            "points": line.points,
            "duplicate": line.duplicate,
            "total": round(line.total, 3),
            "games": line.games,
            "opponents": line.opponents,
            "withdrawn": line.player in withdrawn,
        }
        for line in lines
    ]


def withdrawn_entries(tournament: Tournament) -> set[Any]:
    return set(
        Entry.objects.filter(tournament=tournament, withdrawn__isnull=False).values_list(
            "pk", flat=True
        )
    )
