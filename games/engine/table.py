"""Tabled melds: making them from card ids and what may be laid off on them."""

from __future__ import annotations

from typing import Any

from .cards import WILD_RANK, parse_card
from .melds import MAX_RANK, MIN_RANK, book_rank, mayi_ok, order_run, run_layout, wild_limit_ok

Meld = dict[str, Any]


def classify(card_ids: list[str]) -> tuple[str, Meld] | None:
    """``("book"|"run", fields)`` for a group of card ids that is a valid book or run."""
    parsed = [parse_card(c) for c in card_ids]
    rank = book_rank(parsed)
    if rank is not None:
        return "book", {"cards": list(card_ids), "rank": rank}
    layout = run_layout(parsed)
    if layout is not None:
        suit, start = layout
        ordered = order_run(list(zip(card_ids, parsed, strict=True)), suit, start)
        return "run", {"cards": ordered, "suit": suit, "start": start}
    return None


def mayi_group(card_ids: list[str]) -> Meld | None:
    parsed = [parse_card(c) for c in card_ids]
    if not mayi_ok(parsed):
        return None
    order = sorted(range(4), key=lambda i: (parsed[i][0], "MAYI".index(parsed[i][1])))
    return {"cards": [card_ids[i] for i in order]}


def _wilds(cards: list[str]) -> int:
    return sum(1 for c in cards if c.endswith("?"))


def layoff_ends(meld: Meld, card_id: str) -> list[str]:
    """Where ``card_id`` may be laid off on ``meld``: ``["any"]`` for a book, the run ends that
    take it (``"high"`` listed before ``"low"`` for a wild, the [D] order), or ``[]``."""
    kind = meld["kind"]
    if kind == "mayi":
        return []
    rank, suit = parse_card(card_id)
    cards = meld["cards"]
    wilds = _wilds(cards) + (1 if rank == WILD_RANK else 0)
    if not wild_limit_ok(len(cards) + 1 - wilds, wilds):
        return []
    if kind == "book":
        return ["any"] if rank in (WILD_RANK, meld["rank"]) else []
    start, end = meld["start"], meld["start"] + len(cards) - 1
    if rank == WILD_RANK:
        ends = []
        if end < MAX_RANK:
            ends.append("high")
        if start > MIN_RANK:
            ends.append("low")
        return ends
    if suit != meld["suit"]:
        return []
    if rank == end + 1:
        return ["high"]
    if rank == start - 1:
        return ["low"]
    return []


def lay_off_on(meld: Meld, card_id: str, end: str) -> None:
    """Add a card to a meld at ``end`` (already checked by :func:`layoff_ends`)."""
    if end == "low":
        meld["cards"].insert(0, card_id)
        meld["start"] -= 1
    else:
        meld["cards"].append(card_id)
