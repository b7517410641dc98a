"""Standing orders for "May I?": which cards a player's order buys. Pure; no Django.

"Buy any card that completes a book or run in my hand" means: the card, with natural cards of
the hand (never its wilds), makes a valid book of 3 or run of 4 under the meld rules of the
card's own card set (:func:`games.engine.melds.book_rank`, :func:`games.engine.melds.run_fit`):
bga runs on 1..13, rook runs on 1..14, and the standard packs' ace below the 2 or above the
king. For a natural card: two of its number in the hand, or three of its suit that make a run
of 4 with it. A wild card completes a pair, or three of one suit with one gap in four.
"""

from __future__ import annotations

from collections import defaultdict

from .cards import WILD_RANK, CardError, CardSet, Parsed, card_set_of, parse_card
from .melds import MIN_RANK, book_rank, run_fit
from .query import buys_used, card_on_offer
from .state import State

RUN = 4

# A seat's standing order for "May I?" windows (the site stores it on the seat).
ORDER_ASK, ORDER_NEVER, ORDER_COMPLETES = "ask", "never", "completes"


def completes_meld(hand: list[str], card: str, cards: CardSet | None = None) -> bool:
    """Does ``card`` complete a book of 3 or a run of 4 with naturals of ``hand``?

    ``cards`` is the table's card set; by default the card's own (its deck prefix names it, as
    everywhere in the engine), so callers holding only a hand and a card stay right.

    >>> completes_meld(["w7M", "b7A", "w2I"], "w7Y")
    True
    >>> completes_meld(["w4M", "w5M", "w7M"], "b6M"), completes_meld(["w4M", "w5M", "w7M"], "b6A")
    (True, False)
    >>> completes_meld(["w4M", "w?", "w9A"], "b4A")
    False
    >>> completes_meld(["w4M", "w5M", "w7M"], "b?")
    True
    >>> completes_meld(["x11R", "x12R", "y13R"], "x14R"), completes_meld(["pQH", "pKH", "qJH"], "qAH")
    (True, True)
    """
    try:
        this = parse_card(card)
        parsed = [parse_card(c) for c in hand]
        cs = cards if cards is not None else card_set_of(card)
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
        return any(_run_with(cs, suit, by_suit[suit], start, this) for start in _starts(cs))
    if any(len(group) >= 2 for group in by_rank.values()):
        return True
    return any(
        _run_with(cs, s, ranks, start, this)
        for s, ranks in by_suit.items()
        for start in _starts(cs)
    )


def _starts(cs: CardSet) -> range:
    return range(MIN_RANK, cs.top - RUN + 2)


def _rank_at(cs: CardSet, position: int) -> int:
    # With the ace high, the position above the king is held by the ace (rank 1).
    return 1 if cs.ace_high and position == cs.top else position


def _run_with(cs: CardSet, suit: str, ranks: set[int], start: int, card: Parsed) -> bool:
    """Do ``card`` and three naturals of ``suit`` (from ``ranks``) fill the 4 positions from
    ``start``? Windows rather than every 3 of the suit: a run of 4 lies in one window, and the
    validator (``run_fit``) still has the last word, so the ace's two readings stay its call."""
    wanted = [_rank_at(cs, p) for p in range(start, start + RUN)]
    rank = card[0]
    if rank == WILD_RANK:
        # Three naturals in the window are enough; with all four, the wild joins any three.
        present = [r for r in wanted if r in ranks][: RUN - 1]
        if len(present) != RUN - 1:
            return False
    else:
        if card[1] != suit or rank not in wanted:
            return False
        present = [r for r in wanted if r != rank]
        if not all(r in ranks for r in present):
            return False
    return run_fit([card, *((r, suit) for r in present)], cs.top, cs.ace_high) is not None


def standing_answer(state: State, seat: int, order: str, limit: int | None) -> str:
    """The answer a standing order gives for the card the seat may answer for now.

    "never": no thanks. "completes": "May I?" when the card with cards of the hand makes a book
    of 3 or a run of 4 (:func:`completes_meld`) and the seat has bought fewer than ``limit``
    times this round (no limit: the ruleset's cap decides); no thanks otherwise.

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc")
    >>> standing_answer(st, 1, ORDER_NEVER, None)
    'no_thanks'
    >>> st["buys"][1] = 2; standing_answer(st, 1, ORDER_COMPLETES, 2)
    'no_thanks'
    """
    if order != ORDER_COMPLETES:
        return "no_thanks"
    if limit is not None and buys_used(state, seat) >= limit:
        return "no_thanks"
    card = card_on_offer(state)
    if card is None:
        return "no_thanks"
    return "may_i" if completes_meld(state["hands"][seat], card) else "no_thanks"
