"""Bots at four levels, ``easy``, ``normal``, ``strong`` and ``expert``, plus the frozen
baselines.

``choose_action(state, seat, level)`` is what the platform calls for a bot seat, and for a seat
whose clock ran out (``normal`` unless the table chose another of ``TIMEOUT_LEVELS``: never
``expert``, which searches for up to a fifth of a second a decision). Every level is
deterministic given the state (its randomness is seeded from the seed, the seat and the move
count), so replays stay exact, and every level decides from what its seat may know: its own
hand, the table, the discard pile and the public history of pick-ups (``plan.knowledge``).

- ``expert`` searches (``expert``): at its draws and discards it plays the strong bot's
  choice and its next-best ones out to the round's end on determinizations of the cards its
  seat cannot see (``playout``, ``search``), and makes the best on average. Its own play is
  the strong bot's with two changes (``tuning.expert_tuning``): in bga it makes every MAYI
  meld at once, before its contract too, without waiting for another seat to draw
  replacements first, and in the game's last round it counts its hand's penalty for more.
- ``strong`` plans (``strong``): it measures a hand by the cards it still needs for this
  round's contract and the live copies of those that would bring it nearer (``eval``),
  values MAYI meld chances, takes and buys only when the card adds more than it costs, does
  not feed the seats that collect a card's number or letter, and sheds its dearest cards when
  someone is close to going out.
- ``normal`` is the heuristic that was the site's only bot (``baseline``) with four
  changes (it buys as the heuristic does: not buying when the stock ran short cost it about
  13 points a game against three baselines). In bga's long contracts (ten cards or more: rounds 5 to 7) it keeps a MAYI meld
  for after its lay-down until another seat has drawn replacements this round, as ``strong``
  does (``strong.makes_mayi_meld``): four bots that all melded at once drew 40 of the
  stock's cards as replacements and ran it dry before anyone was out. It plays bga's round 7
  out like ``strong``. In bga, as the round's end nears (another seat down with few cards,
  or the stock running out for good: ``strong.urgency``), its discard weighs the cards'
  penalties. And where no lay-off is allowed on the lay-down turn (the variants), once another
  seat is down it sheds dear cards sooner, and once down itself it keeps the cards it will
  lay off next turn.
- ``easy`` is ``normal`` with MAYI melds kept back in every round (``makes_mayi_meld``), and
  one turn in three a careless discard. It buys like ``normal``: four easy bots that never
  bought seldom got down in rounds 6 and 7 (15% of rounds with nobody out). It does not
  shed as ``normal`` does when the round's end nears (four easy bots that did ended 5% of
  bga rounds with nobody out).
- ``baseline`` (alias ``heuristic``) and ``random`` are ``baseline`` unchanged: the
  yardsticks of ``bench/bots.py`` and of tests that replay their decisions.
"""

from __future__ import annotations

from ..cards import is_wild_card
from ..legal import contract_melds, lay_offs_allowed
from ..rng import SeededStream
from ..state import State, ruleset_of
from ..table import layoff_ends
from ..turns import swapped_in_hand
from . import baseline
from .baseline import fallback_action
from .endgame import endgame_step, last_card_rule
from .expert import expert_action
from .plan import penalty_of
from .strong import makes_mayi_meld, strong_action, urgency

__all__ = ["DEFAULT_LEVEL", "LEVELS", "TIMEOUT_LEVELS", "choose_action", "fallback_action"]

LEVELS = ("easy", "normal", "strong", "expert")
# The levels that may play a timed-out turn: fast enough for the clock's transaction.
TIMEOUT_LEVELS = ("easy", "normal", "strong")
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
    if level == "expert":
        return expert_action(state, seat)
    if level == "easy":
        return _easy_action(state, seat)
    raise ValueError(f"unknown bot level {level!r}")


def _stream(state: State, seat: int) -> SeededStream:
    return SeededStream(f"{state['seed']}:bot-level:{seat}", state["moves"])


# -- easy ----------------------------------------------------------------------------------
def _easy_action(state: State, seat: int) -> dict | None:
    # Without normal's shedding (four easy bots that shed ended 5.0% of bga rounds with
    # nobody out at seed x2, 3.8% without).
    action = _normal_action(state, seat, shed=False)
    if action is None:
        return None
    if action["type"] == "mayi_meld" and not makes_mayi_meld(state, seat):
        return _heuristic_keeping_meld(state, seat, action["cards"])
    if action["type"] == "discard" and not swapped_in_hand(state, seat):
        stream = _stream(state, seat)
        if stream.below(3) == 0:
            hand = [c for c in state["hands"][seat] if not is_wild_card(c)]
            if hand:
                return {"type": "discard", "card": hand[stream.below(len(hand))]}
    return action


# -- normal ---------------------------------------------------------------------------------
def _normal_action(state: State, seat: int, shed: bool = True) -> dict | None:
    """The heuristic that was the site's only bot, with the changes of the module's doc."""
    action = baseline.choose_action(state, seat, "heuristic")
    if action is None:
        return None
    if action["type"] == "mayi_meld" and holds_mayi_meld(state, seat):
        return _heuristic_keeping_meld(state, seat, action["cards"])
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
    if swapped_in_hand(state, seat):
        return action
    if ruleset_of(state).lay_off_on_lay_down_turn:
        if shed and action["type"] == "discard" and not state["down"][seat]:
            return {"type": "discard", "card": _urgent_discard(state, seat, action["card"])}
        return action
    if action["type"] == "discard":
        return {"type": "discard", "card": _variant_discard(state, seat)}
    if action == {"type": "draw", "source": "discard"} and not state["down"][seat]:
        # Never take a card that the discard would shed again (it would go round for ever).
        top = state["discard"][-1]
        grown = [*state["hands"][seat], top]
        hands = [grown if s == seat else h for s, h in enumerate(state["hands"])]
        if _variant_discard({**state, "hands": hands}, seat) == top:
            return {"type": "draw", "source": "stock"}
    return action


LONG_CONTRACT = 10  # cards: bga's rounds 5 to 7, where four bots ran the stock dry
SHED_WEIGHT = 0.3  # a penalty point's worth, in the heuristic's card values, once a seat is down
URGENT_SHED = 2.0  # the same in bga, with the round's end at hand (urgency 1); 1 and 3 won less


def holds_mayi_meld(state: State, seat: int) -> bool:
    """Does ``normal`` keep the MAYI meld it holds for after its lay-down? Only before the
    lay-down (a meld then draws four replacement cards from the stock), in a contract of ten
    cards or more, and while no other seat has drawn replacements this round
    (``strong.makes_mayi_meld``). Four normal bots that melded at once ran the stock dry
    in 17% of bga rounds, mostly in rounds 6 and 7; holding back in every round ended them
    but lost to three baselines (the meld's cards block a lay-down of the dealt size), so it
    holds back where the rounds ran dry, and melds once another seat drains the stock anyway."""
    if makes_mayi_meld(state, seat):
        return False
    rules = ruleset_of(state)
    choices = rules.contract_choices(state["round"], state["options"])
    return min(3 * c.books + 4 * c.runs for c in choices) >= LONG_CONTRACT


def _urgent_discard(state: State, seat: int, card: str) -> str:
    """The discard of a seat not down yet where lay-offs are allowed on the lay-down turn
    (bga): the heuristic's ``card``, but as the round's end nears (``strong.urgency``:
    another seat down with few cards, or a stock that cannot be rebuilt again running out) a
    penalty point weighs up to ``URGENT_SHED`` card values. Against three baselines, whose
    tables end bga's rounds 6 and 7 with nobody out seven times in ten, the hand left then is
    what counts (400 games, mean total 236.0 -> 222.6 against 233.7: docs/PERFORMANCE.md)."""
    level = urgency(state, seat)
    if not level:
        return card
    rules = ruleset_of(state)
    hand = state["hands"][seat]
    values = baseline._card_values(hand, *baseline._needs(state, seat))
    weight = URGENT_SHED * level
    return min(
        hand,
        key=lambda c: (values[c] - weight * penalty_of(rules, c), -penalty_of(rules, c), c),
    )


def _variant_discard(state: State, seat: int) -> str:
    """The discard where no lay-off is allowed on the lay-down turn. Once down: the dearest
    card that fits no meld (those that fit are laid off next turn). Before: the heuristic's
    least useful card, but once another seat is down (and may go out next turn) a penalty
    point weighs ``SHED_WEIGHT`` of a card value (classic, 200 games against three
    baselines: mean total 274.5 -> 254.7)."""
    rules = ruleset_of(state)
    hand = state["hands"][seat]
    naturals = [c for c in hand if not is_wild_card(c)] or hand
    if state["down"][seat]:
        melds = state["melds"]
        return max(
            naturals,
            key=lambda c: (not any(layoff_ends(m, c) for m in melds), penalty_of(rules, c), c),
        )
    if not any(d for s, d in enumerate(state["down"]) if s != seat):
        return baseline._worst_card(state, seat)
    values = baseline._card_values(hand, *baseline._needs(state, seat))
    return min(
        hand,
        key=lambda c: (
            values[c] - SHED_WEIGHT * penalty_of(rules, c),
            -penalty_of(rules, c),
            c,
        ),
    )


def _heuristic_keeping_meld(state: State, seat: int, meld: list[str]) -> dict:
    """The heuristic's turn of a seat not down yet that keeps its MAYI meld in hand for after
    the lay-down: its draw, its lay-down, or a discard that is not one of the meld's cards."""
    knobs = baseline.POLICIES["heuristic"]
    if state["phase"] == "draw":
        top = state["discard"][-1] if state["discard"] else None
        # Weighed without the meld's cards, like the discard: a card taken only to be
        # discarded again would go round the table for ever (seen with four easy bots).
        kept = state.copy()
        kept["hands"] = _with_hand(state, seat, meld)
        if top is not None and baseline._wants_card(kept, seat, top, knobs):
            return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": "stock"}
    if baseline._might_lay_down(state, seat):
        melds = contract_melds(state, seat)
        if melds is not None:
            return {"type": "lay_down", "melds": melds}
    hand = state["hands"][seat]
    if last_card_rule(state) and len(hand) == 1:
        return {"type": "pass"}
    worst = baseline._worst_card({**state, "hands": _with_hand(state, seat, meld)}, seat)
    return {"type": "discard", "card": worst}


def _with_hand(state: State, seat: int, kept: list[str]) -> list[list[str]]:
    """The hands with ``seat``'s ``kept`` cards left out (none left out if nothing else)."""
    hand = [c for c in state["hands"][seat] if c not in kept] or state["hands"][seat]
    return [hand if s == seat else h for s, h in enumerate(state["hands"])]
