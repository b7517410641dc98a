"""What the registration and the rounds both need: the tournament's row lock, and the table
sizes a ruleset's games take."""

from __future__ import annotations

import functools

from games import engine
from games.models import MAX_SEATS
from tournaments.models import Tournament

from .errors import BadOptions, TournamentNotFound


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament's row, locked until the end of the caller's transaction: every change
    of its registration and rounds runs under it, one after the other."""
    found = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if found is None:
        raise TournamentNotFound(f"there is no tournament {tournament_id}")
    return found


@functools.cache
def seat_range(ruleset: str) -> tuple[int, int]:
    """The fewest and most players a game of ``ruleset`` takes (the engine says)."""
    sizes = []
    for players in range(2, MAX_SEATS + 1):
        try:
            engine.new_game(players, "probe", ruleset)
        except engine.IllegalMove:
            continue
        sizes.append(players)
    if not sizes:
        raise BadOptions(f"there is no ruleset {ruleset!r}")
    return sizes[0], sizes[-1]
