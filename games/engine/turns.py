"""What every action handler shares: field checks, whose turn it is, and how a turn ends.

Handlers (``buying.py``, ``melding.py``, the discard and the pass here) work on a copy of the state that
``apply`` made; they check everything before they move a card.
"""

from __future__ import annotations

from typing import Any

from .cards import CardError, parse_card
from .errors import IllegalMove
from .state import RoundOver, State, end_round, own_hand, ruleset_of
from .table import layoff_ends
from .words import faces


def where(st: State) -> str:
    """What the table waits for, in words (no seat numbers: the page names the players)."""
    if st["phase"] == "draw":
        return "the player to move has not drawn yet"
    if st["phase"] == "done":
        return "the turn ends when the “May I?” window closes"
    if st["phase"] == "selling":
        return "the discard is on sale"
    return "the player to move is playing"


def _checked(st: State, card: str) -> str:
    try:
        parse_card(card)
    except CardError:
        raise IllegalMove("bad_card", "that is not a card of this game") from None
    if not ruleset_of(st).cards.owns(card):
        raise IllegalMove("bad_card", "that card is not from this game's pack")
    return card


def card_field(st: State, action: dict, field: str = "card") -> str:
    card = action.get(field)
    if not isinstance(card, str):
        raise IllegalMove("bad_action", "choose a card first")
    return _checked(st, card)


def card_list(st: State, value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not value:
        raise IllegalMove("bad_action", "choose the cards first")
    for card in value:
        if not isinstance(card, str):
            raise IllegalMove("bad_action", "that is not a card of this game")
        _checked(st, card)
    if len(set(value)) != len(value):
        raise IllegalMove("duplicate_card", "the same card is chosen twice")
    return value


def in_hand(st: State, seat: int, cards: list[str]) -> None:
    hand = st["hands"][seat]
    missing = [c for c in cards if c not in hand]
    if missing:
        raise IllegalMove(
            "card_not_in_hand",
            f"{faces(missing)} {'is' if len(missing) == 1 else 'are'} not in your hand",
        )


def require_turn(st: State, seat: int, phases: tuple[str, ...]) -> None:
    if seat != st["active"]:
        raise IllegalMove("not_your_turn", f"it is not your turn ({where(st)})")
    if st["phase"] not in phases:
        if st["phase"] == "draw":
            raise IllegalMove("must_draw", "draw a card first: from the stock or the discard pile")
        if st["phase"] == "done":
            raise IllegalMove(
                "turn_over", "your turn is over; it ends when the “May I?” window closes"
            )
        if st["phase"] == "selling":
            raise IllegalMove(
                "sale_pending", "the discard is on sale first; your stock draw completes after it"
            )
        raise IllegalMove("wrong_phase", f"not now: {where(st)}")


def swapped_in_hand(st: State, seat: int) -> list[str]:
    """Wilds this seat took off the table this turn and has not played yet (rook)."""
    return [c for c in st.get("swapped") or [] if c in st["hands"][seat]]


def went_out_check(st: State, seat: int, events: list[dict]) -> None:
    """End the round (or, with last turns, the turn) when the seat's hand is empty and down."""
    if st["hands"][seat] or not st["down"][seat]:
        return
    if ruleset_of(st).round_end == "last_turns":
        # rook: everyone else plays one last turn; a hand emptied in a last turn ends it too.
        if st["finisher"] is None:
            st["finisher"] = seat
            n = st["players"]
            st["last_turns"] = [(seat + k) % n for k in range(1, n)]
        events.append({"type": "went_out", "seat": seat, "last_turns": st["last_turns"][:]})
        next_turn(st, events)
        raise RoundOver
    end_round(st, seat, events, reason="went_out")
    raise RoundOver


def next_turn(st: State, events: list[dict]) -> None:
    """Pass the turn on (with last turns pending, to the next seat owed one, or end the round)."""
    if st.get("finisher") is not None:
        if not st["last_turns"]:
            end_round(st, st["finisher"], events, reason="went_out")
            raise RoundOver
        st["active"], *st["last_turns"] = st["last_turns"]  # a new list: shared by copies
    else:
        st["active"] = (st["active"] + 1) % st["players"]
    st["phase"] = "draw"
    st["laid_down_this_turn"] = False
    st["early"] = [None] * st["players"]
    if "calls" in st:
        st["calls"] = []
    st.pop("swapped", None)
    events.append({"type": "turn", "seat": st["active"]})


def table_meld(st: State, kind: str, owner: int, fields: dict) -> dict:
    meld = {"id": f"m{st['next_meld']}", "kind": kind, "owner": owner, **fields}
    st["next_meld"] += 1
    st["melds"].append(meld)
    return meld


def take_from_hand(st: State, seat: int, cards: list[str]) -> None:
    hand = own_hand(st, seat)
    for c in cards:
        hand.remove(c)


def do_discard(st: State, seat: int, card: str, events: list[dict]) -> None:
    own_hand(st, seat).remove(card)
    st["discard"] = [*st["discard"], card]  # new lists: copy_state shares the pile
    st["discard_from"] = [*st["discard_from"], seat]
    events.append({"type": "discarded", "seat": seat, "card": card})
    went_out_check(st, seat, events)
    next_turn(st, events)


def do_pass(st: State, events: list[dict]) -> None:
    events.append({"type": "passed", "seat": st["active"]})
    next_turn(st, events)


# -- ending a turn -------------------------------------------------------------------------
# -- the handlers that end a turn (``apply``'s, and the playouts' of ``bots/playout.py``, which
# may not import ``actions``: it imports the bots) -------------------------------------------
def _no_swapped_wild(st: State, seat: int) -> None:
    left = swapped_in_hand(st, seat)
    if left:
        raise IllegalMove("use_swapped_wild", f"play the {faces(left)} before your turn ends")


def discard(st: State, seat: int, action: dict, events: list[dict]) -> None:
    require_turn(st, seat, ("play",))
    card = card_field(st, action)
    in_hand(st, seat, [card])
    _no_swapped_wild(st, seat)
    rules = ruleset_of(st)
    if st["round"] in rules.no_final_discard_rounds and len(st["hands"][seat]) == 1:
        raise IllegalMove(
            "no_final_discard",
            f"round {st['round']} has no final discard: meld or lay off your last card, or pass",
        )
    if st["window"] is not None:
        st["held"] = {"type": "discard", "card": card}
        st["phase"] = "done"
        events.append({"type": "discard_held", "seat": seat})
        return
    do_discard(st, seat, card, events)


def playable_anywhere(st: State, card: str) -> bool:
    return any(layoff_ends(m, card) for m in st["melds"])


def pass_turn(st: State, seat: int, action: dict, events: list[dict]) -> None:
    require_turn(st, seat, ("play",))
    rules = ruleset_of(st)
    if st["round"] not in rules.no_final_discard_rounds:
        raise IllegalMove(
            "no_pass", f"passing is only for a last card in round 7, not round {st['round']}"
        )
    hand = st["hands"][seat]
    if not st["down"][seat] or len(hand) != 1:
        raise IllegalMove("cannot_pass", "you pass only with your contract down and one card left")
    _no_swapped_wild(st, seat)
    if playable_anywhere(st, hand[0]) and not (
        st["laid_down_this_turn"] and not rules.lay_off_on_lay_down_turn
    ):
        raise IllegalMove("must_play", f"{faces(hand)} can be laid off: play it to go out")
    if st["window"] is not None:
        st["held"] = {"type": "pass"}
        st["phase"] = "done"
        events.append({"type": "pass_held", "seat": seat})
        return
    do_pass(st, events)
