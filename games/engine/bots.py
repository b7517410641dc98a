"""Bots at three levels, ``easy``, ``normal`` and ``strong``, plus the frozen baselines.

``choose_action(state, seat, level)`` is what the platform calls for a bot seat, and for a seat
whose clock ran out (``normal`` unless the table chose another level). Every level is
deterministic given the state (its randomness is seeded from the seed, the seat and the move
count), so replays stay exact, and every level decides from what its seat may know: its own
hand, the table, the discard pile and the public history of pick-ups (``bot_plan.knowledge``).

- ``strong`` plans (``bot_strong``): it measures a hand by the cards it still needs for this
  round's contract and the live copies of those that would bring it nearer (``bot_eval``),
  values MAYI meld chances, takes and buys only when the card adds more than it costs, does
  not feed the seats that collect a card's number or letter, and sheds its dearest cards when
  someone is close to going out.
- ``normal`` is the heuristic that was the site's only bot (``bots_baseline``), which no
  longer buys when the stock is about to run out and plays bga's round 7 out like ``strong``.
  It still makes every MAYI meld at once: holding them back as ``strong`` does
  (``bot_strong.makes_mayi_meld``) ends four normal bots' rounds, but costs it its parity
  with three baselines (docs/PERFORMANCE.md).
- ``easy`` is ``normal`` with no buying, and one turn in three a careless discard.
- ``baseline`` (alias ``heuristic``) and ``random`` are ``bots_baseline`` unchanged: the
  yardsticks of ``bench/bots.py`` and of tests that replay their decisions.
"""

from __future__ import annotations

from . import bots_baseline as baseline
from .bot_endgame import endgame_step, last_card_rule
from .bot_plan import penalty_of
from .bot_strong import stock_urgency, strong_action
from .bots_baseline import fallback_action
from .cards import is_wild_card
from .legal import lay_offs_allowed
from .rng import SeededStream
from .state import State, ruleset_of
from .turns import swapped_in_hand

__all__ = ["DEFAULT_LEVEL", "LEVELS", "choose_action", "fallback_action"]

LEVELS = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"
_BASELINES = {"heuristic": "heuristic", "baseline": "heuristic", "random": "random"}


def choose_action(state: State, seat: int, level: str = DEFAULT_LEVEL) -> dict | None:
    """The next action ``seat``'s bot takes now at ``level``, or ``None`` when it has nothing
    to do.

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc")
    >>> all(choose_action(st, st["active"], lv)["type"] in ("draw", "mayi_meld") for lv in LEVELS)
    True
    """
    if level in _BASELINES:
        return baseline.choose_action(state, seat, _BASELINES[level])
    if level == "normal":
        return _normal_action(state, seat)
    if level == "strong":
        return strong_action(state, seat)
    if level == "easy":
        return _easy_action(state, seat)
    raise ValueError(f"unknown bot level {level!r}")


def _stream(state: State, seat: int) -> SeededStream:
    return SeededStream(f"{state['seed']}:bot-level:{seat}", state["moves"])


# -- easy ----------------------------------------------------------------------------------
def _easy_action(state: State, seat: int) -> dict | None:
    action = _normal_action(state, seat)
    if action is None:
        return None
    if action["type"] == "may_i":
        return {"type": "no_thanks"}
    if action["type"] == "discard" and not swapped_in_hand(state, seat):
        stream = _stream(state, seat)
        if stream.below(3) == 0:
            hand = [c for c in state["hands"][seat] if not is_wild_card(c)]
            if hand:
                return {"type": "discard", "card": hand[stream.below(len(hand))]}
    return action


# -- normal ---------------------------------------------------------------------------------
def _normal_action(state: State, seat: int) -> dict | None:
    """The heuristic that was the site's only bot, with two fixes that end more rounds: it
    does not buy when the stock (and the pile it may be rebuilt from) is about to run out,
    and in a round whose last card may not be discarded it keeps one fitting card instead of
    laying everything off and holding a card that fits nowhere (``bot_endgame``)."""
    action = baseline.choose_action(state, seat, "heuristic")
    if action is None:
        return None
    if action["type"] == "may_i" and stock_urgency(state) >= 0.3:
        return {"type": "no_thanks"}
    if (
        action["type"] in ("lay_off", "discard", "pass")
        and state["down"][seat]
        and last_card_rule(state)
        and lay_offs_allowed(state, seat)
        and not swapped_in_hand(state, seat)
    ):
        step, key = endgame_step(state, seat)
        if step is not None:
            return step
        hand = state["hands"][seat]
        if len(hand) == 1:
            return {"type": "pass"}
        rules = ruleset_of(state)
        return {
            "type": "discard",
            "card": max((c for c in hand if c != key), key=lambda c: (penalty_of(rules, c), c)),
        }
    return action
