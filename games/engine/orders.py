"""Standing orders for "May I?": which cards a player's order buys. Pure; no Django.

"Buy any card that completes a book or run in my hand" means: the card, with natural cards of
the hand (never its wilds), makes a valid book of 3 or run of 4, under the ``bga`` meld rules
(:func:`games.engine.melds.is_book`, :func:`games.engine.melds.is_run`). For a natural card: two
of its number in the hand, or three of its letter that make a run of 4 with it. A wild card
completes a pair, or three of one letter with one gap in four.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

from .cards import WILD_RANK, CardError, Parsed, parse_card
from .melds import book_rank, run_layout

RUN = 4


def completes_meld(hand: list[str], card: str) -> bool:
    """Does ``card`` complete a book of 3 or a run of 4 with naturals of ``hand``?

    >>> completes_meld(["w7M", "b7A", "w2I"], "w7Y")
    True
    >>> completes_meld(["w4M", "w5M", "w7M"], "b6M"), completes_meld(["w4M", "w5M", "w7M"], "b6A")
    (True, False)
    >>> completes_meld(["w4M", "w?", "w9A"], "b4A")
    False
    >>> completes_meld(["w4M", "w5M", "w7M"], "b?")
    True
    """
    try:
        this = parse_card(card)
        parsed = [parse_card(c) for c in hand]
    except CardError:
        return False
    by_rank: dict[int, list[Parsed]] = defaultdict(list)
    by_suit: dict[str, set[int]] = defaultdict(set)
    for r, s in parsed:
        if r != WILD_RANK:
            by_rank[r].append((r, s))
            by_suit[s].add(r)
    rank, suit = this
    if rank != WILD_RANK:
        if len(by_rank[rank]) >= 2 and book_rank([this, *by_rank[rank][:2]]) is not None:
            return True
        return any(
            run_layout([this, *((r, suit) for r in trio)]) is not None
            for trio in combinations(sorted(by_suit[suit] - {rank}), RUN - 1)
            if max(*trio, rank) - min(*trio, rank) < RUN
        )
    if any(len(cards) >= 2 for cards in by_rank.values()):
        return True
    return any(
        run_layout([this, *((r, s) for r in trio)]) is not None
        for s, ranks in by_suit.items()
        for trio in combinations(sorted(ranks), RUN - 1)
        if trio[-1] - trio[0] < RUN
    )
