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

from .cards import SUITS, WILD_RANK, face_of, parse_card
from .melds import is_book, is_run

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
    rank, suit = parse_card(card)
    by_rank: dict[int, list[str]] = defaultdict(list)
    by_suit: dict[str, set[int]] = defaultdict(set)
    for cid in hand:
        r, s = parse_card(cid)
        if r == WILD_RANK:
            continue
        by_rank[r].append(face_of(cid))
        by_suit[s].add(r)
    face = face_of(card)
    if rank != WILD_RANK:
        if len(by_rank[rank]) >= 2 and is_book([face, *by_rank[rank][:2]]):
            return True
        ranks = by_suit[suit] - {rank}
        return any(
            is_run([face, *(f"{r}{suit}" for r in trio)])
            for trio in combinations(sorted(ranks), RUN - 1)
            if max(trio + (rank,)) - min(trio + (rank,)) < RUN
        )
    if any(len(faces) >= 2 for faces in by_rank.values()):
        return True
    for s in SUITS:
        for trio in combinations(sorted(by_suit[s]), RUN - 1):
            if trio[-1] - trio[0] < RUN and is_run([face, *(f"{r}{s}" for r in trio)]):
                return True
    return False
