"""The decisions a seat makes, the choices each offers, and their weighing by playouts.

A seat's decision in a state is one of five kinds (:func:`decision_choices`):

- ``draw``: the stock's top or the discard pile's;
- ``buy``: "May I?" or "no thanks" for the card on offer (early, or in an open window);
- ``lay_down``: the contract now (the engine's arrangement, ``legal.contract_melds``: the one
  that lays down the most penalty) or ``WAIT`` (end the turn without it);
- ``lay_off``: one lay-off per card that fits somewhere (a card's other places are alike), or
  ``KEEP`` (lay nothing more off: end the turn) where ending the turn is allowed;
- ``discard``: one card of each face in the hand (two copies of a face are alike).

``WAIT`` and ``KEEP`` are choices, not actions: played out, they end the turn as the playout's
policy would (its discard, or a round-7 pass). A MAYI meld and a wild swap are not weighed (the
bots make them by rule), nor a decision with a single choice.

:func:`weigh` plays every choice out on the same determinizations (``playout``) and returns
each choice's scores, sample by sample, so that their differences are paired.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence

from ..cards import parse_card
from ..errors import IllegalMove
from ..legal import can_answer, contract_melds, lay_off_options, lay_offs_allowed
from ..state import State, ruleset_of
from ..turns import swapped_in_hand
from . import baseline
from .endgame import last_card_rule
from .fastplay import draw_orders, supported
from .playout import (
    Policy,
    determinize,
    heuristic_policy,
    play_round,
    playout,
    round_score,
    step,
)

WAIT: dict = {"type": "wait"}  # a lay-down possible now, left for a later turn
KEEP: dict = {"type": "keep"}  # lay-offs possible now, none made: the turn ends


def decision_choices(state: State, seat: int) -> tuple[str, list[dict]] | None:
    """``(kind, choices)`` of the decision ``seat`` makes in ``state``, or ``None`` when it
    has none to weigh (not its turn, nothing to answer, a single choice, the game over)."""
    found = _choices(state, seat)
    if found is None or len(found[1]) < 2:
        return None
    return found


def _choices(state: State, seat: int) -> tuple[str, list[dict]] | None:
    if state.get("game_over"):
        return None
    if seat != state["active"]:
        if can_answer(state, seat):
            return "buy", [{"type": "may_i"}, {"type": "no_thanks"}]
        return None
    phase = state["phase"]
    if phase == "draw":
        if not state["discard"]:
            return None
        return "draw", [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "discard"}]
    if phase != "play" or swapped_in_hand(state, seat):
        return None
    hand = state["hands"][seat]
    if not state["down"][seat]:
        melds = contract_melds(state, seat)
        if melds is not None:
            return "lay_down", [{"type": "lay_down", "melds": melds}, WAIT]
    elif lay_offs_allowed(state, seat):
        options: dict[tuple[int, str], dict] = {}
        for option in lay_off_options(state, seat):
            options.setdefault(parse_card(option["card"]), option)
        if options:
            out = list(options.values())
            if _can_end_turn(state, seat):
                out.append(KEEP)
            return "lay_off", out
    if last_card_rule(state) and len(hand) == 1:
        return None  # the pass: nothing to choose
    faces: dict[tuple[int, str], str] = {}
    for card in hand:
        faces.setdefault(parse_card(card), card)
    return "discard", [{"type": "discard", "card": c} for c in faces.values()]


def choice_of(kind: str, choices: list[dict], action: dict) -> dict | None:
    """The choice among ``choices`` (of a decision of ``kind``) that ``action`` is, or ``None``
    (a MAYI meld, a wild swap, a pass where nothing else was possible...). A discard or a
    lay-off is its card's face; any lay-down is the lay-down choice; ending the turn (a discard
    or a pass) where a lay-down or a lay-off was possible is ``WAIT`` or ``KEEP``; rook's "May
    I?" of the active seat before its draw takes the discard."""
    made = action.get("type")
    if kind == "draw":
        source = "discard" if made == "may_i" else action.get("source")
        made = "draw" if made == "may_i" else made
        return _first(choices, lambda c: made == "draw" and c["source"] == source)
    if kind == "buy":
        return _first(choices, lambda c: c["type"] == made)
    if made in ("discard", "pass") and kind in ("lay_down", "lay_off"):
        wanted = WAIT if kind == "lay_down" else KEEP
        return _first(choices, lambda c: c == wanted)
    if kind == "lay_down":
        return _first(choices, lambda c: made == "lay_down" and c["type"] == "lay_down")
    card = action.get("card")
    try:
        face = parse_card(card) if isinstance(card, str) else None
    except ValueError:
        return None
    return _first(
        choices, lambda c: c["type"] == made and "card" in c and parse_card(c["card"]) == face
    )


def _first(choices: list[dict], match: Callable[[dict], bool]) -> dict | None:
    return next((c for c in choices if match(c)), None)


def _can_end_turn(state: State, seat: int) -> bool:
    """May the seat end its turn now without laying anything more off?"""
    try:
        step(state, seat, end_turn(state, seat))
    except IllegalMove:  # round 7: the last card must be played
        return False
    return True


def end_turn(state: State, seat: int) -> dict:
    """How ``WAIT`` and ``KEEP`` end the turn: the heuristic's discard, or a round-7 pass."""
    if last_card_rule(state) and len(state["hands"][seat]) == 1:
        return {"type": "pass"}
    return {"type": "discard", "card": baseline._worst_card(state, seat)}


def play_choice(st: State, seat: int, choice: dict) -> State:
    """``st`` after ``seat`` makes ``choice`` (``WAIT``/``KEEP``: :func:`end_turn`)."""
    if choice is WAIT or choice is KEEP or choice.get("type") in ("wait", "keep"):
        return step(st, seat, end_turn(st, seat))
    return step(st, seat, choice)


def weigh(
    state: State,
    seat: int,
    choices: Sequence[dict],
    samples: int,
    key: str,
    policy: Policy = heuristic_policy,
    fast: bool = True,
    meter: list[int] | None = None,
    budget: int | None = None,
) -> list[list[int]]:
    """``scores[c][i]``: the seat's score for the round after choice ``c`` played out on
    determinization ``i`` (keyed ``key:i``); every choice meets the same ``samples``
    determinizations. ``meter[0]`` counts the fast model's turns played (``play_round``);
    with a ``budget`` of turns, no new determinization is started once the meter reaches it
    (every choice still meets the same ones: the scores stay paired)."""
    round_no = state["round"]
    fast = fast and supported(ruleset_of(state))
    scores: list[list[int]] = [[] for _ in choices]
    for i in range(samples):
        if budget is not None and meter is not None and i and meter[0] >= budget:
            break
        det = determinize(state, seat, f"{key}:{i}")
        # Each seat's order of the stock's cards: one for every choice (common numbers).
        orders = draw_orders(len(det["stock"]), f"{key}:{i}", state["players"]) if fast else None
        for c, choice in enumerate(choices):
            after = play_choice(det, seat, choice)
            if fast:
                scores[c].append(
                    play_round(after, seat, round_no, f"{key}:{i}", det["stock"], orders, meter)
                )
            else:
                scores[c].append(round_score(playout(after, round_no, policy), seat, round_no))
    return scores


# -- summaries -----------------------------------------------------------------------------------
# Student's t at 97.5% for 1..30 degrees of freedom (a two-sided 95% interval).
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t975(df: int) -> float:
    """Student's t quantile at 97.5% (beyond 30 degrees of freedom: Cornish-Fisher's first
    correction to the normal's 1.96, within 0.002)."""
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df)


def paired_interval(diffs: Sequence[float]) -> tuple[float, float, float]:
    """The mean of paired differences and its 95% interval (a single sample: the mean
    itself, an interval of no width, since nothing measures its spread)."""
    mean = statistics.fmean(diffs)
    if len(diffs) < 2:
        return mean, mean, mean
    half = t975(len(diffs) - 1) * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return mean, mean - half, mean + half
