"""What a decision's cost is called (best, inaccuracy, mistake, blunder), and what went wrong in
a few words (the statistics' "most often got wrong"). docs/ANALYSIS.md gives the thresholds.

A cost is in expected penalty points, and a point is not worth the same in every ruleset (rook
counts one a card, bga a ten 15): the thresholds are in **cards**, the mean penalty of one card
of the ruleset's deck (bga 7.1 points, petras and classic 8.3, rook 1).
"""

from __future__ import annotations

import functools
from typing import Any

from games.engine import cards_penalty, face_data, get_ruleset

# Below this share of a card, a cost is noise even when the interval leaves out 0.
BEST_BELOW = 0.1
# Under 0.7 of a card: an inaccuracy (bga: 5 points, what a round's luck shifts by every turn);
# under 2 cards: a mistake (a high card kept for nothing, a worse chance to go out); more: a
# blunder (as if ending the round with two cards more in hand: bga 14 points).
INACCURACY_BELOW = 0.7
MISTAKE_BELOW = 2.0

BEST, INACCURACY, MISTAKE, BLUNDER = "best", "inaccuracy", "mistake", "blunder"
LABELS = (BEST, INACCURACY, MISTAKE, BLUNDER)


@functools.cache
def card_worth(ruleset: str) -> float:
    """The mean penalty of one card of the ruleset's deck.

    >>> round(card_worth("bga"), 2), card_worth("rook")
    (7.08, 1.0)
    """
    rules = get_ruleset(ruleset)
    deck = rules.cards.make_deck(rules.cards.prefixes[0])
    return cards_penalty(deck, rules.penalties) / len(deck)


def label(cost: float, low: float, high: float, ruleset: str) -> str:
    """``best`` when the choice made cost nothing measurable (under a tenth of a card, or its
    interval reaches 0: the samples cannot tell it from the best); then by the cost in cards.

    >>> [label(c, c - 1, c + 1, "bga") for c in (0, 0.5, 3, 10, 15)]
    ['best', 'best', 'inaccuracy', 'mistake', 'blunder']
    >>> label(3.0, -0.5, 6.5, "bga"), label(3.0, 2.0, 4.0, "rook")
    ('best', 'blunder')
    """
    worth = card_worth(ruleset)
    if cost < BEST_BELOW * worth or low <= 0:
        return BEST
    if cost < INACCURACY_BELOW * worth:
        return INACCURACY
    if cost < MISTAKE_BELOW * worth:
        return MISTAKE
    return BLUNDER


def _did(choice: dict[str, Any]) -> str:
    kind = choice.get("type")
    if kind == "draw":
        return "took the discard" if choice.get("source") == "discard" else "drew from the stock"
    return {
        "may_i": "said “May I?”",
        "no_thanks": "said no thanks",
        "lay_down": "laid down",
        "wait": "waited",
        "lay_off": "laid off",
        "keep": "kept the cards",
        "discard": "discarded",
    }.get(str(kind), str(kind or "played").replace("_", " "))


def _better(choice: dict[str, Any]) -> str:
    kind = choice.get("type")
    if kind == "draw":
        return (
            "taking the discard" if choice.get("source") == "discard" else "drawing from the stock"
        )
    return {
        "may_i": "“May I?”",
        "no_thanks": "no thanks",
        "lay_down": "laying down",
        "wait": "waiting",
        "lay_off": "laying off",
        "keep": "keeping the cards",
        "discard": "discarding",
    }.get(str(kind), str(kind or "another play").replace("_", " "))


def _card_points(card: Any, ruleset: str) -> float | None:
    if not isinstance(card, str):
        return None
    try:
        if face_data(card)["wild"]:
            return None
        return float(cards_penalty([card], get_ruleset(ruleset).penalties))
    except (KeyError, ValueError):
        return None


def pattern(kind: str, made: dict[str, Any], best: dict[str, Any], ruleset: str) -> str:
    """What went wrong in a few words, the same for alike mistakes so they can be counted;
    ``made`` and ``best`` are the engine's choices (``{"type": "wait"}``: a lay-down left for
    later; ``{"type": "keep"}``: no lay-off made).

    >>> pattern("draw", {"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}, "bga")
    'drew from the stock: taking the discard was better'
    >>> pattern("discard", {"type": "discard", "card": "w3M"}, {"type": "discard", "card": "w13I"}, "bga")
    'discarded a lower card: a higher one was better'
    >>> pattern("lay_down", {"type": "wait"}, {"type": "lay_down", "melds": []}, "bga")
    'waited: laying down was better'
    >>> pattern("lay_off", {"type": "lay_off", "card": "w3M"}, {"type": "lay_off", "card": "w9I"}, "bga")
    'laid off another card than the best'
    """
    did, best_type = made.get("type"), best.get("type")
    if did == best_type == "discard":
        mine, other = made.get("card"), best.get("card")
        if isinstance(mine, str) and face_data(mine)["wild"]:
            return "discarded a wild: another card was better"
        if isinstance(other, str) and face_data(other)["wild"]:
            return "kept a wild: discarding it was better"
        points, better = _card_points(mine, ruleset), _card_points(other, ruleset)
        if points is not None and better is not None and points != better:
            if points < better:
                return "discarded a lower card: a higher one was better"
            return "discarded a higher card: a lower one was better"
        return "discarded another card than the best"
    if did == best_type == "lay_off":
        return "laid off another card than the best"
    if did == best_type == "lay_down":
        return "laid down other melds than the best"
    if kind == "lay_off" and did == "keep":
        return "kept the cards: laying one off was better"
    if kind == "lay_off" and best_type == "keep":
        return "laid off: keeping the cards was better"
    return f"{_did(made)}: {_better(best)} was better"
