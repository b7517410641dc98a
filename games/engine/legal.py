"""What a seat may do now: used by bots, the timeout policy and the UI's hints."""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from .buying import window_eligible
from .cards import SUITS, WILD_RANK, every_card_id, is_wild_card, parse_card
from .errors import IllegalMove
from .melding import contract_plan, keeps_room_for_swapped, swap_check
from .state import State, ruleset_of
from .table import fitting
from .turns import swapped_in_hand

SUIT_BIT = {s: 1 << i for i, s in enumerate(SUITS)}
ALL_SUITS = (1 << len(SUITS)) - 1


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


def answerers(state: State) -> list[int]:
    """Every seat that may answer "May I?" / "no thanks" now, in priority order."""
    if state["game_over"]:
        return []
    window = state["window"]
    if window is not None:
        return [s for s, a in zip(window["eligible"], window["answers"], strict=True) if a is None]
    if state["phase"] != "draw":
        return []
    early = state["early"]
    return [s for s in window_eligible(state, state["active"]) if early[s] is None]


def mayi_candidates(hand: list[str], first_only: bool = False) -> list[list[str]]:
    """Distinct MAYI melds (by faces) that can be made from a hand (just one: ``first_only``).

    >>> mayi_candidates(["w4M", "b3A", "w6Y", "w5I", "w?"])
    [['b3A', 'w4M', 'w5I', 'w6Y']]
    """
    # Bots ask this before every move of their turn: the letters each number has rule most
    # hands out before the card ids are gathered.
    masks = [0] * 15  # bit: the letter's SUIT_BIT
    faces = _FACES
    for cid in hand:
        rank, bit = faces[cid]
        masks[rank] |= bit
    runs = []  # four numbers in a row with a natural each, all four letters among them
    for low in range(1, 11):
        a = masks[low]
        if a:
            b = masks[low + 1]
            if b:
                c = masks[low + 2]
                if c:
                    d = masks[low + 3]
                    if d and a | b | c | d == ALL_SUITS:
                        runs.append(low)
    if ALL_SUITS in masks:
        sets = [rank for rank in range(1, 14) if masks[rank] == ALL_SUITS]
    elif not runs:
        return []
    else:
        sets = []
    by_face: dict[tuple[int, int], str] = {}  # the hand's first card of each face
    for cid in hand:
        face = faces[cid]
        if face[1] and face not in by_face:
            by_face[face] = cid
    found = []
    for rank in sets:
        found.append([by_face[(rank, SUIT_BIT[s])] for s in SUITS])
        if first_only:
            return found
    for low in runs:
        for order in _letter_orders(*masks[low : low + 4]):
            found.append([by_face[(low + i, SUIT_BIT[order[i]])] for i in range(4)])
            if first_only:
                return found
    return found


def _face(card_id: str) -> tuple[int, int]:
    """A card's number and its letter's bit in ``SUIT_BIT``; (0, 0) for a wild or a card of a
    set without MAYI melds."""
    rank, suit = parse_card(card_id)
    bit = SUIT_BIT.get(suit, 0)
    return (rank if bit else 0, bit)


# _face of every card id of every card set: read for every card of every hand the bots weigh,
# and an exact dict is the interpreter's fastest lookup (a card id of no set: a KeyError).
_FACES = {card: _face(card) for card in every_card_id()}


@lru_cache(maxsize=1 << 16)  # four masks of four bits: at most 65536 keys
def _letter_orders(a: int, b: int, c: int, d: int) -> tuple[tuple[str, ...], ...]:
    """The orders of the four letters (``permutations(SUITS)``'s order) that put one letter
    at each of four numbers, given the letters each number has."""
    return tuple(
        order for order, (w, x, y, z) in _ORDER_BITS if a & w and b & x and c & y and d & z
    )


# Every order of the four letters with their bits (a hand's first meld of a new kind of run
# asks all 24).
_ORDER_BITS = [(order, tuple(SUIT_BIT[s] for s in order)) for order in permutations(SUITS)]


def lay_off_options(state: State, seat: int) -> list[dict]:
    """Every ``lay_off`` action the seat could make with its hand now."""
    out: list[dict] = []
    hand = state["hands"][seat]
    if ruleset_of(state).out_by_discard_only and len(hand) <= 1:
        return out  # petras: the last card goes out as the final discard
    waiting = bool(swapped_in_hand(state, seat))
    for card in dict.fromkeys(hand):
        for _, meld, ends in fitting(state["melds"], card):
            for end in ends:
                if waiting:
                    try:
                        keeps_room_for_swapped(state, seat, card, meld, end)
                    except IllegalMove:
                        continue
                action = {"type": "lay_off", "card": card, "meld": meld["id"]}
                if meld["kind"] == "run":
                    action["end"] = end
                out.append(action)
    return out


def lay_offs_allowed(state: State, seat: int) -> bool:
    """May ``seat`` lay off now: its turn to play, its contract down, and not the turn it
    laid down in a ruleset that forbids that."""
    return (
        not state["game_over"]
        and seat == state["active"]
        and state["phase"] == "play"
        and state["down"][seat]
        and (ruleset_of(state).lay_off_on_lay_down_turn or not state["laid_down_this_turn"])
    )


def contract_melds(state: State, seat: int) -> list[list[str]] | None:
    """A lay-down (groups of card ids) from the seat's hand that lays down the most penalty
    (under every contract the round allows; petras: keeping a card for the final discard)."""
    hand = state["hands"][seat]
    melds = contract_plan(state, seat, hand)
    if melds is None or not ruleset_of(state).out_by_discard_only:
        return melds
    if sum(len(g) for g in melds) < len(hand):
        return melds
    # The whole hand fits: keep back one card, trying the cheapest to hold first.
    for keep in sorted(dict.fromkeys(hand), key=lambda c: (is_wild_card(c), parse_card(c)[0])):
        melds = contract_plan(state, seat, [c for c in hand if c != keep])
        if melds is not None:
            return melds
    return None


def swap_options(state: State, seat: int) -> list[dict]:
    """Every legal ``swap_wild`` (rook) for the seat now."""
    if not ruleset_of(state).wild_swaps or state["phase"] != "play" or seat != state["active"]:
        return []
    out = []
    for meld in state["melds"]:
        if not any(is_wild_card(c) for c in meld["cards"]):
            continue
        for card in dict.fromkeys(state["hands"][seat]):
            if parse_card(card)[0] == WILD_RANK:
                continue
            try:
                swap_check(state, seat, meld["id"], card)
            except IllegalMove:
                continue
            out.append({"type": "swap_wild", "meld": meld["id"], "card": card})
    return out


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
    pending = swapped_in_hand(state, seat)
    if not down:
        melds = contract_melds(state, seat)
        if melds is not None and all(any(w in g for g in melds) for w in pending):
            actions.append({"type": "lay_down", "melds": melds})
    elif lay_offs_allowed(state, seat):
        actions += lay_off_options(state, seat)
    actions += swap_options(state, seat)
    if pending:
        return actions  # a wild taken off the table is played before the turn ends
    final_rule = state["round"] in rules.no_final_discard_rounds
    if not (final_rule and len(hand) == 1):
        actions += [{"type": "discard", "card": c} for c in dict.fromkeys(hand)]
    elif down and not any(a["type"] == "lay_off" for a in actions):
        actions.append({"type": "pass"})
    return actions
