"""Meld rules: books, runs and MAYI melds, on parsed cards ``(rank, suit)``.

Wilds (rank 0) follow one limit everywhere: a book or run holds at least two naturals and no
more wilds than naturals, at lay-down and after every lay-off.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUITS, WILD_RANK, Parsed, parse_face

MIN_RANK = 1
MAX_RANK = 13
BOOK_MIN = 3
RUN_MIN = 4


def wild_limit_ok(naturals: int, wilds: int) -> bool:
    """At least two naturals, and wilds never outnumber them."""
    return naturals >= 2 and wilds <= naturals


def book_rank(cards: Sequence[Parsed]) -> int | None:
    """The number a valid book shows, or ``None`` when the cards are no book."""
    if len(cards) < BOOK_MIN:
        return None
    rank = None
    naturals = 0
    for r, _ in cards:
        if r == WILD_RANK:
            continue
        naturals += 1
        if rank is None:
            rank = r
        elif r != rank:
            return None
    if not wild_limit_ok(naturals, len(cards) - naturals):
        return None
    return rank


def run_layout(
    cards: Sequence[Parsed], low: int = MIN_RANK, high: int = MAX_RANK
) -> tuple[str, int] | None:
    """``(suit, start)`` of a valid run, or ``None``.

    Wilds fill inner gaps first, then extend the high end, then the low end, and the run must
    stay inside ``low..high`` [D].

    >>> run_layout([(12, "M"), (13, "M"), (0, "?"), (0, "?")])
    ('M', 10)
    """
    n = len(cards)
    if n < RUN_MIN or n > high - low + 1:
        return None
    suit = None
    seen = set()
    for r, s in cards:
        if r == WILD_RANK:
            continue
        if suit is None:
            suit = s
        elif s != suit:
            return None
        if r in seen:
            return None
        seen.add(r)
    naturals = len(seen)
    if suit is None or not wild_limit_ok(naturals, n - naturals):
        return None
    lo, hi = min(seen), max(seen)
    span = hi - lo + 1
    if span > n or lo < low or hi > high:
        return None
    extra = n - span
    up = min(extra, high - hi)
    down = extra - up
    start = lo - down
    if start < low:
        return None
    return suit, start


def ace_mapped(cards: Sequence[Parsed], top: int) -> list[list[Parsed]]:
    """The ways to read the aces of a would-be run when an ace may stand low (1) or high
    (``top``): one ace low, then high; two aces one at each end; more is no run. Without an
    ace, the cards themselves.

    >>> ace_mapped([(1, "H"), (12, "H"), (13, "H")], 14)[1]
    [(14, 'H'), (12, 'H'), (13, 'H')]
    """
    aces = [i for i, (r, _) in enumerate(cards) if r == 1]
    if not aces:
        return [list(cards)]
    if len(aces) > 2:
        return []
    highs = [aces[-1:]] if len(aces) == 2 else [[], aces]
    out = []
    for high in highs:
        out.append([(top, s) if i in high else (r, s) for i, (r, s) in enumerate(cards)])
    return out


def run_fit(
    cards: Sequence[Parsed], top: int = MAX_RANK, ace_high: bool = False
) -> tuple[str, int, list[Parsed]] | None:
    """``(suit, start, positions)`` of a valid run on positions ``1..top``, where with
    ``ace_high`` an ace (rank 1) may also stand at ``top``; ``positions`` is the cards with each
    ace's rank read as the position it takes. The low reading of a lone ace is tried first.

    >>> run_fit([(1, "H"), (12, "H"), (13, "H"), (0, "?")], 14, True)[:2]
    ('H', 11)
    >>> run_fit([(13, "H"), (1, "H"), (2, "H"), (3, "H")], 14, True) is None
    True
    """
    readings = ace_mapped(cards, top) if ace_high else [list(cards)]
    for reading in readings:
        layout = run_layout(reading, MIN_RANK, top)
        if layout is not None:
            return layout[0], layout[1], reading
    return None


def order_run(cards: Sequence[tuple[str, Parsed]], suit: str, start: int) -> list[str]:
    """Card ids of a run in rank order, wilds in the places the layout gives them."""
    by_rank = {p[0]: cid for cid, p in cards if p[0] != WILD_RANK}
    wilds = [cid for cid, p in cards if p[0] == WILD_RANK]
    ordered = []
    for rank in range(start, start + len(cards)):
        ordered.append(by_rank[rank] if rank in by_rank else wilds.pop())
    return ordered


def mayi_ok(cards: Sequence[Parsed]) -> bool:
    """Exactly 4 naturals, one of each letter, all one number or 4 consecutive numbers."""
    if len(cards) != 4:
        return False
    if any(r == WILD_RANK for r, _ in cards):
        return False
    if sorted(s for _, s in cards) != sorted(SUITS):
        return False
    ranks = sorted(r for r, _ in cards)
    if ranks[0] == ranks[3]:
        return True
    return all(ranks[i + 1] == ranks[i] + 1 for i in range(3))


def is_book(faces: Sequence[str]) -> bool:
    """Is this a valid book under the ``bga`` rules?

    >>> is_book(["7M", "7A", "?"]), is_book(["7M", "?", "?"])
    (True, False)
    """
    try:
        return book_rank([parse_face(f) for f in faces]) is not None
    except (TypeError, ValueError):  # not a face (or not even a string)
        return False


def is_run(faces: Sequence[str]) -> bool:
    """Is this a valid run under the ``bga`` rules (any order given)?

    >>> is_run(["4M", "5M", "?", "7M"]), is_run(["12M", "13M", "1M", "2M"])
    (True, False)
    """
    try:
        return run_layout([parse_face(f) for f in faces]) is not None
    except (TypeError, ValueError):  # not a face (or not even a string)
        return False


def is_mayi(faces: Sequence[str]) -> bool:
    """Is this a MAYI meld?

    >>> is_mayi(["4M", "3A", "6Y", "5I"]), is_mayi(["7M", "7A", "7Y", "?"])
    (True, False)
    """
    try:
        return mayi_ok([parse_face(f) for f in faces])
    except (TypeError, ValueError):  # not a face (or not even a string)
        return False
