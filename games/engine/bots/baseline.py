"""The frozen baseline bots: ``heuristic`` (the only bot before the levels of ``bots/__init__.py``) and
``random`` (uniform among legal actions).

Kept unchanged so that ``bench/bots.py`` measures the levels against the same opponent in every
session, and tests that replay its decisions stay exact. Do not tune it: tune the levels (``bots/__init__.py``).
Both are deterministic given the state, and read only what the seat may know (its own hand, the
table, the discard pile's top, the window).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from ..cards import WILD_RANK, Parsed, card_set_of, every_card_id, parse_card
from ..legal import (
    can_answer,
    contract_melds,
    lay_off_options,
    legal_actions,
    mayi_candidates,
    swap_options,
)
from ..rng import SeededStream
from ..scoring import PENALTY_TABLES
from ..state import State, ruleset_of
from ..table import layoff_ends
from ..turns import swapped_in_hand


def choose_action(state: State, seat: int, policy: str = "heuristic") -> dict | None:
    """The next action ``seat``'s bot takes now, or ``None`` when it has nothing to do.

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc")
    >>> choose_action(st, st["active"])["type"] in ("draw", "mayi_meld")
    True
    """
    if policy == "random":
        return _random_action(state, seat)
    try:
        knobs = POLICIES[policy]
    except KeyError:
        raise ValueError(f"unknown bot policy {policy!r}") from None
    return _heuristic_action(state, seat, knobs)


def fallback_action(state: State, seat: int) -> dict:
    """A safe action that always ends or advances the turn (used if a policy misfires)."""
    actions = legal_actions(state, seat)
    for kind in ("draw", "discard", "lay_off", "pass"):
        for a in actions:
            if a["type"] == kind:
                return a
    raise RuntimeError(f"seat {seat} has no way to advance the turn")


# -- random ---------------------------------------------------------------------------------
def _random_action(state: State, seat: int) -> dict | None:
    actions = legal_actions(state, seat)
    if not actions:
        return None
    stream = SeededStream(f"{state['seed']}:bot:{seat}", state["moves"])
    return actions[stream.below(len(actions))]


# -- heuristic ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Knobs:
    """Thresholds of the heuristic policy (tuned by self-play, see bench/bots.py)."""

    take_value: float = 5.0
    buy_value: float = 8.0
    buy_max_extra_cards: int = 99
    uncapped_max_extra_cards: int = 3


POLICIES: dict[str, Knobs] = {"heuristic": Knobs()}


def _heuristic_action(state: State, seat: int, knobs: Knobs) -> dict | None:
    if seat != state["active"] and can_answer(state, seat):
        card = state["window"]["card"] if state["window"] else state["discard"][-1]
        wanted = _wants_to_buy(state, seat, card, knobs)
        return {"type": "may_i" if wanted else "no_thanks"}
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
        if top is not None and _wants_card(state, seat, top, knobs):
            return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": "stock"}
    pending = swapped_in_hand(state, seat)
    if not state["down"][seat]:
        melds = None
        if pending or _might_lay_down(state, seat):
            melds = contract_melds(state, seat)
        if melds is not None:
            return {"type": "lay_down", "melds": melds}
    elif rules.lay_off_on_lay_down_turn or not state["laid_down_this_turn"]:
        options = lay_off_options(state, seat)
        if pending:
            # A wild taken off the table is played this turn: lay it off first.
            options = [o for o in options if o["card"] in pending] or options
        if options:
            return options[0]
        swap = _easy_swap(state, seat)
        if swap is not None:
            return swap
    final_rule = state["round"] in rules.no_final_discard_rounds
    if final_rule and len(hand) == 1:
        return {"type": "pass"}
    return {"type": "discard", "card": _worst_card(state, seat)}


def _easy_swap(state: State, seat: int) -> dict | None:
    """A swap that sheds a card nothing else would (rook): a natural that fits in no meld's
    end but stands for a tabled wild, which can then be laid off."""
    if not ruleset_of(state).wild_swaps:
        return None
    for option in swap_options(state, seat):
        if not any(layoff_ends(m, option["card"]) for m in state["melds"]):
            return option
    return None


def _needs(state: State, seat: int) -> tuple[int, int]:
    """The contract the seat's bot aims for (rook's round 7 offers two: see _target)."""
    rules = ruleset_of(state)
    if not rules.alternatives:  # one contract a round (every decision asks: the short way)
        contract = rules.contracts[state["round"] - 1]
        return contract.books, contract.runs
    choices = rules.contract_choices(state["round"], state["options"])
    if len(choices) == 1:
        return choices[0].books, choices[0].runs
    hand = state["hands"][seat]
    return _target(hand, [(c.books, c.runs) for c in choices])


def _target(hand: list[str], choices: list[tuple[int, int]]) -> tuple[int, int]:
    """The contract the hand is closest to: the most value its cards add toward it."""
    return max(choices, key=lambda c: sum(_card_values(hand, *c).values()))


@cache
def _most_in_four(mask: int) -> int:
    """The most numbers of ``mask`` (bit n: number n) in four places in a row."""
    return max((mask >> lo & 0b1111).bit_count() for lo in range(1, 12))


def _might_lay_down(state: State, seat: int) -> bool:
    """A cheap necessary condition before running the solver: the fewest wilds each meld
    could need, counted optimistically (cards may be counted twice), must not exceed the
    wilds in hand."""
    books, runs = _needs(state, seat)
    cards = state["hands"][seat]
    if len(cards) < 3 * books + 4 * runs:
        return False
    cells = _CELLS
    by_rank = [0] * 16  # [0]: the wilds
    by_letter = [0] * 5  # bit n: the letter has number n ([4]: the wilds' cell, unused)
    for card in cards:
        rank, cell = cells[card]
        by_rank[rank] += 1
        by_letter[cell // _ROW] |= 1 << rank
    wilds = by_rank[WILD_RANK]
    by_rank[WILD_RANK] = 0
    if len(cards) - wilds < 2 * (books + runs):
        return False
    cost = 0
    if books:
        # Each pair of a number is a book short of at most one wild: none when the number
        # has three copies or more (every pair of them counted), one for a lone pair.
        free = sum([c >> 1 for c in by_rank if c > 2])
        pairs = free + by_rank.count(2)
        if pairs < books:
            return False
        cost += max(0, books - free)
    if runs:
        run_costs = []
        ace_high = ruleset_of(state).cards.ace_high
        for mask in by_letter[:4]:
            if ace_high and mask & 2:
                mask |= 1 << 14  # the ace may also stand above the king
            best = _most_in_four(mask)
            if best >= 2:
                run_costs += [4 - best] * (mask.bit_count() // 2)
        if len(run_costs) < runs:
            return False
        cost += sum(sorted(run_costs)[:runs])
    return cost <= wilds


_ROW = 22  # a letter's counts: numbers 1..14 at 4..17, three empty places on either side
_WILD_CELL = 4 * _ROW  # where wilds are counted (no letter's row)


def _cell(card_id: str) -> tuple[int, int]:
    """A card's number and its count's index in ``_card_values``' table: the letter's row (by
    its place in the card set's letters) at the number."""
    rank, suit = parse_card(card_id)
    if rank == WILD_RANK:
        return rank, _WILD_CELL
    return rank, card_set_of(card_id).suits.index(suit) * _ROW + rank + 3


# _cell of every card id of every card set: every card of every hand the heuristic weighs is
# read here, and an exact dict is the interpreter's fastest lookup (a card id of no set: a
# KeyError, as the state holding it is no game's).
_CELLS = {card: _cell(card) for card in every_card_id()}


def _card_values(hand: list[str], books: int, runs: int) -> dict[str, float]:
    """How much each card helps toward the contract, given the rest of the hand: copies of
    its number count toward a book, cards of its letter within 3 numbers toward a run.

    The dict is shared by the callers that ask about the same hand: never change it."""
    return _values_of(tuple(hand), books, runs)


# One decision often weighs a hand that the one before weighed (the hand a seat took the
# discard into is the one it then discards from; normal's shedding asks after the
# heuristic): a fifth of the calls of a bot game are answered here.
@lru_cache(maxsize=16)
def _values_of(hand: tuple[str, ...], books: int, runs: int) -> dict[str, float]:
    cells = _CELLS
    rank_count = [0] * 16
    counts = [0] * (_WILD_CELL + 1)
    for card in hand:
        rank, cell = cells[card]
        rank_count[rank] += 1
        counts[cell] += 1
    book_weight = 3.0 * (1 + books / 3) if books else 0.0
    run_weight = 2.5 * (1 + runs / 3) if runs else 0.0
    # What a book adds by the copies of a card's number in hand (itself included: 1 to 4,
    # four meaning four or more).
    by_copies = (0.0, book_weight * 0, book_weight * 1, book_weight * 2, book_weight * 3)
    values = {}
    for card in hand:
        rank, i = cells[card]
        if rank == WILD_RANK:
            values[card] = 100.0
            continue
        copies = rank_count[rank]
        value = by_copies[copies if copies < 4 else 4]
        if run_weight:
            near = (
                counts[i - 1]
                + counts[i + 1]
                + (counts[i - 2] + counts[i + 2]) / 2
                + (counts[i - 3] + counts[i + 3]) / 3
            )
            value += run_weight * near
        values[card] = value
    return values


def _card_value(hand: list[str], card: str, books: int, runs: int) -> float:
    """``_card_values([*hand, card], ...)[card]`` for one card not in ``hand``, in one pass."""
    cells = _CELLS
    rank, at = cells[card]
    if rank == WILD_RANK:
        return 100.0
    same = 0
    near = 0.0
    for other in hand:
        r, cell = cells[other]
        if r == rank:
            same += 1
        elif -3 <= cell - at <= 3:  # the same letter (the rows lie far apart), not a wild
            near += 1.0 / abs(cell - at)
    value = 3.0 * (1 + books / 3) * min(same, 3) if books else 0.0
    if runs:
        value += 2.5 * (1 + runs / 3) * near
    return value


def _worst_card(state: State, seat: int) -> str:
    hand = state["hands"][seat]
    penalty = PENALTY_TABLES[ruleset_of(state).penalties]
    if state["down"][seat]:
        # Nothing left to build: shed the most expensive card that fits nowhere.
        return max(hand, key=lambda c: (penalty(parse_card(c)), c))
    values = _card_values(hand, *_needs(state, seat))
    return _least_useful(values, penalty)


def _least_useful(values: dict[str, float], penalty: Callable[[Parsed], int]) -> str:
    """``min(values, key=lambda c: (values[c], -penalty(parse_card(c)), c))``, weighing the
    penalties only where the values tie (every discard asks this)."""
    low = min(values.values())
    tied = [c for c, v in values.items() if v == low]
    if len(tied) == 1:
        return tied[0]
    return min(tied, key=lambda c: (-penalty(parse_card(c)), c))


def _wants_card(state: State, seat: int, card: str, knobs: Knobs) -> bool:
    if parse_card(card)[0] == WILD_RANK:
        return True
    if state["down"][seat]:
        return any(layoff_ends(m, card) for m in state["melds"])
    hand = state["hands"][seat]
    books, runs = _needs(state, seat)
    grown = [*hand, card]
    values = _card_values(grown, books, runs)
    value = values[card]
    if value < knobs.take_value or value <= min(_card_values(hand, books, runs).values()):
        return False
    # Never take a card only to discard it again: two bots would pass it back and forth for
    # ever (seen with rook's flat penalties, where ties fall to the card id).
    penalty = PENALTY_TABLES[ruleset_of(state).penalties]
    return _least_useful(values, penalty) != card


def _wants_to_buy(state: State, seat: int, card: str, knobs: Knobs) -> bool:
    if state["down"][seat]:
        return False
    hand = state["hands"][seat]
    rules = ruleset_of(state)
    limit = knobs.buy_max_extra_cards
    if rules.max_buys_per_round is None:
        limit = min(limit, knobs.uncapped_max_extra_cards)  # no cap: don't bloat the hand
    if len(hand) - rules.deal_size(state["round"]) > limit:
        return False
    if parse_card(card)[0] == WILD_RANK:
        return True
    return _card_value(hand, card, *_needs(state, seat)) >= knobs.buy_value
