"""Tournament scoring (pure: no Django). docs/TOURNAMENTS.md works an example by hand, and
tests/site/test_tournament_scoring.py reproduces it.

In May I? the lower total wins. Per game, each player gets
- **place points**: one for each other player at the table who finished with a higher total
  (a tie gives neither a point); a seat whose player withdrew or was expelled during the game
  scores last: 0 points, and every other player at the table gets its point;
- a **duplicate score** (0 to 1): the share of the players in the same seat position at the
  other tables of the same deal (the round's tables with the same seat count) who finished
  with a higher total. A deal played at one table only has nobody to compare with: 0.5, the
  score of an average game. A withdrawn or expelled seat's duplicate score is 0.

The standings rank by points + duplicate, then by the opponents' points (the sum, over every
game, of the final points + duplicate of each opponent at the table), then by the duplicate
score alone, then by name.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

NO_COMPARISON = 0.5


@dataclass(frozen=True)
class SeatOutcome:
    """One seat's end of a game: its final total, and whether it forfeited (withdrew or was
    expelled: it scores last whatever the bot made of it)."""

    total: int
    forfeited: bool = False


def place_points(table: Sequence[SeatOutcome]) -> list[float]:
    """Each seat's place points at one table, by position.

    >>> place_points([SeatOutcome(120), SeatOutcome(45), SeatOutcome(200)])
    [1.0, 2.0, 0.0]
    >>> place_points([SeatOutcome(10, forfeited=True), SeatOutcome(45), SeatOutcome(45)])
    [0.0, 1.0, 1.0]
    """
    points = []
    for me in table:
        if me.forfeited:
            points.append(0.0)
            continue
        beaten = sum(
            1 for other in table if other is not me and (other.forfeited or other.total > me.total)
        )
        points.append(float(beaten))
    return points


def duplicate_scores(deal: Sequence[Sequence[SeatOutcome]]) -> list[list[float]]:
    """Each seat's duplicate score at each table of one deal (same seed, same seat count).

    >>> deal = [[SeatOutcome(120), SeatOutcome(45)], [SeatOutcome(80), SeatOutcome(150)]]
    >>> duplicate_scores(deal)
    [[0.0, 1.0], [1.0, 0.0]]
    """
    scores: list[list[float]] = []
    for t, table in enumerate(deal):
        row = []
        for position, me in enumerate(table):
            others = [
                other[position] for u, other in enumerate(deal) if u != t and position < len(other)
            ]
            if me.forfeited:
                row.append(0.0)
            elif not others:
                row.append(NO_COMPARISON)
            else:
                row.append(sum(1 for o in others if o.total > me.total) / len(others))
        scores.append(row)
    return scores


@dataclass(frozen=True)
class GameLine:
    """One player's scored game: the keys of the opponents at the table (players only)."""

    player: Hashable
    points: float
    duplicate: float
    opponents: tuple[Hashable, ...] = ()


@dataclass
class Standing:
    player: Hashable
    name: str
    points: float = 0.0
    duplicate: float = 0.0
    games: int = 0
    opponents: float = 0.0  # the tie-break: the opponents' points + duplicate, summed
    rank: int = 0
    opponent_keys: list[Hashable] = field(default_factory=list)

    @property
    def total(self) -> float:
        return self.points + self.duplicate


def standings(names: Mapping[Any, str], games: Sequence[GameLine]) -> list[Standing]:
    """The standings of every player in ``names`` (registered, withdrawn ones too) from their
    scored games, ranked; players level on every key share a rank.

    >>> s = standings({1: "ann", 2: "bea"}, [GameLine(1, 1.0, 0.5, (2,)), GameLine(2, 0.0, 0.5, (1,))])
    >>> [(x.rank, x.name, x.total) for x in s]
    [(1, 'ann', 1.5), (2, 'bea', 0.5)]
    """
    table = {key: Standing(key, name) for key, name in names.items()}
    for game in games:
        line = table[game.player]
        line.points += game.points
        line.duplicate += game.duplicate
        line.games += 1
        line.opponent_keys.extend(game.opponents)
    for line in table.values():
        line.points = round(line.points, 3)
        line.duplicate = round(line.duplicate, 3)
    for line in table.values():
        line.opponents = round(sum(table[k].total for k in line.opponent_keys if k in table), 3)
    ranked = sorted(table.values(), key=_key)
    for i, line in enumerate(ranked):
        level = i and _key(ranked[i - 1])[:3] == _key(line)[:3]
        line.rank = ranked[i - 1].rank if level else i + 1
    return ranked


def _key(line: Standing) -> tuple[float, float, float, str]:
    return (-round(line.total, 3), -line.opponents, -line.duplicate, line.name)
