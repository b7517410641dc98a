"""The contract solver: split cards into exactly the round's books and runs.

Cards are counted per cell (letter x number) plus a count of wilds, since which physical copy
or which wild goes where does not matter for feasibility. The search always places the lowest
remaining natural card: it must open some meld, either a book of its number or a run of its
letter starting at it (nothing lower of that letter is left). Failed sub-problems are memoised
on the counts, so a near-miss hand that forces backtracking is still settled in few steps.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .cards import SUITS, WILD_RANK, Parsed, format_face, parse_face
from .melds import BOOK_MIN, MAX_RANK, RUN_MIN
from .rulesets import BGA

CELLS = len(SUITS) * MAX_RANK
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}

# A planned meld: ("book", [cells], wilds) or ("run", [cells], wilds); cells are indices.
Plan = tuple[str, tuple[int, ...], int]


def _cell(parsed: Parsed) -> int:
    rank, suit = parsed
    return SUIT_INDEX[suit] * MAX_RANK + rank - 1


def _cell_parsed(cell: int) -> Parsed:
    return (cell % MAX_RANK + 1, SUITS[cell // MAX_RANK])


def _cell_penalty(cell: int) -> int:
    rank = cell % MAX_RANK + 1
    return 15 if rank == 10 else 10 if rank > 10 else rank


WILD_PENALTY = 15


class _Search:
    """One solve. ``exact``: every card used; otherwise maximise the penalty laid down."""

    def __init__(self, counts: list[int], wilds: int, exact: bool) -> None:
        self.counts = counts
        self.wilds = wilds
        self.exact = exact
        self.failed: set[tuple] = set()
        self.best: dict[tuple, tuple[int, list[Plan]] | None] = {}

    # -- candidate melds that contain the lowest remaining natural ------------------------
    def _books(self, first: int, wilds: int) -> Iterator[tuple[tuple[int, ...], int]]:
        rank0 = first % MAX_RANK
        column = [s * MAX_RANK + rank0 for s in range(len(SUITS))]
        avail = [self.counts[c] for c in column]
        first_suit = first // MAX_RANK

        def takes(i: int) -> Iterator[list[int]]:
            if i == len(column):
                yield []
                return
            lo = 1 if i == first_suit else 0
            for t in range(avail[i], lo - 1, -1):
                for rest in takes(i + 1):
                    yield [t, *rest]

        for take in takes(0):
            naturals = sum(take)
            if naturals < 2:
                continue
            cells = tuple(c for c, t in zip(column, take, strict=True) for _ in range(t))
            for w in range(min(wilds, naturals), -1, -1):
                if naturals + w >= BOOK_MIN:
                    yield cells, w

    def _runs(self, first: int, wilds: int) -> Iterator[tuple[tuple[int, ...], int]]:
        suit_base = first - first % MAX_RANK
        rank = first % MAX_RANK + 1
        counts = self.counts

        # Walk up from the first card: each later number is a natural of this run, a wild
        # filling a gap, or the place the run's naturals stop.
        def walk(r: int, cells: list[int], gaps: int) -> Iterator[tuple[list[int], int]]:
            yield cells, gaps
            pending = 0
            for nxt in range(r + 1, MAX_RANK + 1):
                c = suit_base + nxt - 1
                if counts[c] > 0 and gaps + pending <= wilds:
                    yield from walk(nxt, [*cells, c], gaps + pending)
                pending += 1
                if gaps + pending > wilds:
                    return

        for cells, gaps in walk(rank, [first], 0):
            naturals = len(cells)
            if naturals < 2:
                continue
            span = (cells[-1] - cells[0]) + 1
            room = MAX_RANK - span
            max_extra = min(wilds - gaps, naturals - gaps, room)
            for extra in range(max_extra, -1, -1):
                if span + extra >= RUN_MIN:
                    yield tuple(cells), gaps + extra

    # -- the search ---------------------------------------------------------------------
    def exact_solve(self, books: int, runs: int) -> list[Plan] | None:
        counts = self.counts
        first = next((i for i in range(CELLS) if counts[i]), -1)
        if first < 0:
            return [] if books == 0 and runs == 0 and self.wilds == 0 else None
        if books == 0 and runs == 0:
            return None
        naturals = sum(counts)
        if self.wilds > naturals or naturals + self.wilds < BOOK_MIN * books + RUN_MIN * runs:
            return None
        key = (tuple(counts), self.wilds, books, runs)
        if key in self.failed:
            return None
        for kind, left_books, left_runs, gen in (
            ("book", books - 1, runs, self._books if books else None),
            ("run", books, runs - 1, self._runs if runs else None),
        ):
            if gen is None:
                continue
            for cells, w in list(gen(first, self.wilds)):
                for c in cells:
                    counts[c] -= 1
                self.wilds -= w
                rest = self.exact_solve(left_books, left_runs)
                self.wilds += w
                for c in cells:
                    counts[c] += 1
                if rest is not None:
                    return [(kind, cells, w), *rest]
        self.failed.add(key)
        return None

    def best_solve(self, books: int, runs: int) -> tuple[int, list[Plan]] | None:
        """Max penalty laid down using any subset; ``None`` if the contract cannot be made."""
        counts = self.counts
        if books == 0 and runs == 0:
            return 0, []
        first = next((i for i in range(CELLS) if counts[i]), -1)
        if first < 0:
            return None
        naturals = sum(counts)
        if naturals + self.wilds < BOOK_MIN * books + RUN_MIN * runs:
            return None
        key = (tuple(counts), self.wilds, books, runs)
        if key in self.best:
            return self.best[key]
        result: tuple[int, list[Plan]] | None = None
        for kind, left_books, left_runs, gen in (
            ("book", books - 1, runs, self._books if books else None),
            ("run", books, runs - 1, self._runs if runs else None),
        ):
            if gen is None:
                continue
            for cells, w in list(gen(first, self.wilds)):
                for c in cells:
                    counts[c] -= 1
                self.wilds -= w
                rest = self.best_solve(left_books, left_runs)
                self.wilds += w
                for c in cells:
                    counts[c] += 1
                if rest is not None:
                    value = rest[0] + sum(_cell_penalty(c) for c in cells) + w * WILD_PENALTY
                    if result is None or value > result[0]:
                        result = (value, [(kind, cells, w), *rest[1]])
        # The lowest card may also stay in hand.
        counts[first] -= 1
        rest = self.best_solve(books, runs)
        counts[first] += 1
        if rest is not None and (result is None or rest[0] > result[0]):
            result = rest
        self.best[key] = result
        return result


def _count(cards: Sequence[Parsed]) -> tuple[list[int], int]:
    counts = [0] * CELLS
    wilds = 0
    for p in cards:
        if p[0] == WILD_RANK:
            wilds += 1
        else:
            counts[_cell(p)] += 1
    return counts, wilds


def _sorted_plans(plans: list[Plan]) -> list[Plan]:
    return sorted(plans, key=lambda p: p[0] != "book")


def solve_exact(cards: Sequence[Parsed], books: int, runs: int) -> list[Plan] | None:
    """Plans that use every card in exactly ``books`` books and ``runs`` runs, or ``None``."""
    counts, wilds = _count(cards)
    plans = _Search(counts, wilds, exact=True).exact_solve(books, runs)
    return None if plans is None else _sorted_plans(plans)


def solve_best(cards: Sequence[Parsed], books: int, runs: int) -> list[Plan] | None:
    """Plans for the contract from a subset of the cards, laying down the most penalty."""
    counts, wilds = _count(cards)
    found = _Search(counts, wilds, exact=False).best_solve(books, runs)
    return None if found is None else _sorted_plans(found[1])


def assign_ids(card_ids: Sequence[str], plans: list[Plan]) -> list[list[str]]:
    """Turn cell plans into groups of physical card ids."""
    pool: dict[Parsed, list[str]] = {}
    for cid in card_ids:
        pool.setdefault(parse_face(cid[1:]), []).append(cid)
    groups = []
    for _, cells, w in plans:
        group = [pool[_cell_parsed(c)].pop() for c in cells]
        group += [pool[(WILD_RANK, "?")].pop() for _ in range(w)]
        groups.append(group)
    return groups


def find_contract(faces: Sequence[str], round_no: int) -> list[list[str]] | None:
    """Partition *all* faces into the ``bga`` contract of ``round_no`` (books first, then runs).

    >>> find_contract(["7M", "7A", "7Y", "9I", "9A", "?"], 1)
    [['7M', '7A', '7Y'], ['9A', '9I', '?']]
    >>> find_contract(["7M", "7A", "8Y", "9I", "9A", "?"], 1) is None
    True
    """
    try:
        parsed = [parse_face(f) for f in faces]
    except ValueError:
        return None
    contract = BGA.contract(round_no)
    plans = solve_exact(parsed, contract.books, contract.runs)
    if plans is None:
        return None
    out = []
    for _, cells, w in plans:
        out.append([format_face(_cell_parsed(c)) for c in cells] + ["?"] * w)
    return out
