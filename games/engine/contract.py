"""The contract solver: split cards into exactly the round's books and runs.

Cards are counted per cell (letter x number) plus a count of wilds, since which physical copy
or which wild goes where does not matter for feasibility. The search scans the numbers 1..13
once (see :class:`columns._Columns`): at each number it decides which runs take that number's natural,
which runs open or close, and how many books the naturals left over make. Its state at a
number is small (the open runs, melds still to make, wilds left, the room for extra wilds), so
it is memoised, and a near-miss hand that forces backtracking is still settled in few steps.
Greedy choices are wrong here: a card that looks like part of a book may be needed in a run.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .cards import (
    BGA_CARDS,
    SUITS,
    WILD_PARSED,
    WILD_RANK,
    CardSet,
    Parsed,
    card_set_of,
    format_face,
    parse_card,
    parse_face,
)
from .columns import WILD_PENALTY, Plan, _Columns, _rank_penalty
from .melds import BOOK_MIN, RUN_MIN
from .rulesets import BGA

__all__ = [
    "Plan",
    "assign_ids",
    "find_contract",
    "plan_wilds",
    "solve_best",
    "solve_exact",
    "solve_most_wilds",
]


def _cell_parsed(cell: int, cs: CardSet = BGA_CARDS) -> Parsed:
    m = cs.top
    rank = cell % m + 1
    return (1 if rank > cs.ranks else rank, cs.suits[cell // m])


def _count(cards: Sequence[Parsed], cs: CardSet = BGA_CARDS) -> tuple[list[int], int]:
    m = cs.top
    index = {s: i * m for i, s in enumerate(cs.suits)}
    counts = [0] * (len(cs.suits) * m)
    wilds = 0
    for rank, suit in cards:
        if rank == WILD_RANK:
            wilds += 1
        else:
            counts[index[suit] + rank - 1] += 1
    return counts, wilds


def _ace_splits(counts: list[int], cs: CardSet) -> list[list[int]]:
    """With an ace above the king, every way to send some aces of each suit to column 14
    (which aces stand high is all the column scan cannot decide by itself); otherwise the
    counts as they are. A book of aces lies in one column, and one split puts them there."""
    if not cs.ace_high:
        return [counts]
    m = cs.top
    out = [counts]
    for s in range(len(cs.suits)):
        aces = counts[s * m]
        if not aces:
            continue
        grown = []
        for base in out:
            for high in range(1, aces + 1):
                split = list(base)
                split[s * m] -= high
                split[s * m + m - 1] += high
                grown.append(split)
        out += grown
    return out


def solve_exact(
    cards: Sequence[Parsed], books: int, runs: int, cs: CardSet = BGA_CARDS
) -> list[Plan] | None:
    """Plans that use every card in exactly ``books`` books and ``runs`` runs, or ``None``.

    Books come first, then runs; each plan is ``(kind, natural cells, wilds)``.

    >>> solve_exact([(7, "M"), (7, "A"), (0, "?"), (4, "I"), (5, "I"), (6, "I"), (7, "I")], 1, 1)
    [('book', (6, 19), 1), ('run', (42, 43, 44, 45), 0)]
    """
    counts, wilds = _count(cards, cs)
    naturals = len(cards) - wilds
    if wilds > naturals or naturals < 2 * (books + runs):
        return None
    if naturals + wilds < BOOK_MIN * books + RUN_MIN * runs:
        return None
    for split in _ace_splits(counts, cs):
        search = _Columns(split, wilds, books, runs, cs.top)
        if search.placeable():
            found = search.exact()
            if found is not None:
                return found
    return None


def _value(plans: list[Plan], m: int) -> int:
    return sum(_rank_penalty(c % m + 1) for _, cells, _ in plans for c in cells) + sum(
        WILD_PENALTY * w for _, _, w in plans
    )


def solve_best(
    cards: Sequence[Parsed], books: int, runs: int, cs: CardSet = BGA_CARDS
) -> list[Plan] | None:
    """Plans for the contract from a subset of the cards, laying down the most penalty
    (``None`` when no subset makes the contract). The penalty weighed is the ``bga`` table's
    for every card set: it only ranks lay-downs, and sheds high cards and wilds first.

    >>> solve_best([(7, "M"), (7, "A"), (0, "?"), (9, "M"), (9, "I"), (9, "Y"), (2, "M")], 2, 0)
    [('book', (6, 19), 1), ('book', (8, 34, 47), 0)]
    """
    splits = _contract_splits(cards, books, runs, cs)
    if not splits:
        return None
    whole = solve_exact(cards, books, runs, cs)
    if whole is not None:
        return whole  # everything fits: nothing can lay down more
    best = None
    wilds = len(cards) - sum(splits[0])
    for split in splits:
        found = _Columns(split, wilds, books, runs, cs.top).best()
        if found is not None and (best is None or _value(found, cs.top) > _value(best, cs.top)):
            best = found
    return best


# Above the penalty of every natural a lay-down could hold (at most 3 decks x 56 cards x 15),
# so a plan with one wild more always wins.
_WILDS_FIRST = 10_000


def plan_wilds(plans: list[Plan]) -> int:
    """The wilds a lay-down uses."""
    return sum(w for _, _, w in plans)


def solve_most_wilds(
    cards: Sequence[Parsed], books: int, runs: int, cs: CardSet = BGA_CARDS
) -> list[Plan] | None:
    """Plans for the contract from a subset of the cards that use the most wilds, then lay
    down the most penalty (``None`` when no subset makes the contract). Rook's swap asks this:
    a wild taken off the table must go down with the contract, the hand's own may stay.

    >>> plans = solve_most_wilds([(7, "M"), (7, "A"), (0, "?"), (0, "?"), (9, "M"), (9, "I")], 2, 0)
    >>> plan_wilds(plans)
    2
    """
    splits = _contract_splits(cards, books, runs, cs)
    if not splits:
        return None
    whole = solve_exact(cards, books, runs, cs)
    if whole is not None:
        return whole  # every wild goes down
    best = None
    wilds = len(cards) - sum(splits[0])
    for split in splits:
        found = _Columns(split, wilds, books, runs, cs.top).best(_WILDS_FIRST)
        if found is not None and (
            best is None
            or (plan_wilds(found), _value(found, cs.top)) > (plan_wilds(best), _value(best, cs.top))
        ):
            best = found
    return best


def _contract_splits(
    cards: Sequence[Parsed], books: int, runs: int, cs: CardSet
) -> list[list[int]]:
    """The counts per cell (one per way to stand aces high, see :func:`_ace_splits`) from
    which some subset makes the contract. Most hands bots ask about make none: this settles
    them before the exact solver runs (a hand no subset of which makes the contract cannot
    make it whole)."""
    counts, wilds = _count(cards, cs)
    if len(cards) - wilds < 2 * (books + runs):
        return []
    return [s for s in _ace_splits(counts, cs) if _some_contract(s, wilds, books, runs, cs.top)]


def _some_contract(counts: list[int], wilds: int, books: int, runs: int, m: int = 13) -> bool:
    """Does some subset of the cards make the contract? (Most hands bots ask about do not.)

    Every book holds a 3-card book and every run a 4-card run (four places in a row with two
    naturals: wilds never outnumber naturals), so only melds that short are tried. The lowest
    card left is either kept in hand or the lowest natural of a meld: a book of its number
    with one or two more naturals, or a run with one to three naturals of the three numbers
    above it. Failed sub-problems are memoised on the counts.
    """
    meldable = _meldable(counts, wilds, books, runs, m)
    return _some_contract_of(bytes(meldable), wilds, books, runs, m)


# A hand a bot weighs turn after turn often keeps the same meldable cards (a seat holding its
# MAYI meld, one card drawn and one discarded): a third of the answers are found here.
@lru_cache(maxsize=4096)
def _some_contract_of(meldable: bytes, wilds: int, books: int, runs: int, m: int) -> bool:
    """:func:`_some_contract` of the counts left by :func:`_meldable` (bytes: a key)."""
    counts = list(meldable)
    cells = len(counts)
    failed: set[tuple] = set()

    def search(i: int, w: int, b: int, r: int, left: int) -> bool:
        if b == 0 and r == 0:
            return True
        # Every meld holds two naturals or more, and a book three cards, a run four.
        if left < 2 * (b + r) or left + w < 3 * b + 4 * r:
            return False
        while i < cells and not counts[i]:
            i += 1
        if i == cells:
            return False
        key = (i, bytes(counts[i:]), w, b, r)
        if key in failed:
            return False
        rank, suit = i % m, i // m
        counts[i] -= 1
        found = False
        if b:
            column = [s * m + rank for s in range(suit, len(SUITS))]
            for a, ca in enumerate(column):
                if not counts[ca]:
                    continue
                counts[ca] -= 1
                found = w > 0 and search(i, w - 1, b - 1, r, left - 2)  # two naturals, a wild
                for cz in column[a:]:
                    if found:
                        break
                    if counts[cz]:
                        counts[cz] -= 1
                        found = search(i, w, b - 1, r, left - 3)  # three naturals
                        counts[cz] += 1
                counts[ca] += 1
                if found:
                    break
        if r and not found:
            base = suit * m
            above = [x for x in range(rank + 1, min(rank + RUN_MIN, m)) if counts[base + x]]
            for mask in range(1, 1 << len(above)):
                picked = [base + x for k, x in enumerate(above) if mask >> k & 1]
                need = RUN_MIN - 1 - len(picked)
                if need > w:
                    continue
                for c in picked:
                    counts[c] -= 1
                found = search(i, w - need, b, r - 1, left - 1 - len(picked))
                for c in picked:
                    counts[c] += 1
                if found:
                    break
        if not found:
            found = search(i, w, b, r, left - 1)  # the lowest card stays in hand
        counts[i] += 1
        if not found:
            failed.add(key)
        return found

    return search(0, wilds, books, runs, sum(counts))


def _meldable(counts: list[int], wilds: int, books: int, runs: int, m: int) -> list[int]:
    """The counts without the naturals that fit in no book of three cards (three naturals of
    the number, or two and a wild) nor in any run of four places (two naturals of the letter
    or more in four numbers in a row, wilds for the rest). :func:`_some_contract` tries only
    such short melds, so leaving those naturals out changes none of its answers, and its
    counting bounds (naturals left per meld to make) cut sooner. Bit masks: this runs on
    every hand a bot weighs, and must cost far less than the search it shortens."""
    bookable = 0  # bit x: the number at index x has naturals enough for a book
    if books:
        per_number = map(
            sum,
            zip(counts[:m], counts[m : 2 * m], counts[2 * m : 3 * m], counts[3 * m :], strict=True),
        )
        for x, copies in enumerate(per_number):
            if copies >= 3 or (copies == 2 and wilds):
                bookable |= 1 << x
    least = max(2, RUN_MIN - wilds)  # naturals in four places that make a run
    out = list(counts)
    for base in range(0, len(counts), m):
        # bit x: the letter has the number at index x (the row, reversed, as binary digits)
        held = int(bytes(counts[base : base + m])[::-1].translate(_DIGITS), 2)
        fits = (bookable | _run_fits(held, least, m)) if runs else bookable
        unfit = held & ~fits
        while unfit:
            x = (unfit & -unfit).bit_length() - 1
            unfit &= unfit - 1
            out[base + x] = 0
    return out


_DIGITS = bytes([ord("0")] + [ord("1")] * 255)  # a count as the binary digit "is there one"


@lru_cache(maxsize=1 << 16)
def _run_fits(held: int, least: int, m: int) -> int:
    """The numbers of ``held`` (one letter's) that lie in four places in a row holding
    ``least`` of its numbers or more."""
    fits = 0
    for lo in range(m - RUN_MIN + 1):
        window = held >> lo & 0b1111
        if window.bit_count() >= least:
            fits |= window << lo
    return fits


def assign_ids(card_ids: Sequence[str], plans: list[Plan]) -> list[list[str]]:
    """Turn cell plans into groups of physical card ids (of any one card set)."""
    pool: dict[Parsed, list[str]] = {}
    for cid in card_ids:
        pool.setdefault(parse_card(cid), []).append(cid)
    cs = card_set_of(card_ids[0]) if card_ids else BGA_CARDS
    groups = []
    for _, cells, w in plans:
        group = [pool[_cell_parsed(c, cs)].pop() for c in cells]
        group += [pool[WILD_PARSED].pop() for _ in range(w)]
        groups.append(group)
    return groups


def find_contract(faces: Sequence[str], round_no: int) -> list[list[str]] | None:
    """Partition *all* faces into the ``bga`` contract of ``round_no`` (books first, then runs).

    >>> find_contract(["7M", "7A", "7Y", "9I", "9A", "?"], 1)
    [['7M', '7A', '7Y'], ['9A', '9I', '?']]
    >>> find_contract(["7M", "7A", "8Y", "9I", "9A", "?"], 1) is None
    True

    A round number outside ``1..7`` is a programming error and raises ``ValueError``.
    """
    if not isinstance(round_no, int) or not 1 <= round_no <= BGA.rounds:
        raise ValueError(f"no round {round_no!r} in the bga ruleset (1..{BGA.rounds})")
    try:
        parsed = [parse_face(f) for f in faces]
    except (TypeError, ValueError):  # not a face (or not even a string)
        return None
    contract = BGA.contract(round_no)
    plans = solve_exact(parsed, contract.books, contract.runs)
    if plans is None:
        return None
    out = []
    for _, cells, w in plans:
        out.append([format_face(_cell_parsed(c)) for c in cells] + ["?"] * w)
    return out
