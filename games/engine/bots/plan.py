"""What a bot seat knows, and how far a hand is from the round's contract.

:func:`knowledge` gathers everything a seat may know: its own hand, the table, the discard
pile (every discard was seen by all), and the public history of the round (``taken``: the
cards each seat took from the pile, by drawing or buying). It never reads another hand or
the stock, so a bot built on it decides the same way however the hidden cards lie.

How far a hand is from the contract is :mod:`eval`'s business.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..cards import WILD_RANK, parse_card
from ..rulesets import RuleSet
from ..scoring import PENALTY_TABLES
from ..state import State, ruleset_of

Cell = tuple[int, str]  # (position 1..top, letter)


@dataclass
class Knowledge:
    """What ``seat`` may know now (all of it public, or its own)."""

    seat: int
    rules: RuleSet
    hand: list[str]
    # Copies of each natural face (rank, letter) the seat has seen outside the stock and the
    # other hands' unknown cards: its hand, the table, the discard pile, cards others took.
    seen: Counter
    # Per seat: natural faces it took from the pile and has not shown since (still in hand).
    holds: list[list[Cell]]
    hand_sizes: list[int]
    down: list[bool]
    copies: int  # copies of each natural face in the game (one per deck)


def knowledge(state: State, seat: int) -> Knowledge:
    rules = ruleset_of(state)
    hand = state["hands"][seat]
    seen: Counter = Counter()
    for c in hand:
        seen[parse_card(c)] += 1
    tabled: set[str] = set()
    for meld in state["melds"]:
        for c in meld["cards"]:
            tabled.add(c)
            seen[parse_card(c)] += 1
    pile = set(state["discard"])
    for c in state["discard"]:
        seen[parse_card(c)] += 1
    holds: list[list[Cell]] = [[] for _ in range(state["players"])]
    last: dict[str, int] = {}
    for s, c in state.get("taken") or []:
        last[c] = s  # the latest taker holds it, unless it was shown again since
    own = set(hand)
    for c, s in last.items():
        if s == seat or c in own or c in tabled or c in pile:
            continue
        p = parse_card(c)
        if p[0] != WILD_RANK:
            holds[s].append(p)
            seen[p] += 1
    return Knowledge(
        seat=seat,
        rules=rules,
        hand=hand,
        seen=seen,
        holds=holds,
        hand_sizes=[len(h) for h in state["hands"]],
        down=list(state["down"]),
        copies=rules.decks(state["players"]),
    )


def penalty_of(rules: RuleSet, card: str) -> int:
    return PENALTY_TABLES[rules.penalties](parse_card(card))
