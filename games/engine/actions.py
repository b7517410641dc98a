"""``apply``: the state machine. Validate an action completely, then change a copy of the state.

The handlers live by topic: ``buying.py`` (draw, buy windows, sales), ``melding.py``
(lay-down, lay-off, MAYI melds, wild swaps); ending a turn and the platform's clock are here.

Each handler checks everything before it moves a card, so a refused action leaves nothing
half-done; ``apply`` works on a copy anyway, so the caller's state is never touched.
"""

from __future__ import annotations

from collections.abc import Callable

from .bots import TIMEOUT_LEVELS, choose_action, fallback_action
from .buying import close_window
from .errors import IllegalMove
from .handlers import PLAYER_HANDLERS
from .state import RoundOver, State, copy_state
from .turns import playable_anywhere

PLAYER_ACTIONS = tuple(PLAYER_HANDLERS)
PLATFORM_ACTIONS = ("close_window", "timeout")
MAX_AUTO_STEPS = 200
_KNOWN_ACTIONS = frozenset(PLAYER_ACTIONS + PLATFORM_ACTIONS)  # every apply asks


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
    if not isinstance(kind, str) or kind not in _KNOWN_ACTIONS:
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


# -- the platform's clock ---------------------------------------------------------------------
# A timed-out turn is stored in its concrete form, ``{"type": "timeout", "level": L, "plays":
# [action, ...]}``: the actions the bot played for the seat, each applied (and checked) as that
# seat's own on replay, so a later change to a bot never changes an old game. The platform asks
# ``concrete_action`` for that form before it applies and records the timeout. A timeout with
# no ``plays`` (games recorded before, or a caller that sends the bare form) still runs the bot
# it names: ``level``, or, naming none, the frozen heuristic that "normal" was before levels.
def _timeout(st: State, seat: None, action: dict, events: list[dict]) -> State:
    _turn_pending(st)
    plays = action.get("plays")
    if plays is not None:
        return _replay_turn(st, plays, events)
    return _bot_turn(st, _timeout_policy(action), events, [])


def _turn_pending(st: State) -> None:
    if st["phase"] not in ("draw", "play"):
        raise IllegalMove("no_turn_pending", "the active player's turn is already over")


def _timeout_policy(action: dict) -> str:
    level = action.get("level")
    if level is not None and level not in TIMEOUT_LEVELS:
        raise IllegalMove("bad_action", f"level is one of {', '.join(TIMEOUT_LEVELS)}")
    return level or "heuristic"


def _same_turn(st: State, player: int, round_no: int) -> bool:
    return (
        not st["game_over"]
        and st["round"] == round_no
        and st["active"] == player
        and st["phase"] in ("draw", "play")
    )


def _bot_turn(st: State, policy: str, events: list[dict], plays: list[dict]) -> State:
    """The bot at ``policy`` plays the active seat's turn to its end; each action it played
    is appended to ``plays`` (a refused choice is replaced by the fallback, as played)."""
    player = st["active"]
    round_no = st["round"]
    events.append({"type": "timed_out", "seat": player})
    for _ in range(MAX_AUTO_STEPS):
        if not _same_turn(st, player, round_no):
            break
        chosen = choose_action(st, player, policy) or fallback_action(st, player)
        try:
            st = _apply_inner(st, player, chosen, events)
        except IllegalMove:
            chosen = fallback_action(st, player)
            st = _apply_inner(st, player, chosen, events)
        plays.append(chosen)
    return st


def _replay_turn(st: State, plays: object, events: list[dict]) -> State:
    """Apply a timeout's recorded ``plays`` as the active seat's actions, each checked like
    any action; no bot is asked. They must play the turn out (as the bot loop did: to the
    turn's end, or to the loop's cap), and nothing after it."""
    if not isinstance(plays, list) or not plays or len(plays) > MAX_AUTO_STEPS:
        raise IllegalMove(
            "bad_action", f"a timeout's plays are a list of 1 to {MAX_AUTO_STEPS} actions"
        )
    player = st["active"]
    round_no = st["round"]
    events.append({"type": "timed_out", "seat": player})
    for n, play in enumerate(plays, start=1):
        if not isinstance(play, dict) or play.get("type") not in PLAYER_ACTIONS:
            raise IllegalMove("bad_action", f"a timeout's play {n} is not a player's action")
        if not _same_turn(st, player, round_no):
            raise IllegalMove(
                "timeout_plays", f"the timed-out turn ended before the timeout's play {n}"
            )
        st = _apply_inner(st, player, play, events)
    if len(plays) < MAX_AUTO_STEPS and _same_turn(st, player, round_no):
        raise IllegalMove("timeout_plays", "the timeout's plays leave the turn unfinished")
    return st


def concrete_action(state: State, seat: int | None, action: dict) -> dict:
    """The action as the platform should record it: a ``timeout`` without ``plays`` gets the
    actions its bot plays in ``state`` (``{"type": "timeout", "level": L, "plays": [...]}``),
    so applying the recorded action never asks a bot again; any other action is returned as
    it is. Raises :class:`IllegalMove` when the timeout has nothing to play; the caller then
    applies the result with :func:`apply`, which checks everything else.

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc")
    >>> timeout = concrete_action(st, None, {"type": "timeout", "level": "normal"})
    >>> timeout["plays"][0]["type"], apply(st, None, timeout) == apply(st, None, {**timeout,
    ...     "plays": None})
    ('draw', True)
    >>> concrete_action(st, 0, {"type": "draw", "source": "stock"})
    {'type': 'draw', 'source': 'stock'}
    """
    if (
        seat is not None
        or not isinstance(action, dict)
        or action.get("type") != "timeout"
        or action.get("plays") is not None
    ):
        return action
    if not isinstance(state, dict) or "hands" not in state:
        raise IllegalMove("bad_state", "not a game state")
    if state["game_over"]:
        raise IllegalMove("game_over", "the game is over")
    _turn_pending(state)
    plays: list[dict] = []
    _bot_turn(copy_state(state), _timeout_policy(action), [], plays)
    return {**action, "plays": plays}


def _apply_inner(st: State, seat: int, action: dict, events: list[dict]) -> State:
    inner = copy_state(st)
    sub: list[dict] = []
    inner = _step(inner, seat, action, sub)
    for e in sub:
        e["auto"] = True
    events.extend(sub)
    return inner


HANDLERS: dict[str, Callable[..., State | None]] = {
    **PLAYER_HANDLERS,
    "close_window": close_window,
    "timeout": _timeout,
}

__all__ = ["apply", "concrete_action", "playable_anywhere"]
