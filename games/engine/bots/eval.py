"""How far a hand is from a contract, and which cards would bring it nearer (the strong bot).

:func:`analyse` is the strong bot's measure of a hand, in the manner of mahjong's
"shanten and ukeire": ``dist`` is the fewest cards the hand still needs to hold the round's
contract (each meld at its least size, wilds filling the places they may: every meld keeps two
naturals and no more wilds than naturals), and ``outs`` are the faces any one of which would
bring it one card nearer, over every plan that reaches ``dist``. Runs are searched exactly
(every choice of windows of four places, branch and bound), books are then the best numbers
left. A plan's melds are kept too (``books``, ``runs``), so that the bot knows which spare cards
would lengthen them at the lay-down.

It is a pure function of the cards given, cached, so a turn that weighs a dozen discards pays
for each distinct hand once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from ..cards import WILD_RANK, parse_card

Cell = tuple[int, str]  # (rank, suit); (rank, "") any card of that number; (0, "?") a wild
WILD_CELL: Cell = (WILD_RANK, "?")


@dataclass(frozen=True)
class Analysis:
    dist: int  # cards still needed at best
    outs: frozenset[Cell]  # faces that would lower dist (books: (rank, ""), wilds: WILD_CELL)
    books: tuple[int, ...]  # one best plan: the numbers of its books
    runs: tuple[tuple[str, int], ...]  # and its runs: (suit, lowest position), four places


def hand_key(hand: list[str]) -> tuple[tuple[Cell, ...], int]:
    """The naturals of a hand (sorted) and its number of wilds: what :func:`analyse` reads."""
    naturals = []
    wilds = 0
    for c in hand:
        p = parse_card(c)
        if p[0] == WILD_RANK:
            wilds += 1
        else:
            naturals.append(p)
    naturals.sort()
    return tuple(naturals), wilds


@lru_cache(maxsize=200_000)
def analyse(
    naturals: tuple[Cell, ...], wilds: int, books: int, runs: int, ranks: int, ace_high: bool
) -> Analysis:
    """Distance and outs of a hand (``hand_key``) for ``books`` books and ``runs`` runs.

    >>> a = analyse(((3, "M"), (3, "A"), (7, "Y"), (8, "Y"), (9, "Y")), 0, 1, 1, 13, False)
    >>> a.dist, sorted(a.outs)
    (2, [(0, '?'), (3, ''), (6, 'Y'), (10, 'Y')])
    """
    counts: dict[Cell, int] = {}
    for c in naturals:
        counts[c] = counts.get(c, 0) + 1
    top = ranks + 1 if ace_high else ranks
    suits = sorted({s for _, s in counts})

    def cell_at(pos: int, suit: str) -> Cell:
        return (1, suit) if pos > ranks else (pos, suit)

    windows: list[tuple[int, str, int, tuple[Cell, ...]]] = []
    if runs:
        singles: set[tuple[str, int]] = set()
        for s in suits:
            for lo in range(1, top - 2):
                cells = tuple(cell_at(p, s) for p in range(lo, lo + 4))
                held = sum(1 for c in cells if counts.get(c, 0) > 0)
                if held > 1:
                    windows.append((held, s, lo, cells))
                elif held == 1:
                    # A lone card: one window around it stands for the four that hold it.
                    pos = next(p for p in range(lo, lo + 4) if counts.get(cell_at(p, s), 0))
                    singles.add((s, max(1, min(pos - 1, top - 3))))
        for s, lo in sorted(singles):
            windows.append((1, s, lo, tuple(cell_at(p, s) for p in range(lo, lo + 4))))
        windows.sort(key=lambda w: -w[0])
        windows += [(0, "", 0, ())] * runs  # places no card of the hand fills yet
    best_cost = 3 * books + 4 * runs + 1
    outs: set[Cell] = set()
    best_plan: tuple[tuple[int, ...], tuple[tuple[str, int], ...]] = ((), ())
    all_ranks = range(1, ranks + 1)
    # An upper bound on what books can hold, to prune run choices that cannot win.
    by_rank_full = [0] * (ranks + 1)
    for (r, _), n in counts.items():
        by_rank_full[r] += n
    book_bound = sum(sorted((min(3, n) for n in by_rank_full), reverse=True)[:books])
    need_total = 3 * books + 4 * runs
    wild_cap_bound = min(wilds, 2 * runs + books)
    chosen: list[tuple[str, int, int, tuple[Cell, ...]]] = []  # suit, lo, held, missing cells

    by_rank = by_rank_full[:]  # what the runs chosen so far leave for books

    def finish() -> None:
        nonlocal best_cost, outs, best_plan
        entries = []
        if books:
            for r in all_ranks:
                n = by_rank[r]
                entries.append((n if n < 3 else 3, r))
                if n >= 5:
                    entries.append((min(3, n - 3), r))
            entries.sort(reverse=True)
        picked = entries[:books]
        run_missing = [4 - held for _, _, held, _ in chosen]
        book_missing = [3 - h for h, _ in picked]
        missing = sum(run_missing) + sum(book_missing)
        cap = sum(min(m, 2) for m in run_missing) + sum(min(m, 1) for m in book_missing)
        cost = missing - min(wilds, cap)
        if cost > best_cost:
            return
        if cost < best_cost:
            best_cost = cost
            outs = set()
            best_plan = (
                tuple(r for h, r in picked if h),
                tuple((s, lo) for s, lo, held, _ in chosen if held),
            )
        abundant = wilds >= cap
        if not abundant:
            outs.add(WILD_CELL)
        for (_, _, held, miss), m in zip(chosen, run_missing, strict=True):
            if m and (not abundant or m > 2):
                if held:
                    outs.update(miss)
                else:
                    outs.update((r, "") for r in all_ranks)  # any natural starts a run
        if books:
            edge = picked[-1][0]
            for h, r in entries:
                if h < edge:
                    break
                if h < 3 and (not abundant or h < 2):
                    outs.add((r, ""))

    def search(start: int, left: int, held_so_far: int) -> None:
        if left == 0:
            finish()
            return
        for i in range(start, len(windows)):
            bound_held = held_so_far + windows[i][0] * left + book_bound
            if need_total - bound_held - wild_cap_bound > best_cost:
                return  # windows are sorted by what they hold: none further does better
            _, s, lo, cells = windows[i]
            took: list[Cell] = []
            miss: list[Cell] = []
            for c in cells:
                if counts.get(c, 0) > 0:
                    counts[c] -= 1
                    by_rank[c[0]] -= 1
                    took.append(c)
                else:
                    miss.append(c)
            chosen.append((s, lo, len(took), tuple(miss)))
            search(i + 1, left - 1, held_so_far + len(took))
            chosen.pop()
            for c in took:
                counts[c] += 1
                by_rank[c[0]] += 1

    search(0, runs, 0)
    return Analysis(best_cost, frozenset(outs), best_plan[0], best_plan[1])


def expand_outs(outs: frozenset[Cell], suits: str) -> list[Cell]:
    """The outs as natural faces (a book's number in every suit) plus ``WILD_CELL``."""
    faces: set[Cell] = set()
    for r, s in outs:
        if s == "":
            faces.update((r, x) for x in suits)
        else:
            faces.add((r, s))
    return sorted(faces)


_PERMS = tuple(permutations(range(4)))


@lru_cache(maxsize=70_000)
def _matching(window: tuple[int, ...]) -> tuple[int, tuple[tuple[int, int], ...]]:
    """Four numbers' letter masks: the most of them one MAYI meld can use, and the (place,
    letter) pairs that a meld using that many lacks."""
    top = 0
    gaps: set[tuple[int, int]] = set()
    for perm in _PERMS:
        n = sum(1 for i in range(4) if window[i] >> perm[i] & 1)
        if n > top:
            top, gaps = n, set()
        if n == top:
            gaps.update((i, perm[i]) for i in range(4) if not window[i] >> perm[i] & 1)
    return top, tuple(sorted(gaps))


@lru_cache(maxsize=100_000)
def mayi_chances(naturals: tuple[Cell, ...], suits: str, ranks: int) -> tuple[int, frozenset[Cell]]:
    """How many cards a hand lacks for its nearest MAYI meld (one natural of each letter, all
    one number or four numbers in a row), and the faces that would bring one nearer.

    >>> count, outs = mayi_chances(((4, "M"), (5, "A"), (6, "Y"), (9, "I")), "MAYI", 13)
    >>> count, sorted(outs)  # sorted: a set's order follows the hash seed
    (1, [(3, 'I'), (7, 'I')])
    """
    held: list[int] = [0] * (ranks + 2)  # bit i: the hand holds suit i at that number
    index = {s: i for i, s in enumerate(suits)}
    for r, s in naturals:
        held[r] |= 1 << index[s]
    best = 4
    outs: set[Cell] = set()

    def offer(missing: int, cells: list[Cell]) -> None:
        nonlocal best, outs
        if missing < best:
            best, outs = missing, set(cells)
        elif missing == best:
            outs.update(cells)

    for r in range(1, ranks + 1):
        if held[r]:
            offer(
                4 - held[r].bit_count(),
                [(r, s) for i, s in enumerate(suits) if not held[r] >> i & 1],
            )
    for lo in range(1, ranks - 2):
        window = held[lo : lo + 4]
        if sum(1 for m in window if m) < 2:
            continue
        top, gaps = _matching(tuple(window))
        cells = [(lo + i, suits[j]) for i, j in gaps]
        offer(4 - top, cells)
    return best, frozenset(outs)
