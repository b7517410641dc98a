"""Fast playouts: a round played to its end by a lean model of the rules, for the searches.

The engine's ``apply`` checks and records everything (about 25 µs an action with the
heuristic bot deciding); a search wants thousands of playouts a second. This module plays a
round from the start of a turn with cards as small integers, melds as counters, and the frozen
heuristic's rules of thumb (``baseline``) re-written on them: about a tenth of the cost.

What it models: draws from the stock or the pile, "May I?" windows (the first eligible seat
in priority order that wants the card buys it, with its penalty card), the contract's lay-down
(the engine's own solver: ``contract.solve_best``), lay-offs on books and runs with the wild
limits, discards, the stock rebuilt from the pile as often as the ruleset allows, the round
ending when a hand empties or the stock runs out for good, and the rounds without a final
discard (a seat that is down keeps one card that fits, the *key*, and goes out when a drawn
card fits too). What it leaves out: MAYI melds (never made in a playout), and the variants'
orders of play, so it serves only the rulesets :func:`supported` says (bga).

**Common random numbers.** Each seat draws from the stock in the order of its own shuffle of
the stock's cards (the first card of its order still in the stock): every draw is still a
uniformly random card of the stock, but a seat's draws stay the same, card for card, whatever
another choice changed before them. Playouts of two choices from one determinization then
differ only where the choices do, and their paired differences are tight.
"""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache

from ..cards import WILD_RANK, parse_card
from ..rulesets import RuleSet
from ..scoring import PENALTY_TABLES
from ..state import State, ruleset_of

WILD = 0  # a wild's code; a natural's is 16 * suit index + rank


def supported(rules: RuleSet) -> bool:
    """Does the fast model play this ruleset's rounds as the engine does (bar MAYI melds)?"""
    return (
        not rules.sale_first
        and rules.claim == "priority"
        and rules.round_end == "first_out"
        and not rules.wild_swaps
        and not rules.out_by_discard_only
        and not rules.alternatives
        and len(rules.cards.suits) <= 4
        and rules.cards.top == 13
    )


class _Codes:
    """A ruleset's card codes: card id -> code, code -> penalty."""

    def __init__(self, rules: RuleSet) -> None:
        cs = rules.cards
        self.suits = cs.suits
        self.top = cs.top
        self.ranks = cs.ranks
        self.ace_high = cs.ace_high
        penalty = PENALTY_TABLES[rules.penalties]
        self.penalty = [0] * 64
        for i, s in enumerate(cs.suits):
            for r in range(1, cs.ranks + 1):
                self.penalty[16 * i + r] = penalty((r, s))
        self.penalty[WILD] = penalty((WILD_RANK, "?"))
        self.index = {s: i for i, s in enumerate(cs.suits)}
        self._codes: dict[str, int] = {}

    def code(self, card: str) -> int:
        found = self._codes.get(card)
        if found is None:
            rank, suit = parse_card(card)
            found = WILD if rank == WILD_RANK else 16 * self.index[suit] + rank
            self._codes[card] = found
        return found


_CODES: dict[str, _Codes] = {}


def codes_of(rules: RuleSet) -> _Codes:
    found = _CODES.get(rules.name)
    if found is None:
        found = _CODES[rules.name] = _Codes(rules)
    return found


# What a book and a run of the contract weigh in a hand's values (``baseline._card_values``), by
# how many of them it asks for: one table for ``_values`` and ``_card_value``, the same floats.
_BOOK_WEIGHT = tuple(3.0 * (1 + n / 3) if n else 0.0 for n in range(8))
_RUN_WEIGHT = tuple(2.5 * (1 + n / 3) if n else 0.0 for n in range(8))


# Caches a few thousand hands deep: a search's playouts meet the same hands again, and a
# bigger cache only makes the collector's full passes longer.
@lru_cache(maxsize=8192)
def _values(hand: tuple[int, ...], books: int, runs: int) -> dict[int, float]:
    # ``hand`` is sorted: its wilds (code 0) first, then copies of a face side by side. A
    # contract without books or without runs skips that part's counts (its weight is 0.0, so
    # the sums stay the same floats).
    wilds = hand.count(WILD)
    naturals = hand[wilds:]
    bw = _BOOK_WEIGHT[books]
    rw = _RUN_WEIGHT[runs]
    by_rank = [0] * 16
    cells = [0] * 72
    if books:
        for x in naturals:
            by_rank[x & 15] += 1
    if runs:
        for x in naturals:
            cells[x + 3] += 1
    out = dict.fromkeys(hand[:wilds], 100.0)
    for x in dict.fromkeys(naturals):
        v = 0.0
        if books:
            copies = by_rank[x & 15]
            v = bw * (3 if copies >= 4 else copies - 1)
        if runs:
            i = x + 3
            v += rw * (
                cells[i - 1]
                + cells[i + 1]
                + (cells[i - 2] + cells[i + 2]) / 2
                + (cells[i - 3] + cells[i + 3]) / 3
            )
        out[x] = v
    return out


def _card_value(hand: list[int], card: int, books: int, runs: int) -> float:
    """``_values(hand, books, runs)[card]`` for one natural ``card`` of ``hand``, without the
    rest of the hand's (the same sums in the same order, so the same float): most draws and
    offers are refused on this one card's worth alone."""
    rank = card & 15
    copies = near1 = near2 = near3 = 0
    for x in hand:
        if x == WILD:
            continue
        if x & 15 == rank:
            copies += 1
        d = x - card
        if d == 1 or d == -1:
            near1 += 1
        elif d == 2 or d == -2:
            near2 += 1
        elif d == 3 or d == -3:
            near3 += 1
    bw = _BOOK_WEIGHT[books]
    rw = _RUN_WEIGHT[runs]
    v = bw * (3 if copies >= 4 else copies - 1)
    if rw:
        v += rw * (near1 + near2 / 2 + near3 / 3)
    return v


Meld = tuple[str, list[int], int, int]  # kind, naturals, wilds, a book's rank or a run's lo


@lru_cache(maxsize=8192)
def _lay_down_plan(hand: tuple[int, ...], books: int, runs: int) -> list[Meld] | None:
    """A lay-down of the contract from ``hand`` (codes), found greedily: each run the window
    of four numbers holding the most naturals (at least two), each book the number with the
    most copies left (at least two, all of them laid down), wilds filling the places missing;
    runs first, else books first. ``None`` when neither way makes it with the wilds in hand.
    Not the engine's solver (which finds every lay-down, and the dearest): a playout's
    lay-down only has to be a plausible one, found in microseconds, and it may miss a
    contract the solver would find (the seat then waits a turn)."""
    if not _might(hand, books, runs):
        return None
    wilds = hand.count(WILD)
    present = [x for x in dict.fromkeys(hand) if x != WILD]
    for runs_first in (True, False):
        counts = [0] * 64
        for x in hand:
            counts[x] += 1
        plan: list[Meld] = []
        needed = 0
        order = (("run", runs), ("book", books)) if runs_first else (("book", books), ("run", runs))
        for kind, many in order:
            for _ in range(many):
                meld = _best_run(counts, present) if kind == "run" else _best_book(counts, present)
                if meld is None:
                    break
                for x in meld[1]:
                    counts[x] -= 1
                needed += meld[2]
                plan.append(meld)
        if len(plan) == books + runs and needed <= wilds:
            return plan
    return None


def _might(hand: tuple[int, ...], books: int, runs: int) -> bool:
    """A cheap necessary condition for a lay-down (``baseline._might_lay_down``'s): the
    fewest wilds each meld could need, counted optimistically, are in hand. ``hand`` is
    sorted, so its wilds (code 0) come first."""
    wilds = hand.count(WILD)
    if len(hand) - wilds < 2 * (books + runs):
        return False
    naturals = hand[wilds:]
    cost = 0
    if books:
        by_rank = [0] * 16
        for x in naturals:
            by_rank[x & 15] += 1
        free = sum(n >> 1 for n in by_rank if n > 2)
        pairs = free + by_rank.count(2)
        if pairs < books:
            return False
        cost += max(0, books - free)
    if runs:
        masks = [0, 0, 0, 0]
        for x in naturals:
            masks[x >> 4] |= 1 << (x & 15)
        run_costs = []
        for mask in masks:
            best = _MOST_IN_FOUR[mask >> 1]
            if best >= 2:
                run_costs += [4 - best] * (mask.bit_count() // 2)
        if len(run_costs) < runs:
            return False
        cost += sum(sorted(run_costs)[:runs])
    return cost <= wilds


# _BEST_WINDOW[mask >> 1]: (the most numbers of ``mask`` in four places in a row, the lowest
# of those places), numbers 1..13 (bit n: number n).
_BEST_WINDOW = tuple(
    max(((m >> (lo - 1) & 15).bit_count(), -lo) for lo in range(1, 11)) for m in range(1 << 13)
)


def _best_run(counts: list[int], present: list[int]) -> Meld | None:
    masks = [0, 0, 0, 0]
    for x in present:
        if counts[x]:
            masks[x >> 4] |= 1 << (x & 15)
    best = None
    most = 1
    for suit in range(4):
        held, low = _BEST_WINDOW[masks[suit] >> 1]
        if held > most:
            best, most = (suit, -low), held
    if best is None:
        return None
    base = 16 * best[0]
    lo = best[1]
    naturals = [base + p for p in range(lo, lo + 4) if counts[base + p]]
    return ("run", naturals, 4 - len(naturals), lo)


def _best_book(counts: list[int], present: list[int]) -> Meld | None:
    by_rank = [0] * 16
    for x in present:
        by_rank[x & 15] += counts[x]
    rank = max(range(1, 16), key=lambda r: (by_rank[r], r))
    if by_rank[rank] < 2:
        return None
    cards = [x for x in present if x & 15 == rank for _ in range(counts[x])]
    return ("book", cards, max(0, 3 - len(cards)), rank)


_URGENCY_LEFT = (1.0, 0.8, 0.5)  # strong's tuning: another seat down with 1, 2, 3 cards


def draw_orders(size: int, key: str, seats: int) -> list[list[int]]:
    """Each seat's order of drawing ``size`` stock cards, keyed by ``key``. A Mersenne Twister
    seeded from SHA-256 of the key (a playout shuffles hundreds of cards: the engine's
    SHA-256 stream would cost more than the playout); the same key, the same orders."""
    out = []
    for s in range(seats):
        seed = int.from_bytes(hashlib.sha256(f"{key}:{s}".encode()).digest()[:8])
        order = list(range(size))
        # Fisher-Yates with rejection sampling, as ``random.Random.shuffle`` does it (the same
        # orders), written out: the method calls per card were a twentieth of a search.
        bits = random.Random(seed).getrandbits
        for i in range(size - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = bits(k)
            while j >= n:
                j = bits(k)
            order[i], order[j] = order[j], order[i]
        out.append(order)
    return out


# _MOST_IN_FOUR[mask >> 1]: the most numbers of ``mask`` (bit n: number n, 1..14) in four
# places in a row (``baseline._most_in_four``), for every mask.
_MOST_IN_FOUR = bytes(
    max(((m << 1) >> lo & 15).bit_count() for lo in range(1, 12)) for m in range(1 << 14)
)


class Round:
    """A round being played out: the model's state, started from an engine state at the start
    of a turn (``phase`` draw, no window open)."""

    def __init__(
        self, st: State, key: str, universe: list[str], orders: list[list[int]] | None = None
    ) -> None:
        rules = ruleset_of(st)
        c = self.c = codes_of(rules)
        code = c.code
        n = self.n = st["players"]
        self.hands = [[code(x) for x in h] for h in st["hands"]]
        self.pile = [code(x) for x in st["discard"]]
        self.pile_from = list(st["discard_from"])
        self.down = list(st["down"])
        self.buys = list(st["buys"])
        self.active = st["active"]
        self.round_no = st["round"]
        contract = rules.contract(self.round_no)
        self.need_books, self.need_runs = contract.books, contract.runs
        self.least = 3 * contract.books + 4 * contract.runs  # cards a lay-down needs
        self.deal = rules.deal_size(self.round_no)
        self.last_card = self.round_no in rules.no_final_discard_rounds
        self.lay_off_same_turn = rules.lay_off_on_lay_down_turn
        self.max_buys = rules.max_buys_per_round
        self.penalty_cards = rules.penalty_cards_per_buy
        self.reshuffles_left = (
            10**6
            if rules.reshuffles_per_round is None
            else rules.reshuffles_per_round - st["reshuffles"]
        )
        self.key = key
        self.mayi = [m * rules.mayi_meld_score for m in st["mayi_count"]]
        # Tabled melds: books [rank, naturals, wilds], runs [suit, lo, hi, naturals, wilds].
        self.books: list[list[int]] = []
        self.runs: list[list[int]] = []
        for meld in st["melds"]:
            kind = meld["kind"]
            cards = meld["cards"]
            wilds = sum(1 for x in cards if code(x) == WILD)
            if kind == "book":
                self.books.append([meld["rank"], len(cards) - wilds, wilds])
            elif kind == "run":
                lo = meld["start"]
                self.runs.append(
                    [c.index[meld["suit"]], lo, lo + len(cards) - 1, len(cards) - wilds, wilds]
                )
        # The stock: the cards of ``universe`` still in it, each seat drawing them in its own
        # order (see the module's doc).
        in_stock = set(st["stock"])
        if not in_stock <= set(universe):
            # The stock was rebuilt since the universe was drawn: order the new one.
            universe, orders = st["stock"], None
        self.stock_codes = [code(x) for x in universe]
        self.in_stock = bytearray(1 if x in in_stock else 0 for x in universe)
        self.stock_left = len(st["stock"])
        self.orders = orders or draw_orders(len(universe), key, n)
        self.at = [0] * n
        self.went_out: int | None = None
        self.turns = 0
        # Early answers [D] for the pile's top (given before this turn's draw): they stand for
        # the first window, the seats' own choice (a search's "May I?" among them).
        self.early: list | None = list(st["early"]) if any(st["early"]) else None

    # -- the stock -------------------------------------------------------------------------
    def draw(self, seat: int) -> int | None:
        """The seat's next stock card; ``None`` when the round ends for want of one."""
        if self.stock_left == 0 and not self._rebuild():
            return None
        order = self.orders[seat]
        in_stock = self.in_stock
        i = self.at[seat]
        while not in_stock[order[i]]:
            i += 1
        self.at[seat] = i + 1
        slot = order[i]
        in_stock[slot] = 0
        self.stock_left -= 1
        return self.stock_codes[slot]

    def _rebuild(self) -> bool:
        if self.reshuffles_left <= 0 or len(self.pile) <= 1:
            return False
        self.reshuffles_left -= 1
        cards = self.pile[:-1]
        self.pile = self.pile[-1:]
        self.pile_from = self.pile_from[-1:]
        self.stock_codes = cards
        self.in_stock = bytearray(b"\x01" * len(cards))
        self.stock_left = len(cards)
        self.orders = draw_orders(len(cards), f"{self.key}:r{self.reshuffles_left}", self.n)
        self.at = [0] * self.n
        return True

    # -- melds -------------------------------------------------------------------------------
    def fits(self, card: int) -> int:
        """Where ``card`` may be laid off: 1 + a book's index, -1 - a run's index (low end
        first), or 0 nowhere."""
        if card == WILD:
            for i, b in enumerate(self.books):
                if b[2] + 1 <= b[1]:
                    return 1 + i
            top = self.c.top
            for i, r in enumerate(self.runs):
                if r[4] + 1 <= r[3] and (r[1] > 1 or r[2] < top):
                    return -1 - i
            return 0
        rank = card & 15
        suit = card >> 4
        for i, b in enumerate(self.books):
            if b[0] == rank:
                return 1 + i
        for i, r in enumerate(self.runs):
            if r[0] == suit:
                if rank == r[1] - 1 or rank == r[2] + 1:
                    return -1 - i
                if self.c.ace_high and rank == 1 and r[2] == self.c.ranks:
                    return -1 - i
        return 0

    def lay_off(self, card: int, where: int) -> None:
        if where > 0:
            b = self.books[where - 1]
            if card == WILD:
                b[2] += 1
            else:
                b[1] += 1
            return
        r = self.runs[-1 - where]
        if card == WILD:
            r[4] += 1
            if r[2] < self.c.top:
                r[2] += 1
            else:
                r[1] -= 1
            return
        r[3] += 1
        rank = card & 15
        if rank == r[1] - 1:
            r[1] -= 1
        else:
            r[2] += 1  # the next number, or an ace above the king

    def lay_down(self, seat: int, key: tuple[int, ...] | None = None) -> bool:
        """Lay the seat's contract down if its hand holds one: the melds of
        :func:`_lay_down_plan` (the rest of the hand may then be laid off on them). ``key``:
        the hand sorted, if the caller has it."""
        hand = self.hands[seat]
        if len(hand) < self.least:
            return False
        if key is None:
            key = tuple(sorted(hand))
        plan = _lay_down_plan(key, self.need_books, self.need_runs)
        if plan is None:
            return False
        for kind, naturals, wilds, where in plan:
            for x in naturals:
                hand.remove(x)
            for _ in range(wilds):
                hand.remove(WILD)
            if kind == "book":
                self.books.append([where, len(naturals), wilds])
            else:
                self.runs.append([naturals[0] >> 4, where, where + 3, len(naturals), wilds])
        self.down[seat] = True
        return True

    # -- the heuristic's rules of thumb ------------------------------------------------------
    def values(self, hand: list[int]) -> dict[int, float]:
        """``baseline._card_values`` on codes: each card's worth toward the contract, by
        code (copies of a face are worth the same)."""
        return _values(tuple(sorted(hand)), self.need_books, self.need_runs)

    def worst(
        self, hand: list[int], shed: float = 0.0, values: dict[int, float] | None = None
    ) -> int:
        """The index of the card the heuristic discards: the least useful, the dearest among
        equals; ``shed``: what a penalty point is worth in card values (``normal``'s
        shedding as the round's end nears); ``values``: the hand's, if known."""
        penalty = self.c.penalty
        if values is None:
            values = self.values(hand)
        best_i = 0
        best_v = values[hand[0]] - shed * penalty[hand[0]]
        best_p = penalty[hand[0]]
        for i in range(1, len(hand)):
            x = hand[i]
            v = values[x] - shed * penalty[x]
            if v < best_v or (v == best_v and penalty[x] > best_p):
                best_i, best_v, best_p = i, v, penalty[x]
        return best_i

    def urgency(self, seat: int) -> float:
        """0..1: how near the round's end looks to ``seat`` (``strong.urgency``: another seat
        down with three cards or fewer, or a stock that may not be rebuilt running out)."""
        level = 0.0
        for s in range(self.n) if True in self.down else ():
            if s != seat and self.down[s]:
                left = len(self.hands[s])
                if left <= 3:
                    level = max(level, _URGENCY_LEFT[max(left, 1) - 1])
        left = self.stock_left + (len(self.pile) - 1) * min(self.reshuffles_left, 1)
        turns = left / (self.n * 1.5)
        return max(level, 1.0 if turns <= 1 else 0.6 if turns <= 3 else 0.3 if turns <= 6 else 0)

    def wants(self, seat: int, card: int) -> bool:
        """Take the pile's top instead of drawing (``baseline._wants_card``)."""
        if card == WILD:
            return True
        if self.down[seat]:
            return self.fits(card) != 0
        hand = self.hands[seat]
        grown = [*hand, card]
        if _card_value(grown, card, self.need_books, self.need_runs) < 5.0:
            return False
        values = self.values(grown)
        value = values[card]
        if value <= min(values[x] for x in hand):
            return False
        # Never take a card only to discard it again (values of the hand grown by it).
        return self.worst(grown, 0.0, values) != len(grown) - 1

    def buys_card(self, seat: int, card: int, late: list[bool] | None = None) -> bool:
        """Buy the card on offer (``baseline._wants_to_buy``), but, as ``strong`` does, not
        with two extra cards in hand already nor when the round's end is near. ``late``: a
        window's memo of that nearness (``[]`` until known): for a seat not down it is the
        same for every seat, since only the others' hands count."""
        if self.down[seat] or len(self.hands[seat]) - self.deal >= 3:
            return False
        if late is None:
            late = []
        if not late:
            late.append(self.urgency(seat) >= 0.3)
        if late[0]:
            return False
        if card == WILD:
            return True
        return _card_value([*self.hands[seat], card], card, self.need_books, self.need_runs) >= 8.0

    # -- a turn ------------------------------------------------------------------------------
    def turn(self) -> bool:
        """Play the active seat's turn; ``True`` when the round ended in it."""
        a = self.active
        hand = self.hands[a]
        pile = self.pile
        top = pile[-1] if pile else None
        if top is not None and self.wants(a, top):
            hand.append(pile.pop())
            self.pile_from.pop()
            self.early = None  # the answers lapse
        else:
            card = self.draw(a)
            if card is None:
                return True
            hand.append(card)
            if pile and self._window(a):
                return True
        laid_now = False
        # The hand sorted once for the lay-down and, if none is made, the discard's values.
        key: tuple[int, ...] | None = None
        if not self.down[a]:
            key = tuple(sorted(hand))
            if self.lay_down(a, key):
                laid_now = True
                key = None  # the hand changed
        if self.down[a] and (self.lay_off_same_turn or not laid_now) and self._lay_offs(a):
            self.went_out = a
            return True
        if not hand:
            self.went_out = a
            return True
        if self.last_card and len(hand) == 1:
            pass  # no final discard: the seat passes
        else:
            i = self._discard_index(a, key)
            card = hand.pop(i)
            pile.append(card)
            self.pile_from.append(a)
            if not hand and self.down[a]:
                self.went_out = a
                return True
        self.active = (a + 1) % self.n
        return False

    def _window(self, active: int) -> bool:
        """The buy window after a stock draw; ``True`` when the round ended in it (the
        penalty card could not be drawn)."""
        try:
            return self._sale(active)
        finally:
            self.early = None

    def _sale(self, active: int) -> bool:
        discarder = self.pile_from[-1]
        card = self.pile[-1]
        n = self.n
        cap = self.max_buys
        late: list[bool] = []
        for k in range(1, n):
            s = (active + k) % n
            if s == discarder or (cap is not None and self.buys[s] >= cap):
                continue
            said = self.early[s] if self.early else None
            wanted = said == "may_i" if said is not None else self.buys_card(s, card, late)
            if wanted:
                self.pile.pop()
                self.pile_from.pop()
                self.hands[s].append(card)
                self.buys[s] += 1
                for _ in range(self.penalty_cards):
                    extra = self.draw(s)
                    if extra is None:
                        return True
                    self.hands[s].append(extra)
                return False
        return False

    def _lay_offs(self, seat: int) -> bool:
        """Lay off what fits, the dearest first; in a round without a final discard keep one
        card that fits (the key) unless every card can go. ``True`` when the hand emptied."""
        hand = self.hands[seat]
        penalty = self.c.penalty
        while hand:
            fitting = [(penalty[x], i) for i, x in enumerate(hand) if self.fits(x)]
            if not fitting:
                return False
            if self.last_card and len(fitting) < len(hand) and len(fitting) == 1:
                return False  # keep the key: the turn ends with a discard (or a pass)
            _, i = max(fitting)
            card = hand.pop(i)
            self.lay_off(card, self.fits(card))
        return True

    def _discard_index(self, seat: int, key: tuple[int, ...] | None = None) -> int:
        """The card the seat discards (``key``: its hand sorted, if known)."""
        hand = self.hands[seat]
        penalty = self.c.penalty
        if self.down[seat]:
            # Nothing left to build: the dearest card that fits nowhere (a key is kept).
            best_i, best = 0, -1
            for i, x in enumerate(hand):
                p = -1000 if self.fits(x) else penalty[x]
                if p > best:
                    best_i, best = i, p
            return best_i
        values = _values(key, self.need_books, self.need_runs) if key is not None else None
        return self.worst(hand, 2.0 * self.urgency(seat), values)

    def play(self, limit: int = 400) -> list[int]:
        """Play to the round's end; each seat's score for the round (MAYI melds counted).
        ``turns`` then holds the number of turns played (a search's measure of its work)."""
        for _ in range(limit):
            self.turns += 1
            if self.turn():
                break
        penalty = self.c.penalty
        return [
            (0 if s == self.went_out else sum(penalty[x] for x in h)) + self.mayi[s]
            for s, h in enumerate(self.hands)
        ]
