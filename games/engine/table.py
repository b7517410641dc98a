"""Tabled melds: making them from card ids and what may be laid off on them."""

from __future__ import annotations

from typing import Any

from .cards import WILD_RANK, card_set_of, is_wild_card, parse_card
from .melds import MIN_RANK, book_rank, mayi_ok, order_run, run_fit, wild_limit_ok

Meld = dict[str, Any]


def classify(
    card_ids: list[str], wild_numbers: dict[str, int] | None = None
) -> tuple[str, Meld] | None:
    """``("book"|"run", fields)`` for a group of card ids that is a valid book or run.

    In a run, a wild the player placed (``wild_numbers``: card id -> number) stands for that
    number; the other wilds go where the [D] rule puts them.

    >>> classify(["w?", "w5Y", "w6Y", "w7Y"])[1]["start"]
    5
    >>> classify(["w?", "w5Y", "w6Y", "w7Y"], {"w?": 4})[1]["cards"]
    ['w?', 'w5Y', 'w6Y', 'w7Y']
    """
    parsed = [parse_card(c) for c in card_ids]
    rank = book_rank(parsed)
    if rank is not None:
        return "book", {"cards": list(card_ids), "rank": rank}
    cs = card_set_of(card_ids[0])
    fit = run_fit(parsed, cs.top, cs.ace_high)
    if fit is None:
        return None
    suit, start, parsed = fit  # an ace above the king reads as position 14
    placed = {c: n for c, n in (wild_numbers or {}).items() if c in card_ids}
    if placed:
        ordered = _placed_run(card_ids, parsed, placed, cs.top)
        if ordered is None:
            return None
        start, cards = ordered
        return "run", {"cards": cards, "suit": suit, "start": start}
    ordered_ids = order_run(list(zip(card_ids, parsed, strict=True)), suit, start)
    return "run", {"cards": ordered_ids, "suit": suit, "start": start}


def _placed_run(
    card_ids: list[str], parsed: list[tuple[int, str]], placed: dict[str, int], top: int
) -> tuple[int, list[str]] | None:
    fixed: dict[int, str] = {}
    free = []
    for cid, (rank, _) in zip(card_ids, parsed, strict=True):
        number = placed.get(cid, rank) if rank == WILD_RANK else rank
        if rank == WILD_RANK and cid not in placed:
            free.append(cid)
            continue
        if not isinstance(number, int) or number in fixed:
            return None
        fixed[number] = cid
    lo, hi = min(fixed), max(fixed)
    gaps = hi - lo + 1 - len(fixed)
    if gaps > len(free):
        return None
    extra = len(free) - gaps
    up = min(extra, top - hi)
    start = lo - (extra - up)
    if start < MIN_RANK or hi > top:
        return None
    return start, [fixed.get(r) or free.pop() for r in range(start, start + len(card_ids))]


def mayi_group(card_ids: list[str]) -> Meld | None:
    parsed = [parse_card(c) for c in card_ids]
    if not mayi_ok(parsed):
        return None
    order = sorted(range(4), key=lambda i: (parsed[i][0], "MAYI".index(parsed[i][1])))
    return {"cards": [card_ids[i] for i in order]}


def _wilds(cards: list[str]) -> int:
    return sum(1 for c in cards if is_wild_card(c))


def layoff_ends(meld: Meld, card_id: str) -> list[str]:
    """Where ``card_id`` may be laid off on ``meld``: ``["any"]`` for a book, the run ends that
    take it (``"high"`` listed before ``"low"`` for a wild, the [D] order), or ``[]``."""
    kind = meld["kind"]
    if kind == "mayi":
        return []
    rank, suit = parse_card(card_id)
    wild = rank == WILD_RANK
    cards = meld["cards"]
    ends = []
    if kind == "book":
        if wild or rank == meld["rank"]:
            ends.append("any")
    elif wild or suit == meld["suit"]:  # most cards asked about are of another letter
        start, end = meld["start"], meld["start"] + len(cards) - 1
        cs = card_set_of(card_id)
        if wild:
            if end < cs.top:
                ends.append("high")
            if start > MIN_RANK:
                ends.append("low")
        else:
            if rank == end + 1 or (cs.ace_high and rank == 1 and end + 1 == cs.top):
                ends.append("high")
            if rank == start - 1:
                ends.append("low")
    # Last, as most cards fit no end of most melds: a meld never holds more wilds than naturals.
    if ends:
        wilds = _wilds(cards) + (1 if wild else 0)
        if not wild_limit_ok(len(cards) + 1 - wilds, wilds):
            return []
    return ends


def fitting(melds: list[Meld], card_id: str) -> list[tuple[int, Meld, list[str]]]:
    """``(index, meld, layoff_ends(meld, card_id))`` for each of ``melds`` that takes the card,
    in their order. Bots ask this for every card of a hand: a natural fits only a book of its
    number or a run of its letter, tested before :func:`layoff_ends` is asked."""
    rank, suit = parse_card(card_id)
    wild = rank == WILD_RANK
    out = []
    for i, meld in enumerate(melds):
        kind = meld["kind"]
        if kind == "mayi" or (
            not wild and (meld["rank"] != rank if kind == "book" else meld["suit"] != suit)
        ):
            continue
        ends = layoff_ends(meld, card_id)
        if ends:
            out.append((i, meld, ends))
    return out


def lay_off_on(meld: Meld, card_id: str, end: str) -> None:
    """Add a card to a meld at ``end`` (already checked by :func:`layoff_ends`)."""
    if end == "low":
        meld["cards"].insert(0, card_id)
        meld["start"] -= 1
    else:
        meld["cards"].append(card_id)
