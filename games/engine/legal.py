"""What a seat may do now: used by bots, the timeout policy and the UI's hints."""

from __future__ import annotations

from itertools import permutations

from .actions import window_eligible
from .cards import SUITS, WILD_RANK, parse_card
from .contract import assign_ids, solve_best
from .state import State, ruleset_of
from .table import layoff_ends


def seats_to_act(state: State) -> list[int]:
    """Seats the game is waiting on: the active seat (turn not finished) and seats that may
    still answer an open buy window.

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc"); seats_to_act(st) == [st["active"]]
    True
    """
    if state["game_over"]:
        return []
    seats = []
    if state["phase"] in ("draw", "play"):
        seats.append(state["active"])
    window = state["window"]
    if window is not None:
        seats += [
            s for s, a in zip(window["eligible"], window["answers"], strict=True) if a is None
        ]
    return seats


def can_answer(state: State, seat: int) -> bool:
    """May ``seat`` say "May I?" / "no thanks" now (to an open window, or early [D])?"""
    if state["game_over"]:
        return False
    window = state["window"]
    if window is not None:
        return (
            seat in window["eligible"] and window["answers"][window["eligible"].index(seat)] is None
        )
    return (
        state["phase"] == "draw"
        and state["early"][seat] is None
        and seat in window_eligible(state, state["active"])
    )


def mayi_candidates(hand: list[str]) -> list[list[str]]:
    """Distinct MAYI melds (by faces) that can be made from a hand."""
    by_face: dict[tuple[int, str], str] = {}
    for cid in hand:
        rank, suit = parse_card(cid)
        if rank != WILD_RANK:
            by_face.setdefault((rank, suit), cid)
    found = []
    suits_at: dict[int, set[str]] = {}
    for rank, suit in by_face:
        suits_at.setdefault(rank, set()).add(suit)
    for rank in range(1, 14):
        if len(suits_at.get(rank, ())) == 4:
            found.append([by_face[(rank, s)] for s in SUITS])
    for low in range(1, 11):
        window = [suits_at.get(low + i) for i in range(4)]
        if not all(window) or len(set().union(*window)) < 4:
            continue
        for order in permutations(SUITS):
            if all(order[i] in window[i] for i in range(4)):
                found.append([by_face[(low + i, order[i])] for i in range(4)])
    return found


def lay_off_options(state: State, seat: int) -> list[dict]:
    """Every ``lay_off`` action the seat could make with its hand now."""
    out = []
    for card in dict.fromkeys(state["hands"][seat]):
        for meld in state["melds"]:
            for end in layoff_ends(meld, card):
                action = {"type": "lay_off", "card": card, "meld": meld["id"]}
                if meld["kind"] == "run":
                    action["end"] = end
                out.append(action)
    return out


def contract_melds(state: State, seat: int) -> list[list[str]] | None:
    """A lay-down (groups of card ids) from the seat's hand that lays down the most penalty."""
    contract = ruleset_of(state).contract(state["round"])
    hand = state["hands"][seat]
    plans = solve_best([parse_card(c) for c in hand], contract.books, contract.runs)
    if plans is None:
        return None
    return assign_ids(hand, plans)


def legal_actions(state: State, seat: int) -> list[dict]:
    """Actions ``seat`` may take now. Lay-downs are given as one suggested grouping (the engine
    accepts any valid one); everything else is listed in full.

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc")
    >>> sorted(a["source"] for a in legal_actions(st, st["active"]) if a["type"] == "draw")
    ['discard', 'stock']
    """
    if state["game_over"]:
        return []
    rules = ruleset_of(state)
    actions: list[dict] = []
    if can_answer(state, seat):
        actions += [{"type": "may_i"}, {"type": "no_thanks"}]
    if seat != state["active"] or state["phase"] not in ("draw", "play"):
        return actions
    hand = state["hands"][seat]
    if rules.mayi_melds:
        actions += [{"type": "mayi_meld", "cards": c} for c in mayi_candidates(hand)]
    if state["phase"] == "draw":
        actions.append({"type": "draw", "source": "stock"})
        if state["discard"]:
            actions.append({"type": "draw", "source": "discard"})
        return actions
    down = state["down"][seat]
    if not down:
        melds = contract_melds(state, seat)
        if melds is not None:
            actions.append({"type": "lay_down", "melds": melds})
    elif rules.lay_off_on_lay_down_turn or not state["laid_down_this_turn"]:
        actions += lay_off_options(state, seat)
    final_rule = state["round"] in rules.no_final_discard_rounds
    if not (final_rule and len(hand) == 1):
        actions += [{"type": "discard", "card": c} for c in dict.fromkeys(hand)]
    elif down and not any(a["type"] == "lay_off" for a in actions):
        actions.append({"type": "pass"})
    return actions
