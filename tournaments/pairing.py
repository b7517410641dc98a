"""Swiss pairing of players into tables (pure: no Django; tests/site/test_tournament_pairing.py).

A round's players come ranked by the standings. They are cut into tables of the tournament's
size, one more or one less where the count demands (:func:`plan_sizes`), then seated by rank
while avoiding opponents met before (:func:`seat_tables`): the repeats are what is minimised
first, the spread of ranks within each table second.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

P = TypeVar("P", bound=Hashable)

# A repeat opponent outweighs any difference of ranks.
REPEAT_WEIGHT = 1_000_000
# Restarts of the seating from perturbed orders, when the first found repeats.
RESTARTS = 24


@dataclass(frozen=True)
class Plan:
    """The sizes of a round's tables (largest first) and how many bots fill the last one."""

    sizes: tuple[int, ...]
    bots: int = 0


def plan_sizes(players: int, size: int, low: int, high: int) -> Plan:
    """Tables for ``players`` at ``size`` seats, each of ``size - 1``, ``size`` or ``size + 1``
    seats within the ruleset's ``low``..``high``: as few tables off ``size`` as possible, then
    as many tables as possible. Where no such split exists (5 players at tables of 3 when a
    game needs 3), bots fill the last table up: they take as few seats as possible.

    >>> plan_sizes(9, 3, 3, 8)
    Plan(sizes=(3, 3, 3), bots=0)
    >>> plan_sizes(9, 4, 3, 8)
    Plan(sizes=(5, 4), bots=0)
    >>> plan_sizes(5, 3, 3, 8)
    Plan(sizes=(3, 3), bots=1)
    """
    allowed = [s for s in (size, size - 1, size + 1) if low <= s <= high]
    best: tuple[int, int] | None = None
    chosen: tuple[int, ...] = ()
    for tables in range(1, players + 1):
        diff = players - tables * size
        sign = 1 if diff > 0 else -1
        if abs(diff) > tables or (diff and size + sign not in allowed):
            continue
        sizes = tuple(
            sorted([size + sign] * abs(diff) + [size] * (tables - abs(diff)), reverse=True)
        )
        key = (abs(diff), -tables)
        if best is None or key < best:
            best, chosen = key, sizes
    if chosen:
        return Plan(chosen)
    # No split: the fewest bots that make one.
    for bots in range(1, high + 1):
        found = plan_sizes(players + bots, size, low, high)
        if not found.bots:
            return Plan(found.sizes, bots)
    return Plan((max(low, players),), max(low, players) - players)


def pairs_met(tables: Iterable[Sequence[P]]) -> set[frozenset[P]]:
    """Every pair of players who sat at one table."""
    return {frozenset(pair) for table in tables for pair in itertools.combinations(table, 2)}


def repeats(tables: Sequence[Sequence[P]], met: set[frozenset[P]]) -> int:
    """How many pairs at these tables met before."""
    return sum(1 for pair in pairs_met(tables) if pair in met)


def seat_tables(ranked: Sequence[P], sizes: Sequence[int], met: set[frozenset[P]]) -> list[list[P]]:
    """Seat ``ranked`` (best first) at tables of ``sizes`` (summing to their number): table 1
    takes the best-ranked, and so on, except where that seats opponents who met before.

    >>> seat_tables("ABCDEF", [3, 3], set())
    [['A', 'B', 'C'], ['D', 'E', 'F']]
    >>> seat_tables("ABCDEF", [3, 3], pairs_met(["ABC", "DEF"]))
    [['A', 'B', 'D'], ['C', 'E', 'F']]
    """
    if sum(sizes) != len(ranked):
        raise ValueError(f"{len(ranked)} players for {sum(sizes)} seats")
    rank = {p: i for i, p in enumerate(ranked)}
    best = _improve(_greedy(list(ranked), sizes, met), met, rank)
    if _cost(best, met, rank) >= REPEAT_WEIGHT:
        for shift in range(1, RESTARTS + 1):
            # Deterministic perturbations: every shift-th player first, the rest after.
            order = list(ranked[:: shift + 1]) + [
                p for i, p in enumerate(ranked) if i % (shift + 1)
            ]
            tried = _improve(_greedy(order, sizes, met), met, rank)
            if _cost(tried, met, rank) < _cost(best, met, rank):
                best = tried
            if _cost(best, met, rank) < REPEAT_WEIGHT:
                break
    # Within a table the seats follow the ranks, so the table reads as the standings do.
    return sorted(
        (sorted(table, key=rank.__getitem__) for table in best),
        key=lambda table: (rank[table[0]], -len(table)),
    )


def _greedy(order: list[P], sizes: Sequence[int], met: set[frozenset[P]]) -> list[list[P]]:
    pool = list(order)
    tables: list[list[P]] = []
    for size in sizes:
        table = [pool.pop(0)]
        while len(table) < size:
            pick = min(
                range(len(pool)),
                key=lambda i: (sum(frozenset((pool[i], q)) in met for q in table), i),
            )
            table.append(pool.pop(pick))
        tables.append(table)
    return tables


def _table_cost(table: Sequence[P], met: set[frozenset[P]], rank: dict[P, int]) -> int:
    ranks = [rank[p] for p in table]
    met_here = sum(1 for pair in itertools.combinations(table, 2) if frozenset(pair) in met)
    return REPEAT_WEIGHT * met_here + max(ranks) - min(ranks)


def _cost(tables: Sequence[Sequence[P]], met: set[frozenset[P]], rank: dict[P, int]) -> int:
    return sum(_table_cost(t, met, rank) for t in tables)


def _improve(tables: list[list[P]], met: set[frozenset[P]], rank: dict[P, int]) -> list[list[P]]:
    """Swap players between tables while a swap lowers the cost (a local optimum). A swap
    changes two tables: only their costs are computed again."""
    costs = [_table_cost(t, met, rank) for t in tables]
    improved = True
    while improved:
        improved = False
        for a, b in itertools.combinations(range(len(tables)), 2):
            for i, j in itertools.product(range(len(tables[a])), range(len(tables[b]))):
                tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                new_a = _table_cost(tables[a], met, rank)
                new_b = _table_cost(tables[b], met, rank)
                if new_a + new_b < costs[a] + costs[b]:
                    costs[a], costs[b] = new_a, new_b
                    improved = True
                else:
                    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
    return tables
