"""What a bot seat knows, and how far a hand is from the round's contract.

:func:`knowledge` gathers everything a seat may know: its own hand, the table, the discard
pile (every discard was seen by all), and the public history of the round (``taken``: the
cards each seat took from the pile, by drawing or buying). It never reads another hand or
the stock, so a bot built on it decides the same way however the hidden cards lie.

:func:`distance` is a fast estimate of how many cards a hand still needs to make a contract:
candidate books (per number) and runs (per letter, four places in a row) are scored by the
naturals they hold, the best few combined, shared naturals accounted for, wilds filling the
places they may fill (wilds never outnumber naturals, so each meld needs two naturals).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement

from .cards import WILD_RANK, parse_card
from .rulesets import RuleSet
from .scoring import PENALTY_TABLES
from .state import State, ruleset_of

Cell = tuple[int, str]  # (position 1..top, letter)


@dataclass
class Knowledge:
    """What ``seat`` may know now (all of it public, or its own)."""

    seat: int
    rules: RuleSet
    hand: list[str]
    # Copies of each natural face (rank, letter) the seat has seen outside the stock and the
    # other hands' unknown cards: its hand, the table, the discard pile, cards others took.
    seen: Counter
    # Per seat: natural faces it took from the pile and has not shown since (still in hand).
    holds: list[list[Cell]]
    hand_sizes: list[int]
    down: list[bool]
    copies: int  # copies of each natural face in the game (one per deck)


def knowledge(state: State, seat: int) -> Knowledge:
    rules = ruleset_of(state)
    hand = state["hands"][seat]
    seen: Counter = Counter()
    for c in hand:
        seen[parse_card(c)] += 1
    tabled: set[str] = set()
    for meld in state["melds"]:
        for c in meld["cards"]:
            tabled.add(c)
            seen[parse_card(c)] += 1
    pile = set(state["discard"])
    for c in state["discard"]:
        seen[parse_card(c)] += 1
    holds: list[list[Cell]] = [[] for _ in range(state["players"])]
    last: dict[str, int] = {}
    for s, c in state.get("taken") or []:
        last[c] = s  # the latest taker holds it, unless it was shown again since
    own = set(hand)
    for c, s in last.items():
        if s == seat or c in own or c in tabled or c in pile:
            continue
        p = parse_card(c)
        if p[0] != WILD_RANK:
            holds[s].append(p)
            seen[p] += 1
    return Knowledge(
        seat=seat,
        rules=rules,
        hand=hand,
        seen=seen,
        holds=holds,
        hand_sizes=[len(h) for h in state["hands"]],
        down=list(state["down"]),
        copies=rules.decks(state["players"]),
    )


def penalty_of(rules: RuleSet, card: str) -> int:
    return PENALTY_TABLES[rules.penalties](parse_card(card))


# -- distance to a contract -------------------------------------------------------------------
# A candidate meld: (kind, key, cells it uses from the hand, size aimed at).
_Cand = tuple[str, int, tuple[Cell, ...], int]


def _need(size: int, naturals: int) -> tuple[int, int]:
    """(naturals still needed, places wilds may fill) for a meld of ``size`` holding
    ``naturals``: at least two naturals, and wilds never more than naturals."""
    missing = max(0, size - naturals)
    must = max(0, max(2, (size + 1) // 2) - naturals)
    return must, missing - must


@dataclass
class Distance:
    cards: int  # cards still to get (naturals or wilds) at best
    cells: tuple[Cell, ...]  # naturals of the hand the best plan uses
    wanted: tuple[Cell, ...]  # the naturals that plan still misses (one per missing place)


def distance(
    naturals: list[Cell], wilds: int, books: int, runs: int, top: int, ace_high: bool
) -> Distance:
    """How far ``naturals`` + ``wilds`` are from ``books`` books and ``runs`` runs."""
    counts = Counter(naturals)
    by_rank: Counter = Counter()
    for (r, _), n in counts.items():
        by_rank[r] += n
    book_cands: list[_Cand] = []
    if books:
        for r, _n in sorted(by_rank.items(), key=lambda x: (-x[1], -x[0])):
            cells = tuple(c for c in counts for _ in range(counts[c]) if c[0] == r)
            book_cands.append(("book", r, cells, 3))
        book_cands = book_cands[: max(6, books + 3)]
    run_cands: list[_Cand] = []
    if runs:
        letters: dict[str, set[int]] = {}
        for r, s in counts:
            letters.setdefault(s, set()).add(r)
            if ace_high and r == 1:
                letters[s].add(top)
        scored = []
        for s, ranks in letters.items():
            for lo in range(1, top - 2):
                inside = [r for r in range(lo, lo + 4) if r in ranks]
                if len(inside) >= 1:
                    cells = tuple((1 if r == top and ace_high else r, s) for r in inside)
                    scored.append((len(inside), lo, s, cells))
        scored.sort(key=lambda x: (-x[0], -x[1]))
        run_cands = [("run", lo, cells, 4) for _, lo, s, cells in scored[: max(8, runs + 5)]]
    best: tuple[int, tuple, tuple] | None = None
    book_sets = list(combinations_with_replacement(book_cands, books)) if books else [()]
    run_sets = list(combinations(run_cands, runs)) if runs else [()]
    if not book_sets:
        book_sets = [()]
        books_short = books
    else:
        books_short = 0
    if not run_sets:
        run_sets = [()]
        runs_short = runs - len(run_cands)
    else:
        runs_short = 0
    for rs in run_sets:
        used: Counter = Counter()
        must = fill = 0
        ok = True
        wanted: list[Cell] = []
        for _, lo, cells, size in rs:
            for c in cells:
                used[c] += 1
                if used[c] > counts[c]:
                    ok = False
            m, f = _need(size, len(cells))
            must += m
            fill += f
            have = {top if ace_high and r == 1 and lo > 1 else r for r, _ in cells}
            suit = cells[0][1]
            wanted += [(r, suit) for r in range(lo, lo + 4) if r not in have]
        if not ok:
            continue
        for bs in book_sets:
            used_b = Counter(used)
            m_b = f_b = 0
            cells_b: list[Cell] = []
            wanted_b: list[Cell] = []
            for _, r, cells, size in bs:
                take = [c for c in cells if used_b[c] < counts[c]][:3]
                for c in take:
                    used_b[c] += 1
                cells_b += take
                m, f = _need(size, len(take))
                m_b += m
                f_b += f
                wanted_b += [(r, "")] * (size - len(take))
            total_must = must + m_b
            total_fill = fill + f_b
            cost = total_must + max(0, total_fill - wilds)
            cost += 2 * (books_short + runs_short) + 2 * max(0, books - len(bs))
            if best is None or cost < best[0]:
                plan_cells = tuple(c for _, _, cells, _ in rs for c in cells) + tuple(cells_b)
                best = (cost, plan_cells, tuple(wanted) + tuple(wanted_b))
    if best is None:
        return Distance(3 * books + 4 * runs, (), ())
    return Distance(best[0], best[1], best[2])


def hand_distance(rules: RuleSet, hand: list[str], books: int, runs: int) -> Distance:
    naturals: list[Cell] = []
    wilds = 0
    for c in hand:
        p = parse_card(c)
        if p[0] == WILD_RANK:
            wilds += 1
        else:
            naturals.append(p)
    cs = rules.cards
    return distance(naturals, wilds, books, runs, cs.top, cs.ace_high)
