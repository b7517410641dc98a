"""``apply``: the state machine. Validate an action completely, then change a copy of the state.

The handlers live by topic: ``buying.py`` (draw, buy windows, sales), ``melding.py``
(lay-down, lay-off, MAYI melds, wild swaps); ending a turn and the platform's clock are here.

Each handler checks everything before it moves a card, so a refused action leaves nothing
half-done; ``apply`` works on a copy anyway, so the caller's state is never touched.
"""

from __future__ import annotations

from collections.abc import Callable

from .bots import LEVELS, choose_action, fallback_action
from .buying import answer, close_window, draw
from .errors import IllegalMove
from .melding import lay_down, lay_off, mayi_meld, swap_wild
from .state import RoundOver, State, copy_state, ruleset_of
from .table import layoff_ends
from .turns import card_field, do_discard, do_pass, in_hand, require_turn, swapped_in_hand
from .words import faces

PLAYER_ACTIONS = (
    "draw",
    "lay_down",
    "lay_off",
    "mayi_meld",
    "discard",
    "pass",
    "may_i",
    "no_thanks",
    "swap_wild",
)
PLATFORM_ACTIONS = ("close_window", "timeout")
MAX_AUTO_STEPS = 200


def apply(state: State, seat: int | None, action: dict) -> tuple[State, list[dict]]:
    """Apply one action for ``seat`` (``None`` for the platform). Returns ``(new_state, events)``.

    Raises :class:`IllegalMove` and leaves ``state`` untouched when the rules refuse it.

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc")
    >>> st2, events = apply(st, st["active"], {"type": "draw", "source": "discard"})
    >>> st2["phase"], st["phase"], events[0]["type"]
    ('play', 'draw', 'drew')
    """
    if not isinstance(state, dict) or "hands" not in state:
        raise IllegalMove("bad_state", "not a game state")
    if not isinstance(action, dict):
        raise IllegalMove("bad_action", "that is not a move")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in PLAYER_ACTIONS + PLATFORM_ACTIONS:
        raise IllegalMove("unknown_action", "there is no such move")
    if kind in PLATFORM_ACTIONS:
        if seat is not None:
            raise IllegalMove("platform_only", f"{kind} is sent by the platform, not by a seat")
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["players"]:
        raise IllegalMove("bad_seat", f"no seat {seat!r} at this table")
    if state["game_over"]:
        raise IllegalMove("game_over", "the game is over")
    st = copy_state(state)
    events: list[dict] = []
    st = _step(st, seat, action, events)
    st["moves"] += 1
    return st, events


def _step(st: State, seat: int | None, action: dict, events: list[dict]) -> State:
    try:
        result = HANDLERS[action["type"]](st, seat, action, events)
    except RoundOver:
        return st
    return st if result is None else result


# -- ending a turn -------------------------------------------------------------------------
def _no_swapped_wild(st: State, seat: int) -> None:
    left = swapped_in_hand(st, seat)
    if left:
        raise IllegalMove("use_swapped_wild", f"play the {faces(left)} before your turn ends")


def _discard(st: State, seat: int, action: dict, events: list[dict]) -> None:
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


def _pass(st: State, seat: int, action: dict, events: list[dict]) -> None:
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


# -- the platform's clock ---------------------------------------------------------------------
def _timeout(st: State, seat: None, action: dict, events: list[dict]) -> State:
    if st["phase"] not in ("draw", "play"):
        raise IllegalMove("no_turn_pending", "the active player's turn is already over")
    # The table may choose the level of the bot that plays a timed-out turn; it is part of the
    # action, so a replay plays the same turn. A timeout that names no level was recorded when
    # "normal" was the frozen heuristic: it still plays that, so old games replay exactly.
    level = action.get("level")
    if level is not None and level not in LEVELS:
        raise IllegalMove("bad_action", f"level is one of {', '.join(LEVELS)}")
    policy = level or "heuristic"
    player = st["active"]
    round_no = st["round"]
    events.append({"type": "timed_out", "seat": player})
    for _ in range(MAX_AUTO_STEPS):
        if st["game_over"] or st["round"] != round_no or st["active"] != player:
            break
        if st["phase"] not in ("draw", "play"):
            break
        chosen = choose_action(st, player, policy) or fallback_action(st, player)
        try:
            st = _apply_inner(st, player, chosen, events)
        except IllegalMove:
            st = _apply_inner(st, player, fallback_action(st, player), events)
    return st


def _apply_inner(st: State, seat: int, action: dict, events: list[dict]) -> State:
    inner = copy_state(st)
    sub: list[dict] = []
    inner = _step(inner, seat, action, sub)
    for e in sub:
        e["auto"] = True
    events.extend(sub)
    return inner


HANDLERS: dict[str, Callable[..., State | None]] = {
    "draw": draw,
    "lay_down": lay_down,
    "lay_off": lay_off,
    "mayi_meld": mayi_meld,
    "discard": _discard,
    "pass": _pass,
    "may_i": answer,
    "no_thanks": answer,
    "swap_wild": swap_wild,
    "close_window": close_window,
    "timeout": _timeout,
}

__all__ = ["apply", "playable_anywhere"]
