"""Playing out a round whose last card may not be discarded (``bga`` round 7), once down.

There a player goes out only by melding or laying off every card. A bot that lays off all it
can is left holding one card that fits nowhere, and must then draw a fitting card and find
its held card fitting too in the same turn. So: lay everything off only when that empties the
hand; otherwise keep one card that fits (the *key*, preferably on a book, which always takes
another) and discard the others that do not. Each turn the drawn card then only needs to fit
for the hand to go out. Used by the ``normal`` and ``strong`` levels.
"""

from __future__ import annotations

from ..cards import parse_card
from ..legal import lay_off_options
from ..scoring import PENALTY_TABLES
from ..state import State, ruleset_of
from ..table import Meld, fitting, lay_off_on, layoff_ends


def last_card_rule(state: State) -> bool:
    """Is this a round whose last card may not be discarded?"""
    return state["round"] in ruleset_of(state).no_final_discard_rounds


def _shed_all(melds: list[Meld], hand: list[str], budget: list[int]) -> bool:
    """Can every card of ``hand`` be laid off on ``melds``, one after another?"""
    if not hand:
        return True
    budget[0] -= 1
    if budget[0] < 0:
        return False
    for i, card in enumerate(hand):
        rest = hand[:i] + hand[i + 1 :]
        for j, meld, ends in fitting(melds, card):
            for end in ends:
                grown = dict(meld, cards=meld["cards"][:])
                lay_off_on(grown, card, end)
                if _shed_all([*melds[:j], grown, *melds[j + 1 :]], rest, budget):
                    return True
    return False


def endgame_step(state: State, seat: int) -> tuple[dict | None, str | None]:
    """``(lay_off to make now or None, the key card to keep)`` for a seat that is down in a
    last-card round. ``None`` as the action: nothing to lay off now (discard or pass next,
    never the key)."""
    options = lay_off_options(state, seat)
    if not options:
        return None, None
    hand = state["hands"][seat]
    melds = state["melds"]
    for option in options:
        meld = next(m for m in melds if m["id"] == option["meld"])
        grown = dict(meld, cards=meld["cards"][:])
        lay_off_on(grown, option["card"], option.get("end", "any"))
        rest = list(hand)
        rest.remove(option["card"])
        others = [grown if m is meld else m for m in melds]
        if _shed_all(others, rest, [200]):
            return option, None  # this lay-off starts a way out
    fitting = list(dict.fromkeys(o["card"] for o in options))
    rules = ruleset_of(state)

    def on_book(card: str) -> bool:
        return any(m["kind"] == "book" and layoff_ends(m, card) for m in melds)

    penalty = PENALTY_TABLES[rules.penalties]
    key = min(fitting, key=lambda c: (not on_book(c), penalty(parse_card(c)), c))
    for option in sorted(options, key=lambda o: (-penalty(parse_card(o["card"])), o["card"])):
        if option["card"] != key:
            return option, key
    return None, key
