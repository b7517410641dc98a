"""Ratings: openskill's Plackett-Luce model, one rating per ruleset.

Who is rated and in which order (the rules of issue 12):
- only people's seats (a bot seat is not rated; a person expelled by the clock still is);
- their places are their order among themselves by the game's places (the engine's, from the
  final totals, ties sharing a place), except that a player expelled by the clock comes after
  every person who was not;
- a game with fewer than two people is not rated; nor is one a moderator aborted (it never
  finishes, so the finish hook never sees it).

Shown as one number, ``display(mu, sigma) = 1500 + 40 * (mu - 3 * sigma)``: openskill's
ordinal (a conservative estimate, 0 for a newcomer) scaled so a newcomer starts at 1500 and a
place's worth of skill is a few dozen points. "Provisional" while sigma is above
``PROVISIONAL_SIGMA`` (a newcomer's sigma is 8.33; it shrinks with each rated game: below 6.5
after about ten three-player games, sooner at bigger tables).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma
BASE = 1500
SCALE = 40
PROVISIONAL_SIGMA = 6.5


def display(mu: float, sigma: float) -> int:
    """The rating people see.

    >>> display(25.0, 25 / 3)
    1500
    """
    return round(BASE + SCALE * (mu - 3 * sigma))


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


@dataclass(frozen=True)
class Entrant:
    """A seat as the rating sees it."""

    key: int  # anything that tells seats apart (the seat position)
    human: bool
    expelled: bool
    place: int  # the engine's place among all seats (ties share)
    mu: float = MU
    sigma: float = SIGMA


def human_ranks(entrants: Sequence[Entrant]) -> dict[int, int]:
    """Ranks (1 = best, ties share) of the people among themselves; empty if fewer than two.

    >>> E = Entrant
    >>> human_ranks([E(0, True, False, 2), E(1, False, False, 1), E(2, True, False, 3)])
    {0: 1, 2: 2}
    >>> human_ranks([E(0, True, True, 1), E(1, True, False, 2), E(2, True, False, 2)])
    {0: 3, 1: 1, 2: 1}
    """
    people = [e for e in entrants if e.human]
    if len(people) < 2:
        return {}
    order = {e.key: (e.expelled, e.place) for e in people}
    return {
        e.key: 1 + sum(1 for other in people if order[other.key] < order[e.key]) for e in people
    }


def rate(entrants: Sequence[Entrant]) -> dict[int, tuple[float, float]]:
    """New ``(mu, sigma)`` of each rated seat (the people, if at least two).

    >>> E = Entrant
    >>> new = rate([E(0, True, False, 1), E(1, True, False, 2)])
    >>> new[0][0] > 25 > new[1][0]
    True
    """
    ranks = human_ranks(entrants)
    if not ranks:
        return {}
    rated = [e for e in entrants if e.key in ranks]
    teams = [[MODEL.rating(mu=e.mu, sigma=e.sigma)] for e in rated]
    result = MODEL.rate(teams, ranks=[ranks[e.key] for e in rated])
    return {e.key: (team[0].mu, team[0].sigma) for e, team in zip(rated, result, strict=True)}
