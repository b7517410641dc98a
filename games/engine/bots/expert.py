"""The ``expert`` bot: the strong bot's play, searched by determinized playouts.

At its discards, its draws before its contract, and the "May I?" answers where the card on
offer would bring its hand nearer the contract, the expert weighs the strong bot's choice
against the others (for a discard: the strong bot's next best ones): it plays each out to the
round's end on the same determinizations of what its seat cannot see (``playout``, the fast
model of ``fastplay`` in bga) and keeps the strong bot's choice unless another one saves
points beyond the playouts' noise. The budget is a number of playouts and of the fast model's
turns, not a time, so that a decision is the same on every machine and every run (the
determinizations' key is the game's seed, the seat and the move number). In the variants,
whose rounds the fast model does not play, it plays as the strong bot. Lay-downs, lay-offs and wild swaps are the
strong bot's (the playouts found next to nothing to gain there: docs/ANALYSIS.md). MAYI melds
are made at once, before the contract too, whatever is left to draw
(``tuning.expert_tuning``): against three strong bots, which hold theirs until another seat
draws replacements, that is the largest gain measured (docs/ANALYSIS.md, "MAYI melds
first"). In bga's last round, which its tables end with nobody out nearly every time, a
penalty point counts 1.2, not 0.15 (``Tuning.w_pen_last``): the hand is the score.

Like every level it reads only its seat's information: the determinizations draw the unseen
cards from what the seat could know (tests/engine/test_analysis.py re-deals the hidden cards
and finds the same moves).
"""

from __future__ import annotations

import statistics

from ..cards import WILD_RANK, parse_card
from ..state import State, ruleset_of
from .endgame import last_card_rule
from .fastplay import supported
from .plan import knowledge
from .search import KEEP, WAIT, choice_of, decision_choices, paired_interval, weigh
from .strong import _down_discard_value, _Weigh, strong_action
from .tuning import Tuning, expert_tuning

# The search's budget. Every candidate is first played out on FIRST determinizations; the
# strong bot's choice and the best rival, if one did better on average, get more, as many as
# the budget of TURNS (turns of the fast model: a decision's time is about proportional to
# them; docs/PERFORMANCE.md) still pays for, at most MORE; the rival is played only when it
# saves MIN_GAIN points or more on average with its paired 95% interval wholly below the
# strong bot's choice. Counts, not times, so that a decision is the same on every machine.
FIRST = 8
MORE = 40
TURNS = 2400
MIN_GAIN = 1.0
DISCARD_CHOICES = 3  # the strong bot's best discards weighed
PLAYOUTS = FIRST + MORE  # the most samples a candidate gets
SEARCHED = frozenset({"draw", "discard", "buy"})


def expert_action(
    state: State, seat: int, playouts: int | None = None, tuning: Tuning | None = None
) -> dict | None:
    """The expert's next action for ``seat``, or ``None`` when it has nothing to do
    (``playouts``: the most samples a candidate gets, ``PLAYOUTS`` unless given; ``tuning``:
    the weights of its play, ``tuning.expert_tuning`` unless given, so that ``bench/bots.py
    --tuning`` measures others on the same deals). Where the fast model does not play the
    ruleset's rounds (``fastplay.supported``: the variants), it plays as the strong bot."""
    playouts = playouts or PLAYOUTS
    weights = tuning or expert_tuning(ruleset_of(state))
    base = strong_action(state, seat, weights)
    if base is None or base["type"] in ("mayi_meld", "swap_wild"):
        return base
    if not supported(ruleset_of(state)):
        return base
    found = decision_choices(state, seat)
    if found is None or found[0] not in SEARCHED:
        return base
    kind, choices = found
    own = choice_of(kind, choices, base)
    if own is None or not _worth_a_search(state, seat, kind, weights):
        return base
    candidates = _candidates(state, seat, kind, choices, own, weights)
    if len(candidates) < 2:
        return base
    first = min(FIRST, playouts)
    key = f"{state['seed']}:expert:{seat}:{state['moves']}"
    meter = [0]
    scores = weigh(state, seat, candidates, first, key, meter=meter, budget=TURNS)
    means = [statistics.fmean(x) for x in scores]
    rival = min(range(1, len(candidates)), key=lambda c: (means[c], c))
    if means[rival] >= means[0]:
        return base
    per_sample = max(1.0, meter[0] / (len(scores[0]) * len(candidates)))
    more = min(playouts - len(scores[0]), int((TURNS - meter[0]) / (2 * per_sample)))
    if more > 0:
        extra = weigh(state, seat, [own, candidates[rival]], more, f"{key}:more")
        scores[0] += extra[0]
        scores[rival] += extra[1]
    gain, low, _ = paired_interval([a - b for a, b in zip(scores[0], scores[rival], strict=True)])
    if gain >= MIN_GAIN and low > 0:
        return _action(state, seat, candidates[rival], base, weights)
    return base


def _worth_a_search(state: State, seat: int, kind: str, weights: Tuning) -> bool:
    """Is the decision open at all? Every discard is, and every draw before the contract (a
    card that does nothing for the contract may still be cheaper to hold than the stock's:
    weighing them all won 223 of the bench's 400 games against three strong bots, not 205:
    docs/ANALYSIS.md). A card on offer in a "May I?" window that brings the hand no nearer
    its contract (the strong bot's measure, ``eval.analyse``) is not bought (it costs a
    penalty card), and a seat that is down takes a card only to lay it off (the strong bot's
    rule)."""
    if kind == "discard":
        return True
    if state["down"][seat]:
        return False
    if kind == "draw":
        return True
    card = state["window"]["card"] if state["window"] else state["discard"][-1]
    if parse_card(card)[0] == WILD_RANK:
        return kind == "buy"
    w = _Weigh(state, seat, weights)
    hand = w.know.hand
    return w.analysis([*hand, card]).dist < w.analysis(hand).dist


def _candidates(
    state: State, seat: int, kind: str, choices: list[dict], own: dict, weights: Tuning
) -> list[dict]:
    """The choices weighed: the strong bot's first, then (discards) its next best."""
    if kind != "discard":
        return [own, *(c for c in choices if c != own)]
    ranked = _ranked_discards(state, seat, [c["card"] for c in choices], weights)
    out = [own]
    for card in ranked:
        if len(out) >= DISCARD_CHOICES:
            break
        choice = {"type": "discard", "card": card}
        if choice != own:
            out.append(choice)
    return out


def _ranked_discards(state: State, seat: int, cards: list[str], weights: Tuning) -> list[str]:
    """``cards`` (one per face), the strong bot's preferred discard first."""
    naturals = [c for c in cards if parse_card(c)[0] != WILD_RANK] or cards
    if state["down"][seat]:
        know = knowledge(state, seat)
        return sorted(naturals, key=lambda c: (-_down_discard_value(state, know, c), c))
    w = _Weigh(state, seat, weights)
    hand = state["hands"][seat]
    return sorted(naturals, key=lambda c: (-w.discard_score(hand, c), c))


def _action(state: State, seat: int, choice: dict, base: dict, weights: Tuning) -> dict:
    """The action that makes ``choice`` (``WAIT`` and ``KEEP``: the strong bot's end of the
    turn)."""
    if choice is WAIT or choice is KEEP:
        if base["type"] in ("discard", "pass"):
            return base
        if last_card_rule(state) and len(state["hands"][seat]) == 1:
            return {"type": "pass"}
        hand = state["hands"][seat]
        return {"type": "discard", "card": _ranked_discards(state, seat, hand, weights)[0]}
    return choice
