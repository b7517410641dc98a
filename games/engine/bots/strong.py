"""The ``strong`` bot: it plans from its seat's knowledge (``plan.knowledge``).

- It measures a hand by :func:`eval.analyse`: the fewest cards it still needs for this
  round's contract (books and runs, wilds where they may go) and the live copies of the cards
  that would bring it nearer (those it has not seen on the table, in the pile or taken by
  another seat).
- It discards the card whose loss keeps the hand nearest its contract with the most live outs;
  among equals it sheds the dearest, keeps cards that would lengthen its melds at the
  lay-down, and does not feed the seats that collect that number or letter.
- It takes the discard or buys it only when the card brings the contract nearer (buying
  less once the hand is big, and not at all when the round may soon end). With one point a
  card (rook) it also takes a discard that only adds outs, unless the stock's card (an out
  as often as the hand's live outs say) is worth more; it buys up to four cards over the
  deal, and with the round's end near still buys a card that completes its contract when it
  has a turn to come (``tuning``).
- Once down it lays off its dearest cards first, then discards the dearest card nobody's
  meld will take, keeping those one place from a run's end.
- When someone is close to going out, or the stock may run out for good, the hand's penalty
  weighs more than its plans. How close a down seat is, by the cards it holds, is the
  tuning's (``tuning``): with no lay-off on the lay-down turn (petras, classic, rook)
  it counts little until one card is left, since each card beyond the last needs a turn.
- A MAYI meld (bga) is made at once when down; before, it draws four replacement cards from
  the stock, and it waits until another seat has drawn some this round
  (``makes_mayi_meld``): bots that all drew them ran the stock dry before anyone was out.
"""

from __future__ import annotations

from functools import lru_cache

from ..cards import WILD_RANK, is_wild_card, parse_card
from ..legal import can_answer, contract_melds, lay_off_options, mayi_candidates
from ..state import State, ruleset_of
from ..table import layoff_ends
from ..turns import swapped_in_hand
from . import baseline
from .endgame import endgame_step, last_card_rule
from .eval import Analysis, Cell, analyse, expand_outs, hand_key, mayi_chances
from .plan import Knowledge, knowledge, penalty_of
from .tuning import Tuning, tuning_for


def strong_action(state: State, seat: int, tuning: Tuning | None = None) -> dict | None:
    """The strong bot's next action for ``seat`` (``None``: nothing to do), with the weights
    of ``tuning`` (the ruleset's, ``tuning.tuning_for``, unless given: ``bench/bots.py
    --tuning`` measures other weights on the same deals)."""
    rules = ruleset_of(state)
    t = tuning or tuning_for(rules)
    if seat != state["active"] and can_answer(state, seat):
        card = state["window"]["card"] if state["window"] else state["discard"][-1]
        return {"type": "may_i" if _buys(state, seat, card, t) else "no_thanks"}
    if seat != state["active"] or state["phase"] not in ("draw", "play"):
        return None
    hand = state["hands"][seat]
    key = None
    if rules.mayi_melds:
        found = mayi_candidates(hand, first_only=True)
        if found and makes_mayi_meld(state, seat, t):
            return {"type": "mayi_meld", "cards": found[0]}
    if state["phase"] == "draw":
        top = state["discard"][-1] if state["discard"] else None
        if top is not None and _takes(state, seat, top, t):
            return {"type": "draw", "source": "discard"}
        return {"type": "draw", "source": "stock"}
    if swapped_in_hand(state, seat):
        return baseline.choose_action(state, seat, "heuristic")
    if not state["down"][seat]:
        if baseline._might_lay_down(state, seat):
            melds = contract_melds(state, seat)
            if melds is not None:
                return {"type": "lay_down", "melds": melds}
    elif rules.lay_off_on_lay_down_turn or not state["laid_down_this_turn"]:
        if last_card_rule(state):
            step, key = endgame_step(state, seat)
            if step is not None:
                return step
        else:
            options = lay_off_options(state, seat)
            if options:
                # The dearest card first (if the round ends mid-way, it is not counted).
                return max(options, key=lambda o: (penalty_of(rules, o["card"]), o["card"]))
        swap = baseline._easy_swap(state, seat)
        if swap is not None:
            return swap
    if last_card_rule(state) and len(hand) == 1:
        return {"type": "pass"}
    return {"type": "discard", "card": _discard(state, seat, key, t)}


# Keeping every MAYI meld for after the lay-down lost most of the wins against three baselines,
# which drain the stock anyway: makes_mayi_meld holds one back only when no other seat drew
# replacements more often. The weights are tuning's, per kind of ruleset.


# -- measuring a hand --------------------------------------------------------------------------
def _contracts(state: State) -> list[tuple[int, int]]:
    rules = ruleset_of(state)
    return [(c.books, c.runs) for c in rules.contract_choices(state["round"], state["options"])]


def _analysis(know: Knowledge, hand: list[str], contracts: list[tuple[int, int]]) -> Analysis:
    naturals, wilds = hand_key(hand)
    cs = know.rules.cards
    found = [analyse(naturals, wilds, b, r, cs.ranks, cs.ace_high) for b, r in contracts]
    return min(found, key=lambda a: (a.dist, -len(a.outs)))


def _wilds_in_game(know: Knowledge) -> int:
    cs = know.rules.cards
    return know.copies * len(cs.wild_faces) + sum(min(n, know.copies) for _, n in cs.extra_wilds)


def _extends(a: Analysis, card: str) -> bool:
    """Would ``card`` lengthen a meld of the plan (a fourth of a book, a run's next card)?"""
    rank, suit = parse_card(card)
    if rank in a.books:
        return True
    return any(s == suit and rank in (lo - 1, lo + 4) for s, lo in a.runs)


def urgency(state: State, seat: int, tuning: Tuning | None = None) -> float:
    """0..1: how soon the round may end with this hand counted. Another seat down with one,
    two or three cards may go out soon (how soon: the tuning's ``urgency_left``); a stock that
    cannot be rebuilt again ends the round when it runs out (the stock's size and its rebuilds
    are public)."""
    level = 0.0
    t = tuning or tuning_for(ruleset_of(state))
    by_left = t.urgency_left
    for s in range(state["players"]):
        if s != seat and state["down"][s]:
            left = max(1, len(state["hands"][s]))
            if left <= len(by_left):
                level = max(level, by_left[left - 1])
    if state.get("finisher") is not None:
        return 1.0  # rook's last turns: this is the last one
    level = max(level, stock_urgency(state, t))
    return level


def cards_to_draw(state: State) -> int | None:
    """The cards left to draw this round: the stock, and the pile as often as it may still be
    shuffled into a new stock (each rebuild still allowed brings back about the pile of today;
    ``None``: the stock is rebuilt without limit). Public: the stock's size, the pile and the
    rebuilds."""
    cap = ruleset_of(state).reshuffles_per_round
    if cap is None:
        return None
    return len(state["stock"]) + max(0, len(state["discard"]) - 1) * (cap - state["reshuffles"])


def stock_urgency(state: State, tuning: Tuning | None = None) -> float:
    """0..1 from the cards left to draw (:func:`cards_to_draw`; purchases and MAYI melds draw
    from them too: ``stock_pace`` cards a turn)."""
    left = cards_to_draw(state)
    if left is None:
        return 0.0
    turns = left / (state["players"] * (tuning or tuning_for(ruleset_of(state))).stock_pace)
    return 1.0 if turns <= 1 else 0.6 if turns <= 3 else 0.3 if turns <= 6 else 0.0


def makes_mayi_meld(state: State, seat: int, tuning: Tuning | None = None) -> bool:
    """Does the seat make a MAYI meld it holds now, or keep it for after its lay-down? Once
    down it melds at once (no replacement cards: the hand only shrinks). Before, the meld
    draws four replacements from the stock, and a table that draws them all runs the stock
    dry before anyone is out (bga, four strong bots: 44% of rounds). So a seat draws them
    only once another seat has this round: if the others drain the stock anyway, holding
    back only loses the meld's points (and its cards count in hand). Melding once a round
    while the stock was full, then matching the others, won 37% against three baselines
    (150 games), this 47%. With ``tuning.mayi_first`` a seat melds first too, while
    ``tuning.mayi_stock`` cards or more are left to draw (:func:`cards_to_draw`): the expert
    does, with no limit (docs/ANALYSIS.md, "MAYI melds first": it wins, and sets the others
    matching it)."""
    rules = ruleset_of(state)
    if state["down"][seat] or not rules.mayi_meld_replacements:
        return True
    drawn = replacements_drawn(state)
    if any(n for s, n in enumerate(drawn) if s != seat):
        return True
    t = tuning or tuning_for(rules)
    if not t.mayi_first:
        return False
    left = cards_to_draw(state)
    return left is None or left >= t.mayi_stock


def replacements_drawn(state: State) -> list[int]:
    """How often each seat drew MAYI meld replacements this round: its MAYI melds tabled
    before its contract (the table keeps its melds in the order they were laid)."""
    down: set[int] = set()
    drawn = [0] * state["players"]
    for meld in state["melds"]:
        owner = meld["owner"]
        if meld["kind"] != "mayi":
            down.add(owner)
        elif owner not in down:
            drawn[owner] += 1
    return drawn


def feeds(state: State, know: Knowledge, card: str) -> float:
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


# -- weighing a hand ---------------------------------------------------------------------------
class _Weigh:
    """Weighs hands of one seat at one moment: how near its contract, how many live outs, how
    near a MAYI meld (bga), and what its cards would cost if the round ended now."""

    def __init__(self, state: State, seat: int, tuning: Tuning | None = None) -> None:
        self.state = state
        self.know = knowledge(state, seat)
        self.rules = self.know.rules
        self.t = t = tuning or tuning_for(self.rules)
        self.contracts = _contracts(state)
        self.level = urgency(state, seat, t)
        w_pen = t.w_pen
        if t.w_pen_last is not None and state["round"] == self.rules.rounds:
            w_pen = t.w_pen_last
        self.w_pen = w_pen + 3.0 * self.level
        # With the round about to end, the hand's cost counts more than its plans (the same
        # weight for every hand weighed now: the nearer hand must stay the better one).
        self.w_dist = 25.0 * (1 - 0.6 * self.level)
        self.mayi = self.rules.mayi_melds
        self._wild_live = max(0, _wilds_in_game(self.know) - self.know.seen[(WILD_RANK, "?")])

    def live(self, cells) -> float:
        know = self.know
        total = 0.0
        for cell in cells:
            if cell[0] == WILD_RANK:
                total += 2.0 * self._wild_live
            else:
                total += max(0, know.copies - know.seen[cell])
        return total

    def analysis(self, hand: list[str]) -> Analysis:
        return _analysis(self.know, hand, self.contracts)

    def value(self, hand: list[str]) -> float:
        a = self.analysis(hand)
        live = self.live(expand_outs(a.outs, self.rules.cards.suits))
        # Each live out counts, the first ones most (a book's number has eight copies in
        # the standard and rook packs: a cap would let the bot break its pairs).
        t = self.t
        v = -self.w_dist * a.dist + t.out_w * min(live, 20) + t.out_w2 * max(0.0, live - 20)
        v -= self.w_pen * sum(penalty_of(self.rules, c) for c in hand)
        if self.mayi:
            cs = self.rules.cards
            missing, outs = mayi_chances(hand_key(hand)[0], cs.suits, cs.ranks)
            if missing == 0:
                v += 40.0  # melded at once: -10 on the score
            elif missing == 1:
                v += t.mayi_near + t.mayi_near_out * min(self.live(outs), 10)
            elif missing == 2:
                v += 3.0 + 0.3 * min(self.live(outs), 10)
        return v

    def out_chance(self, hand: list[str]) -> float:
        """The chance that a card the seat has not seen brings ``hand`` nearer its contract:
        the live copies of its outs among all the cards it has not seen."""
        know = self.know
        faces = _faces(self.rules.cards.ranks, self.rules.cards.suits)
        unseen = self._wild_live + sum(max(0, know.copies - know.seen[f]) for f in faces)
        if not unseen:
            return 0.0
        outs = expand_outs(self.analysis(hand).outs, self.rules.cards.suits)
        hits = sum(
            self._wild_live if c[0] == WILD_RANK else max(0, know.copies - know.seen[c])
            for c in outs
        )
        return hits / unseen

    def discard_score(self, hand: list[str], card: str) -> float:
        rest = list(hand)
        rest.remove(card)
        score = self.value(rest) - self.t.feed_w * feeds(self.state, self.know, card)
        if _extends(self.analysis(rest), card):
            score -= 4.0
        return score

    def best_discard(self, hand: list[str], keep: str | None = None) -> tuple[float, str]:
        best: tuple[float, str] | None = None
        done: set[tuple[int, str]] = set()
        for c in dict.fromkeys(hand):
            face = parse_card(c)
            if c == keep or face[0] == WILD_RANK or face in done:
                continue
            done.add(face)  # a second copy of a face weighs the same
            key = (self.discard_score(hand, c), c)
            if best is None or key > best:
                best = key
        if best is None:  # nothing but wilds
            c = max(c for c in hand if c != keep) if len(hand) > 1 else hand[0]
            return (self.discard_score(hand, c), c)
        return best


@lru_cache(maxsize=8)
def _faces(ranks: int, suits: str) -> tuple[Cell, ...]:
    """Every natural face of a card set."""
    return tuple((r, s) for r in range(1, ranks + 1) for s in suits)


# -- drawing and buying ------------------------------------------------------------------------
def _takes(state: State, seat: int, card: str, tuning: Tuning) -> bool:
    if parse_card(card)[0] == WILD_RANK:
        return True
    if state["down"][seat]:
        return any(layoff_ends(m, card) for m in state["melds"])
    w = _Weigh(state, seat, tuning)
    hand = w.know.hand
    after, _ = w.best_discard([*hand, card], keep=card)
    margin = w.t.take_margin
    if w.t.take_ev:
        # The stock's card may be an out too: the known card must beat that chance.
        margin = max(margin, w.w_dist * w.out_chance(hand))
    return after > w.value(hand) + margin


def _buys(state: State, seat: int, card: str, tuning: Tuning) -> bool:
    if state["down"][seat]:
        return False
    rules = ruleset_of(state)
    late = urgency(state, seat, tuning) >= 0.3
    if late and not (tuning.late_buys and _turn_to_come(state, seat)):
        return False
    hand = state["hands"][seat]
    extra = len(hand) - rules.deal_size(state["round"])
    if extra > (4 if rules.max_buys_per_round is not None else tuning.extra_cap):
        return False
    w = _Weigh(state, seat, tuning)
    if late:
        # The round may end soon: only a card that completes the contract pays (the seat
        # lays down on its next turn, keeping out of its hand the cards of its melds).
        return w.analysis([*hand, card]).dist == 0
    if parse_card(card)[0] == WILD_RANK:
        return True
    # The unknown penalty card costs its likely penalty; the hand grows by two.
    gain = w.value([*hand, card]) - w.value(hand) - w.w_pen * 7.0
    return gain > w.t.buy_margin


def _turn_to_come(state: State, seat: int) -> bool:
    """Will the seat play another turn before the round can end? In rook's last turns
    (public: who went out, whose turn it is) only the seats still owed theirs do."""
    if state.get("finisher") is None:
        return True
    return seat in (state.get("last_turns") or [])


# -- discarding --------------------------------------------------------------------------------
def _discard(state: State, seat: int, key: str | None, tuning: Tuning) -> str:
    hand = state["hands"][seat]
    if state["down"][seat]:
        know = knowledge(state, seat)
        candidates = [c for c in dict.fromkeys(hand) if not is_wild_card(c) and c != key]
        candidates = candidates or [c for c in hand if c != key] or list(hand)
        return max(candidates, key=lambda c: (_down_discard_value(state, know, c), c))
    return _Weigh(state, seat, tuning).best_discard(hand)[1]


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
    return 2.0 * penalty_of(know.rules, card) - 6.0 * hope - 0.5 * feeds(state, know, card)
