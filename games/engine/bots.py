"""Bots at three levels, ``easy``, ``normal`` and ``strong``, plus the frozen baselines.

``choose_action(state, seat, level)`` is what the platform calls for a bot seat, and for a seat
whose clock ran out (``normal`` unless the table chose another level). Every level is
deterministic given the state (its randomness is seeded from the seed, the seat and the move
count), so replays stay exact, and every level decides from what its seat may know: its own
hand, the table, the discard pile and the public history of pick-ups (``bot_plan.knowledge``).

- ``strong`` plans: it values each card by how far the hand would be from this round's contract
  without it (books and runs, wilds filling what they may), counts the live copies of what it
  still needs, watches what the others took from the pile and will not feed them, buys only
  when the card brings it closer and the extra cards are worth it, and, when someone is close
  to going out, sheds its most expensive cards first.
- ``normal`` is the heuristic that was the site's only bot (``bots_baseline``).
- ``easy`` is that heuristic with no buying, and one turn in three a careless discard.
- ``baseline`` (alias ``heuristic``) and ``random`` are ``bots_baseline`` unchanged: the
  yardsticks of ``bench/bots.py`` and of tests that replay their decisions.
"""

from __future__ import annotations

from collections import Counter

from . import bots_baseline as baseline
from .bot_plan import Knowledge, hand_distance, knowledge, penalty_of
from .bots_baseline import fallback_action
from .cards import WILD_RANK, is_wild_card, parse_card
from .legal import can_answer, contract_melds, lay_off_options, mayi_candidates
from .rng import SeededStream
from .state import State, ruleset_of
from .table import layoff_ends
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
        return _strong_action(state, seat)
    if level == "easy":
        return _easy_action(state, seat)
    raise ValueError(f"unknown bot level {level!r}")


def _stream(state: State, seat: int) -> SeededStream:
    return SeededStream(f"{state['seed']}:bot-level:{seat}", state["moves"])


def _urgency(state: State, seat: int) -> float:
    """0..1: how soon the round may end with this hand counted. Another seat down with one,
    two or three cards may go out at its next turn; a stock that cannot be rebuilt again ends
    the round when it runs out (the stock's size and its rebuilds are public)."""
    urgency = 0.0
    for s in range(state["players"]):
        if s != seat and state["down"][s]:
            left = len(state["hands"][s])
            urgency = max(
                urgency, 1.0 if left <= 1 else 0.8 if left == 2 else 0.5 if left == 3 else 0
            )
    if state.get("finisher") is not None:
        return 1.0  # rook's last turns: this is the last one
    cap = ruleset_of(state).reshuffles_per_round
    if cap is not None and state["reshuffles"] >= cap:
        turns = len(state["stock"]) / state["players"]
        urgency = max(
            urgency, 1.0 if turns <= 1 else 0.6 if turns <= 3 else 0.3 if turns <= 6 else 0
        )
    return urgency


# -- easy ----------------------------------------------------------------------------------
def _easy_action(state: State, seat: int) -> dict | None:
    action = baseline.choose_action(state, seat, "heuristic")
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


# -- normal --------------------------------------------------------------------------------
def _normal_action(state: State, seat: int) -> dict | None:
    # The heuristic that was the site's only bot, unchanged: it plays timed-out turns, so
    # replays of older games and the platform tests keep their exact decisions.
    return baseline.choose_action(state, seat, "heuristic")


# -- strong --------------------------------------------------------------------------------
def _contracts(state: State) -> list[tuple[int, int]]:
    rules = ruleset_of(state)
    return [(c.books, c.runs) for c in rules.contract_choices(state["round"], state["options"])]


def _dist(know: Knowledge, hand: list[str], contracts: list[tuple[int, int]]):
    return min((hand_distance(know.rules, hand, b, r) for b, r in contracts), key=lambda d: d.cards)


def _live(know: Knowledge, wanted) -> int:
    """Copies of the wanted naturals the seat has not seen anywhere (stock or hidden hands)."""
    live = 0
    suits = know.rules.cards.suits
    for rank, suit in wanted:
        if suit:
            live += max(0, know.copies - know.seen[(rank, suit)])
        else:
            live += sum(max(0, know.copies - know.seen[(rank, s)]) for s in suits) // 2
    return live


def _feeds(state: State, know: Knowledge, card: str) -> float:
    """How much discarding ``card`` would help the others: a down seat lays it off, a seat
    that took cards of its number or letter from the pile is building with them. The next
    seat can simply draw it; the others would have to buy it."""
    rank, suit = parse_card(card)
    if rank == WILD_RANK:
        return 100.0
    n = state["players"]
    cost = 0.0
    if any(know.down[s] for s in range(n) if s != know.seat) and any(
        layoff_ends(m, card) for m in state["melds"]
    ):
        cost += 30.0
    for k in range(1, n):
        s = (know.seat + k) % n
        if know.down[s]:
            continue
        weight = 1.0 if k == 1 else 0.5
        for r, su in know.holds[s]:
            if r == rank:
                cost += 12.0 * weight
            elif su == suit and abs(r - rank) <= 2:
                cost += 8.0 * weight
    return cost


def _strong_action(state: State, seat: int) -> dict | None:
    if seat != state["active"] and can_answer(state, seat):
        card = state["window"]["card"] if state["window"] else state["discard"][-1]
        return {"type": "may_i" if _strong_buys(state, seat, card) else "no_thanks"}
    if seat != state["active"] or state["phase"] not in ("draw", "play"):
        return None
    rules = ruleset_of(state)
    hand = state["hands"][seat]
    if rules.mayi_melds:
        found = mayi_candidates(hand, first_only=True)
        if found:
            return {"type": "mayi_meld", "cards": found[0]}
    if state["phase"] == "draw":
        top = state["discard"][-1] if state["discard"] else None
        if top is not None and _strong_takes(state, seat, top):
            return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": "stock"}
    pending = swapped_in_hand(state, seat)
    if pending:
        return baseline.choose_action(state, seat, "heuristic")
    if not state["down"][seat]:
        if baseline._might_lay_down(state, seat):
            melds = contract_melds(state, seat)
            if melds is not None:
                return {"type": "lay_down", "melds": melds}
    elif rules.lay_off_on_lay_down_turn or not state["laid_down_this_turn"]:
        options = lay_off_options(state, seat)
        if options:
            # The dearest card first (if the round ends mid-way, it is not counted).
            return max(options, key=lambda o: (penalty_of(rules, o["card"]), o["card"]))
        swap = baseline._easy_swap(state, seat)
        if swap is not None:
            return swap
    final_rule = state["round"] in rules.no_final_discard_rounds
    if final_rule and len(hand) == 1:
        return {"type": "pass"}
    return {"type": "discard", "card": _strong_discard(state, seat)}


def _strong_takes(state: State, seat: int, card: str) -> bool:
    if parse_card(card)[0] == WILD_RANK:
        return True
    if state["down"][seat]:
        return any(layoff_ends(m, card) for m in state["melds"])
    know = knowledge(state, seat)
    contracts = _contracts(state)
    now = _dist(know, know.hand, contracts)
    grown = _dist(know, [*know.hand, card], contracts)
    if grown.cards < now.cards:
        return True
    return grown.cards == now.cards and baseline._wants_card(state, seat, card, baseline.Knobs())


def _strong_buys(state: State, seat: int, card: str) -> bool:
    if state["down"][seat] or _urgency(state, seat) >= 0.3:
        return False
    rules = ruleset_of(state)
    hand = state["hands"][seat]
    extra = len(hand) - rules.deal_size(state["round"])
    if extra > (4 if rules.max_buys_per_round is not None else 2):
        return False
    if parse_card(card)[0] == WILD_RANK:
        return True
    know = knowledge(state, seat)
    contracts = _contracts(state)
    now = _dist(know, hand, contracts)
    grown = _dist(know, [*hand, card], contracts)
    # A purchase costs a second, unknown card: worth it when it brings the contract nearer,
    # or makes a pair or a near run of the cards the hand is building with.
    if grown.cards < now.cards:
        return True
    return baseline._wants_to_buy(state, seat, card, baseline.Knobs())


def _strong_discard(state: State, seat: int) -> str:
    rules = ruleset_of(state)
    know = knowledge(state, seat)
    hand = know.hand
    candidates = [c for c in dict.fromkeys(hand) if not is_wild_card(c)] or list(hand)
    if state["down"][seat]:
        return max(candidates, key=lambda c: _down_discard_value(state, know, c))
    contracts = _contracts(state)
    urgency = _urgency(state, seat)
    w_pen = 0.4 + 4.0 * urgency
    # How much each card helps the hand's other chances (pairs, neighbours): the baseline's
    # measure, kept as the second opinion after the distance to the contract.
    support = baseline._card_values(hand, *baseline._needs(state, seat))
    whole = _dist(know, hand, contracts)
    spare = Counter(parse_card(c) for c in hand)
    spare.subtract(whole.cells)
    best = None
    for c in candidates:
        if spare[parse_card(c)] > 0:
            d = whole  # the best plan does not need this copy: it stays the best
        else:
            rest = list(hand)
            rest.remove(c)
            d = _dist(know, rest, contracts)
        # Far from the contract with the round about to end: the hand's cost counts more.
        w_dist = 100.0 if d.cards <= 1 else 100.0 * (1 - 0.85 * urgency)
        value = -w_dist * d.cards + 2.0 * min(_live(know, d.wanted), 12) - 3.0 * support[c]
        value += w_pen * penalty_of(rules, c) - _feeds(state, know, c)
        key = (value, c)
        if best is None or key > best:
            best = key
    assert best is not None
    return best[1]


def _down_discard_value(state: State, know: Knowledge, card: str) -> float:
    """Once down a card only helps by being laid off later: keep those one number from a
    run's end (or two, with a gap that the stock may fill), shed the dearest of the rest."""
    rank, suit = parse_card(card)
    hope = 0.0
    for m in state["melds"]:
        if m["kind"] == "run" and m["suit"] == suit:
            lo, hi = m["start"], m["start"] + len(m["cards"]) - 1
            if rank in (lo - 2, hi + 2):
                hope += 1.0
    return 2.0 * penalty_of(know.rules, card) - 6.0 * hope - 0.5 * _feeds(state, know, card)
