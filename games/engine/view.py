"""What one seat (or a spectator) may see of a state: the only way a state leaves the engine.

A seat sees its own hand; other hands are counts. The stock's order and the seed are never in a
view until the game is over, when everything is revealed.
"""

from __future__ import annotations

from typing import Any, TypedDict

from .cards import face_data
from .legal import can_answer, lay_off_options, lay_offs_allowed, swap_options
from .public import round_summary
from .rulesets import get_ruleset
from .scoring import cards_penalty
from .state import State

# How many cards of the discard pile's top a view shows (the page's "last few discards").
RECENT_DISCARDS = 5


def _meld_view(meld: dict) -> dict:
    out = {
        "id": meld["id"],
        "kind": meld["kind"],
        "owner": meld["owner"],
        "cards": meld["cards"][:],
    }
    for key in ("rank", "suit", "start"):
        if key in meld:
            out[key] = meld[key]
    return out


class View(TypedDict, total=False):
    """What a seat (or a spectator, ``seat`` None) sees of a state: ``view()``'s JSON. The keys
    DESIGN.md pins are always there; ``calls``, ``went_out``/``last_turns``, ``swaps``,
    ``swapped``, ``lay_offs``, ``taken`` by ruleset and seat; ``hands``, ``stock``, ``seed`` once
    the game is over."""

    ruleset: str
    players: int
    seat: int | None
    round: int
    rounds: int
    contract: dict[str, Any]
    contracts: list[dict[str, Any]]
    card_set: str
    options: dict[str, Any]
    final_discard_allowed: bool
    phase: str
    active_seat: int | None
    dealer_seat: int
    hand: list[str] | None
    hand_sizes: list[int]
    melds: list[dict[str, Any]]
    discard_top: str | None
    discard_size: int
    stock_size: int
    contract_down: list[bool]
    buys_used: list[int]
    max_buys: int | None
    mayi_melds: list[int]
    buy_window: dict[str, Any] | None
    turn_done: bool
    held_discard: str | None
    my_answer: str | None
    may_answer: bool
    round_scores: list[Any]
    round_mayi_scores: list[int]
    total_scores: list[int]
    rounds_out: list[int]
    game_over: bool
    places: list[int] | None
    moves: int
    calls: list[int]
    went_out: int | None
    last_turns: list[int]
    swaps: list[dict[str, Any]]
    swapped: list[Any]
    hand_penalty: int | None
    discard_recent: list[str]
    last_round: dict[str, Any] | None
    winners: list[int] | None
    lay_offs: list[dict[str, Any]] | None
    taken: list[Any]
    hands: list[list[str]]
    stock: list[str]
    seed: str
    faces: dict[str, dict]
    # Added by the platform for a seat's own page (games/services/queries.py table_view), not
    # by view(): this seat's hand grouped into the round's melds.
    hand_melds: list[Any]


def view(state: State, seat: int | None) -> View:
    """The JSON-ready view of ``state`` for ``seat`` (``None``: a spectator).

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc")
    >>> v = view(st, 0); len(v["hand"]), v["hand_sizes"], "stock" in v
    (6, [6, 6, 6], False)
    >>> view(st, None)["hand"] is None
    True
    """
    rules = get_ruleset(state["ruleset"])
    n = state["players"]
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
    ):
        raise ValueError(f"no seat {seat!r} at this table")
    over = state["game_over"]
    choices = rules.contract_choices(state["round"], state["options"])
    contract = choices[0]  # the round's usual contract, unless the table's option replaced it
    window = state["window"]
    window_view = None
    if window is not None:
        window_view = {
            "card": window["card"],
            "discarder": window["discarder"],
            "eligible": window["eligible"][:],
            "waiting": [
                s for s, a in zip(window["eligible"], window["answers"], strict=True) if a is None
            ],
            "passed": [
                s
                for s, a in zip(window["eligible"], window["answers"], strict=True)
                if a == "no_thanks"
            ],
            "claimed": [
                s
                for s, a in zip(window["eligible"], window["answers"], strict=True)
                if a == "may_i"
            ],
        }
        if "calls" in window:
            window_view["calls"] = window["calls"][:]
    held = state["held"]
    v: View = {
        "ruleset": rules.name,
        "players": n,
        "seat": seat,
        "round": state["round"],
        "rounds": rules.rounds,
        "contract": {"books": contract.books, "runs": contract.runs, "text": contract.describe()},
        # Every contract a lay-down may make now (rook's round 7: three runs or four books).
        "contracts": [{"books": c.books, "runs": c.runs, "text": c.describe()} for c in choices],
        "card_set": rules.cards.name,
        "options": dict(state["options"]),
        "final_discard_allowed": state["round"] not in rules.no_final_discard_rounds,
        "phase": state["phase"],
        "active_seat": None if over else state["active"],
        "dealer_seat": state["dealer"],
        "hand": None if seat is None else state["hands"][seat][:],
        "hand_sizes": [len(h) for h in state["hands"]],
        "melds": [_meld_view(m) for m in state["melds"]],
        "discard_top": state["discard"][-1] if state["discard"] else None,
        "discard_size": len(state["discard"]),
        "stock_size": len(state["stock"]),
        "contract_down": state["down"][:],
        "buys_used": state["buys"][:],
        "max_buys": rules.max_buys_per_round,
        "mayi_melds": state["mayi_count"][:],
        "buy_window": window_view,
        "turn_done": held is not None,
        "held_discard": held["card"]
        if held and seat == state["active"] and held["type"] == "discard"
        else None,
        "my_answer": _my_answer(state, seat),
        # May this seat say "May I?" / "no thanks" now (to the open window, or early)?
        "may_answer": seat is not None and can_answer(state, seat),
        "round_scores": [r[:] for r in state["scores"]],
        # MAYI melds score at once (docs/RULES.md section 3): the running totals include this round's.
        "round_mayi_scores": [c * rules.mayi_meld_score for c in state["mayi_count"]],
        "total_scores": [
            t + (0 if over else c * rules.mayi_meld_score)
            for t, c in zip(state["totals"], state["mayi_count"], strict=True)
        ],
        "rounds_out": state["rounds_out"][:],
        "game_over": over,
        "places": state["places"][:] if state["places"] else None,
        "moves": state["moves"],
    }
    if "calls" in state:
        v["calls"] = state["calls"][:]  # who said "May I?" for the discard top, earliest first
    if "finisher" in state:
        v["went_out"] = state["finisher"]
        v["last_turns"] = state["last_turns"][:]
    if seat is not None and rules.wild_swaps:
        # The legal wild swaps (rook): the page offers exactly these (its own check of a
        # meld's shape cannot see whether the seat could still lay the wild off).
        v["swaps"] = swap_options(state, seat)
    if state.get("swapped"):
        v["swapped"] = state["swapped"][:]  # wilds taken off the table this turn (public)
    # For the page's panels: my hand's penalty, the last few discards (all of them were face
    # up), the last round's end (public at that moment), the winners. (The rules panel's data
    # is games.engine.summary.rules_summary, given to the page once.)
    v["hand_penalty"] = (
        None if seat is None else cards_penalty(state["hands"][seat], rules.penalties)
    )
    v["discard_recent"] = state["discard"][-RECENT_DISCARDS:]
    v["last_round"] = round_summary(state)
    v["winners"] = [s for s, p in enumerate(state.get("places") or []) if p == 1] if over else None
    if seat is not None:
        v["lay_offs"] = _lay_offs(state, seat)
    if "taken" in state:
        # Public history: [seat, card] for the cards seats took from the pile this round.
        v["taken"] = [t[:] for t in state["taken"]]
    if over:
        v["hands"] = [h[:] for h in state["hands"]]
        v["stock"] = state["stock"][:]
        v["seed"] = state["seed"]
    v["faces"] = _faces(v)
    return v


def _faces(v: View) -> dict[str, dict]:
    """Face data (rank, suit, colour, wild, label) for every card id the view shows."""
    shown: list[str] = list(v["hand"] or [])
    for meld in v["melds"]:
        shown += meld["cards"]
    shown += v["discard_recent"]
    for card in (v.get("discard_top"), v.get("held_discard")):
        if card:
            shown.append(card)
    if v["buy_window"]:
        shown.append(v["buy_window"]["card"])
    shown += v.get("swapped", [])
    shown += [card for _, card in v.get("taken", [])]
    for hand in v.get("hands", []):
        shown += hand
    shown += v.get("stock", [])
    return {c: face_data(c) for c in dict.fromkeys(shown)}


def _lay_offs(state: State, seat: int) -> list[dict] | None:
    """Every lay-off the seat may make now, as actions (``{"type": "lay_off", "card", "meld",
    "end"}``, end only for runs), or None when the seat may not lay off now. Computed only for
    the seat to play with its contract down: one pass over hand x melds."""
    if not lay_offs_allowed(state, seat):
        return None
    return lay_off_options(state, seat)


def _my_answer(state: State, seat: int | None) -> str | None:
    if seat is None:
        return None
    window = state["window"]
    if window is not None:
        if seat in window["eligible"]:
            return window["answers"][window["eligible"].index(seat)]
        return None
    return state["early"][seat]
