"""Ratings: openskill's Plackett-Luce model, one rating per ruleset, shown so players believe it.

Who is rated and in which order (issues 12 and 29):
- only people's seats (a bot seat is not rated; a person expelled by the clock, or whose seat a
  moderator gave to the bot, still is: they rank last);
- their places are their order among themselves by the game's places (the engine's, from the
  final totals, ties sharing a place), except that an expelled seat comes after every person
  who finished in theirs;
- a game with fewer than two people is not rated; nor is one in which no person finished in
  their seat (everyone expelled), nor one a moderator aborted (it never finishes, so the
  finish hook never sees it).

Shown as ``display(mu) = 1500 + 40 * (mu - 25)``: the skill estimate μ itself on a scale where a
newcomer starts at 1500 and a place's worth of skill is a few dozen points, marked
"provisional" while σ is above ``PROVISIONAL_SIGMA``. The number shown used to be openskill's
ordinal μ − 3σ, which rises as σ shrinks whatever the result: a player expelled and last of 4
gained 116. Two rules make it believable:
- the shown number never rises after a game finished last, and never falls after a game
  finished first (openskill's update is clamped at the old μ when it would; with ties or a
  strong field it can go the other way by a hair);
- the leaderboard still ranks by the conservative ``μ − 3σ`` (``conservative``), so a lucky
  newcomer does not top it, and says so on the page.
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


def display(mu: float) -> int:
    """The rating people see: μ on the 1500 scale.

    >>> display(25.0), display(26.5)
    (1500, 1560)
    """
    return round(BASE + SCALE * (mu - MU))


def conservative(mu: float, sigma: float) -> int:
    """μ − 3σ on the shown scale: what the leaderboard ranks by (a newcomer: 500).

    >>> conservative(25.0, 25 / 3)
    500
    """
    return round(BASE + SCALE * (mu - 3 * sigma - MU))


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


def _order(e: Entrant) -> tuple[bool, int]:
    # An expelled seat after every seat that finished in its own; then the engine's place.
    return (e.human and e.expelled, e.place)


def human_ranks(entrants: Sequence[Entrant]) -> dict[int, int]:
    """Ranks (1 = best, ties share) of the people among themselves; empty when the game is
    not rated (fewer than two people, or no person finished in their seat).

    >>> E = Entrant
    >>> human_ranks([E(0, True, False, 2), E(1, False, False, 1), E(2, True, False, 3)])
    {0: 1, 2: 2}
    >>> human_ranks([E(0, True, True, 1), E(1, True, False, 2), E(2, True, False, 2)])
    {0: 3, 1: 1, 2: 1}
    >>> human_ranks([E(0, True, True, 1), E(1, True, True, 2), E(2, False, False, 3)])
    {}
    """
    people = [e for e in entrants if e.human]
    if len(people) < 2 or all(e.expelled for e in people):
        return {}
    return {e.key: 1 + sum(1 for other in people if _order(other) < _order(e)) for e in people}


def finished_first_last(entrants: Sequence[Entrant], key: int) -> tuple[bool, bool]:
    """Whether seat ``key`` finished the game first, and whether last: among the people, or at
    the whole table (bots included, an expelled seat last)."""
    me = next(e for e in entrants if e.key == key)
    people = [e for e in entrants if e.human]
    first = all(_order(o) >= _order(me) for o in entrants) or all(
        _order(o) >= _order(me) for o in people
    )
    last = all(_order(o) <= _order(me) for o in entrants) or all(
        _order(o) <= _order(me) for o in people
    )
    return first, last


def rate(entrants: Sequence[Entrant]) -> dict[int, tuple[float, float]]:
    """New ``(mu, sigma)`` of each rated seat (see the module's rules).

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
    out = {}
    for e, team in zip(rated, result, strict=True):
        mu, sigma = team[0].mu, team[0].sigma
        first, last = finished_first_last(entrants, e.key)
        if last:
            mu = min(mu, e.mu)
        if first:
            mu = max(mu, e.mu)
        out[e.key] = (mu, sigma)
    return out
