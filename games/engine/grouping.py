"""A hand grouped into the melds it could lay down for the round's contract, for the page's
"melds" sort: the solver says which cards make which books and runs, so no rule is written
again in the page's JavaScript.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any

from .cards import CardSet, parse_card
from .contract import assign_ids, solve_best
from .state import State, ruleset_of
from .table import classify


def meld_groups(
    cards: list[str], books: int, runs: int, cs: CardSet
) -> list[tuple[str, list[str]]]:
    """The most melds, up to ``books`` books and ``runs`` runs, that some of ``cards`` make
    (books first, then runs; the solver's pick among equals lays down the most penalty, so
    a book holds every copy it may); each run in order, a wild in the place it fills.

    >>> from games.engine.cards import BGA_CARDS
    >>> meld_groups(["w9A", "w7M", "w2I", "w7A", "w7Y", "w?", "w4I", "w5I", "w6I"], 1, 1, BGA_CARDS)
    [('book', ['w7M', 'w7A', 'w7Y']), ('run', ['w2I', 'w?', 'w4I', 'w5I', 'w6I'])]
    """
    return [(kind, list(group)) for kind, group in _meld_groups(tuple(cards), books, runs, cs)]


# A hand changes only when its seat plays, but every frame of every socket groups it again:
# remembered per hand and contract (a pure function of them), the search runs about once per
# move instead of once per frame (bench/action_cpu.py). Bounded: a few hands per live table.
@lru_cache(maxsize=8192)
def _meld_groups(
    cards: tuple[str, ...], books: int, runs: int, cs: CardSet
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not cards or books + runs == 0:
        return ()
    parsed = [parse_card(c) for c in cards]
    combos = sorted(
        (c for c in product(range(books + 1), range(runs + 1)) if c != (0, 0)),
        key=lambda c: (-(c[0] + c[1]), -c[0]),
    )
    for b, r in combos:
        plans = solve_best(parsed, b, r, cs)
        if plans is None:
            continue
        out = []
        for (kind, _, _), group in zip(plans, assign_ids(cards, plans), strict=True):
            found = classify(group)
            out.append((kind, tuple(found[1]["cards"] if found else group)))
        return tuple(out)
    return ()


def hand_melds(state: State, seat: int) -> list[dict[str, Any]]:
    """The seat's hand as the melds of the round's contract it could lay down now or later
    (``[{"kind": "book"|"run", "cards": [ids]}]``, books first; the cards of no meld are the
    rest of the hand). Empty once the seat's contract is down: it lays no more melds.

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc"); st["hands"][0] = ["w7M", "w2I", "w7A", "w?", "b7Y", "w9A"]
    >>> hand_melds(st, 0)
    [{'kind': 'book', 'cards': ['w7M', 'w7A', 'b7Y', 'w?']}]
    """
    if state["down"][seat]:
        return []
    rules = ruleset_of(state)
    hand = state["hands"][seat]
    best: list[tuple[str, list[str]]] = []
    best_key = (0, 0)
    for choice in rules.contract_choices(state["round"], state["options"]):
        found = meld_groups(hand, choice.books, choice.runs, rules.cards)
        key = (len(found), sum(len(g) for _, g in found))
        if key > best_key:
            best, best_key = found, key
    return [{"kind": kind, "cards": cards} for kind, cards in best]
