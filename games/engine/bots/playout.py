"""Determinized playouts: what the analysis of a decision and the ``expert`` bot are built on.

A seat cannot see the other hands or the stock's order. To weigh a decision from its seat's
information only, :func:`determinize` deals the cards it cannot see again, at random but
consistently with everything it could know (its own hand, the table, the discard pile, the
cards others took from the pile and still hold, every hand's size, the stock's size), and
:func:`playout` plays the round out from there with a fast policy for every seat, returning
the seat's score for the round (its penalty points, MAYI melds counted). Averaging over many
determinizations estimates the seat's expected score after each choice; playing every choice
on the same determinizations (common random numbers) makes their differences tight.

Nothing here reads a hidden card to decide anything: the unseen cards are gathered as a set
(sorted, so their true places do not show through their order) and dealt from a stream keyed
by the caller's seed; the state's own seed (which fixes every deal) is replaced too, so a
rebuilt stock in a playout is shuffled from the sample's key. Re-dealing the hidden cards of a
state, consistently, therefore changes no result (tests/engine/test_analysis.py).

The playouts apply actions through the engine's own handlers (the same checks as ``apply``),
from ``handlers``: this module is imported by the bots, which ``actions`` imports, so it may
not import ``actions``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import IllegalMove
from ..handlers import PLAYER_HANDLERS
from ..legal import answerers
from ..rng import SeededStream
from ..scoring import cards_penalty
from ..state import RoundOver, State, copy_state, ruleset_of
from . import baseline
from .fastplay import Round, supported

Policy = Callable[[State, int], "dict | None"]

# A round of bots ends within a few hundred actions; the cap only stops a playout that a
# policy would spin (then the hands are counted as they are).
MAX_PLAYOUT_ACTIONS = 1500


def step(st: State, seat: int, action: dict) -> State:
    """``apply(st, seat, action)[0]`` for a player's action, without the events' list: the
    same handlers and checks (:class:`IllegalMove` when refused), on a copy."""
    handler = PLAYER_HANDLERS.get(action.get("type", ""))
    if handler is None:
        raise IllegalMove("unknown_action", "there is no such move")
    new = copy_state(st)
    try:
        result = handler(new, seat, action, [])
    except RoundOver:
        result = None
    if result is not None:
        new = result
    new["moves"] += 1
    return new


# -- what a seat knows, and the cards it cannot see -------------------------------------------
def known_held(state: State, seat: int) -> list[list[str]]:
    """Per seat, the cards of its hand that ``seat`` knows: its own whole hand; for another
    seat the cards it took from the discard pile (drawn or bought, in the public history) and
    has not shown since, and the wilds it took off the table this turn (rook's swaps)."""
    n = state["players"]
    own = set(state["hands"][seat])
    shown: set[str] = set(state["discard"])
    for meld in state["melds"]:
        shown.update(meld["cards"])
    last: dict[str, int] = {}
    for s, card in state.get("taken") or []:
        last[card] = s  # the latest taker holds it, unless it was shown again since
    held: list[list[str]] = [[] for _ in range(n)]
    for card, s in last.items():
        if s != seat and card not in own and card not in shown:
            held[s].append(card)
    swapped = state.get("swapped") or []
    active = state["active"]
    if active != seat:
        held[active] += [c for c in swapped if c not in own and c not in shown]
    held[seat] = list(state["hands"][seat])
    return held


def unseen_pool(state: State, seat: int, held: list[list[str]]) -> list[str]:
    """The cards ``seat`` cannot place, sorted: the game's cards less its own hand, the table,
    the discard pile and the cards it knows others hold. They are in the other hands' unknown
    places and in the stock, in some order the seat cannot tell."""
    rules = ruleset_of(state)
    placed: set[str] = set(state["discard"])
    for meld in state["melds"]:
        placed.update(meld["cards"])
    for cards in held:
        placed.update(cards)
    deck = rules.cards.full_deck(rules.decks(state["players"]))
    return sorted(c for c in deck if c not in placed)


def determinize(state: State, seat: int, key: str) -> State:
    """A copy of ``state`` that ``seat`` cannot tell from it: every card it cannot see dealt
    again from :func:`unseen_pool` by a stream keyed by ``key`` (each other hand keeps its size
    and the cards the seat knows it holds; the stock keeps its size), the seed replaced, and
    the others' standing "never buy" orders (private) cleared. A discard the active player
    submitted while a window is open (held, and hidden) becomes one of its dealt cards."""
    n = state["players"]
    held = known_held(state, seat)
    pool = unseen_pool(state, seat, held)
    stream = SeededStream(f"{key}:deal", 0)
    stream.shuffle(pool)
    hands = [list(h) for h in state["hands"]]
    at = 0
    for s in range(n):
        if s == seat:
            continue
        need = len(state["hands"][s]) - len(held[s])
        hands[s] = held[s] + pool[at : at + need]
        at += need
    stock = pool[at:]
    if len(stock) != len(state["stock"]):
        raise ValueError("the state's places do not add up to the game's cards")
    st = copy_state(state)
    st["hands"] = hands
    st["stock"] = stock
    st["seed"] = f"playout:{key}"
    st["rng"] = 0
    st["never_buy"] = [bool(b) and s == seat for s, b in enumerate(state["never_buy"])]
    held_action = state.get("held")
    active = state["active"]
    if held_action and held_action.get("type") == "discard" and active != seat:
        unknown = [c for c in hands[active] if c not in held[active]] or hands[active]
        st["held"] = {"type": "discard", "card": unknown[stream.below(len(unknown))]}
    return st


# -- playing a round out ------------------------------------------------------------------------
def heuristic_policy(state: State, seat: int) -> dict | None:
    """The playouts' policy: the frozen heuristic (``baseline``), about 25 µs an action."""
    return baseline.choose_action(state, seat, "heuristic")


def round_score(st: State, seat: int, round_no: int) -> int:
    """The seat's score for round ``round_no`` once it ended (penalty and MAYI melds); before,
    what it would score if the round ended now."""
    if st["round"] != round_no or st["game_over"]:
        return int(st["scores"][round_no - 1][seat])
    rules = ruleset_of(st)
    return cards_penalty(st["hands"][seat], rules.penalties) + (
        st["mayi_count"][seat] * rules.mayi_meld_score
    )


def playout(
    st: State, round_no: int, policy: Policy = heuristic_policy, until_turn: bool = False
) -> State:
    """Play ``st`` to the end of round ``round_no`` with ``policy`` for every seat (the seats
    that may answer a "May I?" first, as the platform's bots do). Returns the last state.
    ``until_turn``: stop earlier, at the start of a turn (to draw, no window open)."""
    for _ in range(MAX_PLAYOUT_ACTIONS):
        if st["game_over"] or st["round"] != round_no:
            break
        if until_turn and st["phase"] == "draw" and st["window"] is None:
            break
        waiting = answerers(st)
        if waiting:
            who = waiting[0]
        elif st["phase"] in ("draw", "play"):
            who = st["active"]
        else:
            break  # nobody to act (a state the rules never leave): count the hands
        action = policy(st, who)
        if action is None:
            action = {"type": "no_thanks"} if waiting else baseline.fallback_action(st, who)
        try:
            st = step(st, who, action)
        except IllegalMove:
            if waiting:
                st = step(st, who, {"type": "no_thanks"})
            else:
                st = step(st, who, baseline.fallback_action(st, who))
    return st


def play_round(
    st: State,
    seat: int,
    round_no: int,
    key: str,
    universe: list[str],
    orders: list[list[int]] | None = None,
    meter: list[int] | None = None,
) -> int:
    """The seat's score for round ``round_no`` played out from ``st``: the rest of the turn by
    the engine and the heuristic, then the fast model (``fastplay``) where it supports the
    ruleset, drawing from ``universe`` (the determinization's stock) in each seat's order
    keyed by ``key`` (``orders``: those orders, when the caller drew them already); the engine
    to the end elsewhere. ``meter[0]`` counts the fast model's turns played."""
    if not supported(ruleset_of(st)):
        return round_score(playout(st, round_no), seat, round_no)
    st = playout(st, round_no, until_turn=True)
    if st["game_over"] or st["round"] != round_no or st["phase"] != "draw":
        return round_score(st, seat, round_no)
    game = Round(st, key, universe, orders)
    score = game.play()[seat]
    if meter is not None:
        meter[0] += game.turns
    return score
