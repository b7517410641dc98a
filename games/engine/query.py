"""Questions the platform asks about a state, answered here once, so that the services and
pages never read a state's keys themselves (the state's layout is the engine's business).

>>> from games.engine.state import new_game
>>> st = new_game(3, "doc")
>>> active_seat(st) == clock_seat(st) == st["active"], window_open(st)
(True, False)
>>> card_on_offer(st) == st["discard"][-1]
True
>>> round_progress(st)
(1, 7)
"""

from __future__ import annotations

from .rulesets import get_ruleset
from .state import State

# Kinds of event (the ``"type"`` of each event ``apply`` returns) the platform reacts to.
TURN_EVENTS = frozenset({"turn", "round_started"})  # a new turn starts: its clock restarts
WINDOW_EVENTS = frozenset({"window_opened"})  # a "May I?" window opens: its timer starts
ROUND_ENDED = "round_ended"  # carries the round's scores: one result row per seat

# The phases in which the active seat is to draw or play: its turn clock runs.
TURN_PHASES = ("draw", "play")


def seed_of(state: State) -> str:
    """The seed every deal of the game is drawn from (secret until the game is over)."""
    return str(state["seed"])


def is_over(state: State) -> bool:
    """Has the game ended (after round 7, or the table's last round)?"""
    return bool(state.get("game_over"))


def active_seat(state: State) -> int | None:
    """The seat whose turn it is (None once the game is over): the view's ``active_seat``."""
    return None if is_over(state) else state["active"]


def clock_seat(state: State | None) -> int | None:
    """The seat whose turn clock runs: its turn, still to draw or to play. None between turns
    (a discard held on a window, a sale-first draw waiting on its sale), once the game is
    over, or before it starts (no state)."""
    if not state or is_over(state) or state.get("phase") not in TURN_PHASES:
        return None
    return state.get("active")


def on_sale(state: State, seat: int) -> bool:
    """Is ``seat``'s stock draw waiting on a sale of the discard first (petras, classic, rook:
    phase ``selling``)? Its clock is stopped, and its turn goes on after the sale."""
    return state.get("phase") == "selling" and state.get("active") == seat


def window_open(state: State) -> bool:
    """Is a "May I?" window open (its timer runs)?"""
    return bool(state.get("window")) and not is_over(state)


def card_on_offer(state: State) -> str | None:
    """The card a "May I?" answers for now: the open window's, else (an early answer [D]) the
    discard pile's top; None when the pile is empty."""
    window = state.get("window")
    if window:
        return window["card"]
    discard = state.get("discard") or []
    return discard[-1] if discard else None


def round_progress(state: State) -> tuple[int, int]:
    """The round being played (or the last one, once the game is over) and how many the
    game has: ``(3, 7)``."""
    return state["round"], get_ruleset(state["ruleset"]).rounds


def buys_used(state: State, seat: int) -> int:
    """How many cards ``seat`` bought this round."""
    return state["buys"][seat]


def total_scores(state: State) -> list[int]:
    """Each seat's total penalty over the rounds played (the game's score).

    >>> from games.engine.state import new_game
    >>> total_scores(new_game(3, "doc"))
    [0, 0, 0]
    """
    return list(state["totals"])


def rounds_went_out(state: State) -> list[int]:
    """How many rounds each seat went out in (a tie-break in some rulesets)."""
    return list(state["rounds_out"])


def final_places(state: State) -> list[int]:
    """Each seat's place (1 = won; equal totals share a place) once the game is over; empty
    before."""
    return list(state.get("places") or []) if is_over(state) else []


def hands_of(state: State) -> list[list[str]]:
    """Every seat's hand (copies): for a replay once the game is over, never for a player."""
    return [list(hand) for hand in state["hands"]]


def stock_next(state: State, count: int) -> list[str]:
    """The next ``count`` cards the stock gives, in draw order (a replay's "what came next")."""
    return state["stock"][::-1][:count]


def stock_size(state: State) -> int:
    return len(state["stock"])
