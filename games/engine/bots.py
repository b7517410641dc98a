"""Bots. ``heuristic`` plays well and is also the policy for a seat whose clock ran out;
``random`` picks uniformly among legal actions (a baseline to measure against).

Both are deterministic given the state, so a replay that contains ``timeout`` actions rebuilds
the same game.
"""

from __future__ import annotations

from collections import Counter

from .cards import WILD_RANK, parse_card
from .legal import can_answer, contract_melds, lay_off_options, legal_actions, mayi_candidates
from .rng import SeededStream
from .scoring import face_penalty
from .state import State, ruleset_of
from .table import layoff_ends


def choose_action(state: State, seat: int, policy: str = "heuristic") -> dict | None:
    """The next action ``seat``'s bot takes now, or ``None`` when it has nothing to do.

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc")
    >>> choose_action(st, st["active"])["type"] in ("draw", "mayi_meld")
    True
    """
    if policy == "random":
        return _random_action(state, seat)
    if policy != "heuristic":
        raise ValueError(f"unknown bot policy {policy!r}")
    return _heuristic_action(state, seat)


def fallback_action(state: State, seat: int) -> dict:
    """A safe action that always ends or advances the turn (used if a policy misfires)."""
    actions = legal_actions(state, seat)
    for kind in ("draw", "discard", "lay_off", "pass"):
        for a in actions:
            if a["type"] == kind:
                return a
    raise RuntimeError(f"seat {seat} has no way to advance the turn")


# -- random ---------------------------------------------------------------------------------
def _random_action(state: State, seat: int) -> dict | None:
    actions = legal_actions(state, seat)
    if not actions:
        return None
    stream = SeededStream(f"{state['seed']}:bot:{seat}", state["moves"])
    return actions[stream.below(len(actions))]


# -- heuristic ------------------------------------------------------------------------------
def _heuristic_action(state: State, seat: int) -> dict | None:
    if can_answer(state, seat) and seat != state["active"]:
        card = state["window"]["card"] if state["window"] else state["discard"][-1]
        return {"type": "may_i" if _wants_to_buy(state, seat, card) else "no_thanks"}
    if seat != state["active"] or state["phase"] not in ("draw", "play"):
        return None
    rules = ruleset_of(state)
    hand = state["hands"][seat]
    if rules.mayi_melds:
        found = mayi_candidates(hand)
        if found:
            return {"type": "mayi_meld", "cards": found[0]}
    if state["phase"] == "draw":
        top = state["discard"][-1] if state["discard"] else None
        if top is not None and _wants_card(state, seat, top):
            return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": "stock"}
    if not state["down"][seat]:
        melds = contract_melds(state, seat) if _might_lay_down(state, seat) else None
        if melds is not None:
            return {"type": "lay_down", "melds": melds}
    elif rules.lay_off_on_lay_down_turn or not state["laid_down_this_turn"]:
        options = lay_off_options(state, seat)
        if options:
            return options[0]
    final_rule = state["round"] in rules.no_final_discard_rounds
    if final_rule and len(hand) == 1:
        return {"type": "pass"}
    return {"type": "discard", "card": _worst_card(state, seat)}


def _needs(state: State) -> tuple[int, int]:
    contract = ruleset_of(state).contract(state["round"])
    return contract.books, contract.runs


def _might_lay_down(state: State, seat: int) -> bool:
    """A cheap necessary condition before running the solver."""
    books, runs = _needs(state)
    hand = [parse_card(c) for c in state["hands"][seat]]
    naturals = [p for p in hand if p[0] != WILD_RANK]
    if len(hand) < 3 * books + 4 * runs or len(naturals) < 2 * (books + runs):
        return False
    by_rank = Counter(r for r, _ in naturals)
    if sum(c // 2 for c in by_rank.values()) < books:
        return False
    by_suit: dict[str, set[int]] = {}
    for r, s in naturals:
        by_suit.setdefault(s, set()).add(r)
    return sum(len(v) // 2 for v in by_suit.values()) >= runs


def _card_value(hand: list[str], card: str, books: int, runs: int) -> float:
    """How much a card helps toward the contract, given the rest of the hand."""
    rank, suit = parse_card(card)
    if rank == WILD_RANK:
        return 100.0
    value = 0.0
    same_rank = 0
    near = 0.0
    for other in hand:
        if other == card:
            continue
        r, s = parse_card(other)
        if r == WILD_RANK:
            continue
        if r == rank:
            same_rank += 1
        elif s == suit and abs(r - rank) <= 3:
            near += 1.0 / abs(r - rank)
    if books:
        value += 3.0 * min(same_rank, 3) * (1 + books / 3)
    if runs:
        value += 2.5 * near * (1 + runs / 3)
    return value


def _worst_card(state: State, seat: int) -> str:
    hand = state["hands"][seat]
    if state["down"][seat]:
        # Nothing left to build: shed the most expensive card that fits nowhere.
        return max(hand, key=lambda c: (face_penalty(c[1:]), c))
    books, runs = _needs(state)
    return min(
        hand,
        key=lambda c: (_card_value(hand, c, books, runs), -face_penalty(c[1:]), c),
    )


def _wants_card(state: State, seat: int, card: str) -> bool:
    if parse_card(card)[0] == WILD_RANK:
        return True
    if state["down"][seat]:
        return any(layoff_ends(m, card) for m in state["melds"])
    hand = state["hands"][seat]
    books, runs = _needs(state)
    value = _card_value([*hand, card], card, books, runs)
    worst = min(_card_value(hand, c, books, runs) for c in hand)
    return value >= 5.0 and value > worst


def _wants_to_buy(state: State, seat: int, card: str) -> bool:
    if state["down"][seat]:
        return False
    hand = state["hands"][seat]
    if parse_card(card)[0] == WILD_RANK:
        return True
    books, runs = _needs(state)
    return _card_value([*hand, card], card, books, runs) >= 8.0
