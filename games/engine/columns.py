"""The column search behind the contract solver (see ``contract.py``).

The search scans the numbers 1..m once (m = 13 for bga cards, 14 for Rook cards and for
standard cards, whose column 14 is the ace above the king): at each number it decides which
runs take that number's natural, which runs open or close, and how many books the naturals
left over make. Its state at a number is small, so it is memoised.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product
from operator import itemgetter

from .cards import SUITS
from .melds import BOOK_MIN, MIN_RANK, RUN_MIN
from .scoring import BGA_WILD_PENALTY, bga_rank_penalty

# A planned meld: ("book", [cells], wilds) or ("run", [cells], wilds); cells are indices
# suit * m + number - 1, where m is the card set's highest run position (13 for bga, 14 for
# rook cards, 14 for standard cards, whose column 14 is the ace above the king).
Plan = tuple[str, tuple[int, ...], int]


# What solve_best lays down the most of: the bga penalty of a natural of a number, of a wild.
_rank_penalty = bga_rank_penalty
_PENALTY = [_rank_penalty(r) for r in range(16)]  # by number (1..14; 0 is the wild's)
WILD_PENALTY = BGA_WILD_PENALTY


# -- the column search ------------------------------------------------------------------
# A run in progress: (suit, naturals capped at 2, balance = naturals - gap wilds, span capped
# at 4, room below its first natural, gap = numbers skipped since its last natural, its
# natural numbers). Balance and room below are capped at the wilds left (more never matters).
_Run = tuple[int, int, int, int, int, int, tuple[int, ...]]
# A move at one number: (runs, unopened, books left, wilds left, +lo, +hi, naturals laid,
# closed-meld records).
_Move = tuple[tuple[_Run, ...], int, int, int, int, int, int, list[tuple]]
_NOWHERE = 99
_DEAD = -2  # solve_best: a state with no plan ahead
_LETTERS = range(len(SUITS))
_GAIN = itemgetter(0)


class _Columns:
    """Scan the numbers 1..13 once, deciding at each number which runs take its natural of
    their letter, which runs open or close there, and how many books its leftover naturals make.

    A book is all of one number, so in exact mode the naturals of a number that no run takes
    all go to books of that number, and how they split into books is settled by counting. A run
    is an interval of one letter: it opens on a natural, then at each number takes the natural
    of its letter or skips it (a gap, filled by a wild once it takes a later natural), and
    closes right after a natural. Wilds at a run's ends and in books are not placed during the
    scan: each closed meld records the range of extra wilds it can hold (``lo..hi``) and the
    state keeps the two totals, so the wild count is settled once, at the end.

    The state at a number is small (open runs, melds still to make, wilds left, the two range
    totals) and is memoised, so an infeasible hand is refuted in a bounded number of steps,
    without trying every subset of a letter a run could take.
    """

    def __init__(
        self, counts: Sequence[int], wilds: int, books: int, runs: int, m: int = 13
    ) -> None:
        # m: the numbers scanned, 1..m (13 for bga; 14 with a high ace or for rook cards).
        self.m = m
        top = m + 2
        self.col = col = [
            (0, 0, 0, 0),
            *zip(
                counts[:m], counts[m : 2 * m], counts[2 * m : 3 * m], counts[3 * m :], strict=True
            ),
            (0, 0, 0, 0),
        ]
        # suffix[r]: naturals at numbers >= r; after[r]: the lowest number >= r with a natural.
        self.suffix = suffix = [0] * top
        self.after = after = [top - 1] * top
        self.total = [0] * top  # naturals of number r
        # pairs[r]: books that numbers >= r could make at most (two naturals each).
        self.pairs = pairs = [0] * top
        for r in range(self.m, 0, -1):
            total = col[r][0] + col[r][1] + col[r][2] + col[r][3]
            self.total[r] = total
            suffix[r] = suffix[r + 1] + total
            pairs[r] = pairs[r + 1] + total // 2
            after[r] = r if total else after[r + 1]
        # nxt[s][r] / prv[s][r]: the nearest number >= r / <= r with a natural of letter s.
        # most[s][r]: the most copies of one natural of letter s at a number >= r (once no book
        # is left to make, each copy needs a run of its own).
        self.nxt = []
        self.prv = []
        self.most = []
        for s in _LETTERS:
            row = counts[s * m : s * m + m]
            nxt = [_NOWHERE] * top
            most = [0] * top
            n = _NOWHERE
            k = 0
            for r in range(self.m, 0, -1):
                here = row[r - 1]
                if here:
                    n = r
                    if here > k:
                        k = here
                nxt[r] = n
                most[r] = k
            prv = [-_NOWHERE] * top
            n = -_NOWHERE
            for r in range(1, self.m + 1):
                if row[r - 1]:
                    n = r
                prv[r] = n
            self.nxt.append(nxt)
            self.prv.append(prv)
            self.most.append(most)
        self.wilds = wilds
        self.books = books
        self.runs = runs
        self.memo: set[tuple] = set()  # states that failed (exact mode)

    def placeable(self) -> bool:
        """A quick necessary test for exact mode: can every natural find a meld at all?

        A natural with no other natural of its number can only be in a run, which needs
        another natural of its letter within reach of the wilds; a natural with more copies
        than there are runs sends copies to a book; and each number that needs a book uses one.
        """
        reach = self.wilds + 1
        runs = self.runs
        book_numbers = 0
        for r in range(1, self.m + 1):
            column = self.col[r]
            total = column[0] + column[1] + column[2] + column[3]
            if not total:
                continue
            for s in _LETTERS:
                n = column[s]
                if n and (
                    n > runs or (self.nxt[s][r + 1] - r > reach and r - self.prv[s][r - 1] > reach)
                ):
                    if total < 2:
                        return False
                    book_numbers += 1
                    break
        return book_numbers <= self.books

    # -- moves at one number --------------------------------------------------------------
    def moves(
        self, r: int, runs: tuple[_Run, ...], unopened: int, books_left: int, gw: int, exact: bool
    ) -> Iterator[_Move]:
        """Every way to settle number ``r`` (in exact mode, using all of its naturals)."""
        c = self.col[r]
        nxt = self.nxt
        # Each open run's options, built once: (new run or closed record, gap wilds, letter
        # taken or -1).
        options = []
        for suit, nat, bal, span, below, gap, ranks in runs:
            opts: list[tuple[tuple, int, int]] = []
            if c[suit] and gap <= gw:  # take r
                grown = span + gap + 1
                run = (suit, 2, bal + 1 - gap, grown if grown < 4 else 4, below, 0, (*ranks, r))
                opts.append((run, gap, suit))
            if gap == 0 and nat == 2:  # close after r - 1
                room = below + self.m + 1 - r
                rlo, rhi = RUN_MIN - span, bal if bal < room else room
                if rlo <= rhi:
                    opts.append((("run", suit, ranks, rlo, rhi), 0, -1))
            n = nxt[suit][r + 1]
            if n != _NOWHERE and gap + n - r <= gw:  # skip r, take a later number
                opts.append(((suit, nat, bal, span, below, gap + 1, ranks), 0, -1))
            if not opts:
                return
            options.append(opts)
        total = self.total[r]
        # In exact mode with no book left, new runs must absorb every natural no run takes.
        absorb_all = exact and not books_left
        for combo in product(*options):
            left = list(c)
            used = taken = dlo = dhi = 0
            kept: list[_Run] = []
            records: list[tuple] = []
            for item, gap, suit in combo:
                if suit >= 0:
                    if not left[suit]:
                        break
                    left[suit] -= 1
                    taken += 1
                    used += gap
                    # An option is a run (_Run) or a record: the suit says which.
                    kept.append(item)
                elif item[0] == "run":
                    dlo += item[3]
                    dhi += item[4]
                    records.append(item)
                else:
                    kept.append(item)  # a run kept open, as above
            else:
                if used > gw:
                    continue
                rest = total - taken
                if absorb_all and rest > unopened:
                    continue
                gw2 = gw - used
                for opened in self._openings(r, left, unopened, gw2, rest if absorb_all else 0):
                    runs2 = kept
                    left2 = left
                    if opened:
                        runs2 = list(kept)
                        left2 = list(left)
                        for s in opened:
                            left2[s] -= 1
                            runs2.append((s, 1, 1, 1, r - 1, 0, (r,)))
                    k = len(opened)
                    books = rest - k
                    laid = total - books
                    un2 = unopened - k
                    runs3 = tuple(runs2)
                    if books == 0 or not exact:
                        yield (runs3, un2, books_left, gw2, dlo, dhi, laid, records)
                    if books >= 2:
                        for j in range(1, min(books_left, books // 2) + 1):
                            blo = BOOK_MIN * j - books if BOOK_MIN * j > books else 0
                            record = ("book", r, tuple(left2), j, blo, books)
                            yield (
                                runs3,
                                un2,
                                books_left - j,
                                gw2,
                                dlo + blo,
                                dhi + books,
                                total,
                                [*records, record],
                            )

    def _openings(
        self, r: int, left: list[int], unopened: int, gw: int, least: int
    ) -> list[tuple[int, ...]]:
        """Multisets of letters (at least ``least`` of them) in which new runs open at r."""
        found: list[tuple[int, ...]] = [()] if least == 0 else []
        if not unopened or r >= self.m:
            return found
        letters = [s for s in _LETTERS if left[s] and self.nxt[s][r + 1] - r - 1 <= gw]
        if not letters:
            return found
        frontier: list[tuple[tuple[int, ...], int]] = [((), 0)]
        while frontier:
            chosen, i = frontier.pop()
            for k in range(i, len(letters)):
                s = letters[k]
                if chosen.count(s) < left[s]:
                    more = (*chosen, s)
                    if len(more) >= least:
                        found.append(more)
                    if len(more) < unopened:
                        frontier.append((more, k))
        return found

    def _close_all(self, runs: tuple[_Run, ...]) -> list[tuple] | None:
        """Close the runs still open after 13, or ``None`` if one of them is no run."""
        records = []
        for suit, nat, bal, span, below, _, ranks in runs:
            rlo, rhi = RUN_MIN - span, min(bal, below)
            if nat < 2 or rlo > rhi:
                return None
            records.append(("run", suit, ranks, rlo, rhi))
        return records

    def usable(self) -> list[int]:
        """The counts per cell of the naturals that some meld could hold at all: a book (when
        the contract has one) needs a second natural of the number, a run (when it has one) a
        natural of the letter within reach of the wilds."""
        reach = self.wilds + 1
        out = [0] * 4 * self.m
        for r in range(MIN_RANK, self.m + 1):
            column = self.col[r]
            bookable = self.books and self.total[r] >= 2
            for s in _LETTERS:
                if column[s] and (
                    bookable
                    or (
                        self.runs
                        and (self.nxt[s][r + 1] - r <= reach or r - self.prv[s][r - 1] <= reach)
                    )
                ):
                    out[s * self.m + r - 1] = column[s]
        return out

    # -- exact: every card used -----------------------------------------------------------
    def exact(self) -> list[Plan] | None:
        found = self._exact(MIN_RANK, (), self.runs, self.books, self.wilds, 0, 0, None)
        if found is None:
            return None
        done, gw = found
        return _plans(done, gw, m=self.m)

    def _exact(
        self,
        r: int,
        runs: tuple[_Run, ...],
        unopened: int,
        books_left: int,
        gw: int,
        lo: int,
        hi: int,
        done: _Done,
    ) -> tuple[_Done, int] | None:
        """Settle numbers r..13 using every card left: the closed melds and the wilds left
        for their rooms, or ``None``. Failed states are memoised."""
        if lo > gw:
            return None
        if hi > gw:
            hi = gw  # more room than wilds left: the surplus can never matter again
        if not runs:
            r = self.after[r]  # nothing happens at a number with no natural and no run
        if r > self.m:
            if unopened or books_left:
                return None
            records = self._close_all(runs)
            if records is None:
                return None
            for record in records:
                lo += record[-2]
                hi += record[-1]
                done = (record, done)
            return (done, gw) if lo <= gw <= hi else None
        # Each meld still to make needs two naturals, each wild a natural beside it, and once
        # no book is left each copy of a natural needs a run of its own.
        need = 2 * (unopened + books_left)
        room = hi + self.suffix[r]
        if runs:
            canonical = []
            letters = [unopened] * 4
            for s, n, b, sp, bl, g, rk in runs:
                if b > gw:
                    b = gw
                if bl > gw:
                    bl = gw
                canonical.append((s, n, b, sp, bl, g, rk))
                need += 2 - n
                if b > 0:
                    room += b
                letters[s] += 1
            canonical.sort()
            runs = tuple(canonical)
            shape = tuple([run[:6] for run in canonical])
        else:
            letters = [unopened] * 4
            shape = ()
        if need > self.suffix[r] or gw > room or books_left > self.pairs[r]:
            return None
        if not books_left:
            most = self.most
            for s in _LETTERS:
                if most[s][r] > letters[s]:
                    return None
        key = (r, shape, unopened, books_left, gw, lo, hi)
        if key in self.memo:
            return None
        for runs2, un2, books2, gw2, dlo, dhi, _, records in self.moves(
            r, runs, unopened, books_left, gw, True
        ):
            done2 = done
            for record in records:
                done2 = (record, done2)
            found = self._exact(r + 1, runs2, un2, books2, gw2, lo + dlo, hi + dhi, done2)
            if found is not None:
                return found
        self.memo.add(key)
        return None

    # -- best: any subset, the most penalty laid down -------------------------------------
    def best(self, wild_weight: int = WILD_PENALTY) -> list[Plan] | None:
        """Branch and bound over the same scan: a state is dropped when even laying down every
        card left could not beat the best plan found so far, when it was already reached with
        at least as much laid down (what follows a state does not depend on the path), or when
        it was found to lead to no plan at all.

        ``wild_weight``: what a wild laid down is worth beside the naturals' penalties (a weight
        above every natural's total makes the plan use the most wilds first: rook's swaps)."""
        self.wild_weight = wild_weight
        # Bounds: the penalty of the naturals from number r on that some meld could hold at
        # all, and (once no book is left) only as many per number as there are runs.
        usable = self.usable()
        per_number = [
            sum(usable[s * self.m + r - 1] for s in _LETTERS) for r in range(1, self.m + 1)
        ]
        self.worth = [[0] * (self.m + 2) for _ in range(self.runs + 2)]
        for k, worth in enumerate(self.worth):
            cap = k if k <= self.runs else 4 * self.m
            for r in range(self.m, 0, -1):
                worth[r] = worth[r + 1] + min(per_number[r - 1], cap) * _rank_penalty(r)
        self.incumbent = -1
        self.found: tuple[_Done, int] | None = None
        self.reached: dict[tuple, int] = {}
        self._best(MIN_RANK, (), self.runs, self.books, self.wilds, 0, 0, 0, None)
        if self.found is None:
            return None
        done, gw = self.found
        return _plans(done, None, gw, self.m)

    def _best(
        self,
        r: int,
        runs: tuple[_Run, ...],
        unopened: int,
        books_left: int,
        gw: int,
        lo: int,
        hi: int,
        laid: int,
        done: _Done,
    ) -> bool:
        """Search on from number r with ``laid`` penalty laid down so far. ``False``: no plan
        at all lies ahead of this state."""
        if lo > gw:
            return False
        if hi > gw:
            hi = gw
        if not runs:
            r = self.after[r]  # nothing happens at a number with no natural and no run
        bound = self.worth[-1 if books_left else len(runs) + unopened][r]
        if laid + bound + self.wild_weight * gw <= self.incumbent:
            return True  # maybe plans ahead, but none better than one already found
        if r > self.m:
            if unopened or books_left:
                return False
            records = self._close_all(runs)
            if records is None:
                return False
            for record in records:
                lo += record[-2]
                hi += record[-1]
                done = (record, done)
            if lo > gw:
                return False
            value = laid + self.wild_weight * min(hi, gw)
            if value > self.incumbent:
                self.incumbent = value
                self.found = (done, gw)
            return True
        # Runs in a canonical order, wild counts capped at the wilds left (more never
        # matters), so states reached along different paths meet in ``reached``.
        need = 2 * (unopened + books_left)
        if runs:
            runs = tuple(
                sorted(
                    [
                        (s, n, b if b < gw else gw, sp, bl if bl < gw else gw, g, rk)
                        for s, n, b, sp, bl, g, rk in runs
                    ]
                )
            )
            # The fewest wilds the open runs still need: a run with a gap, or with one natural,
            # must take a natural of its letter at r or later and fill the numbers up to it;
            # a run shorter than four fills those numbers, or its missing places. Runs
            # competing for the wilds left settle many states with no plan ahead at once.
            short = lo
            nxt = self.nxt
            for s, n, _, sp, _, g, _ in runs:
                need += 2 - n
                if g or n < 2:
                    short += g + nxt[s][r] - r
                elif sp < 4:
                    ahead = nxt[s][r] - r
                    short += ahead if ahead < 4 - sp else 4 - sp
            if short > gw:
                return False
            shape = tuple([run[:6] for run in runs])
        else:
            shape = ()
        if need > self.suffix[r] or books_left > self.pairs[r]:
            return False
        key = (r, shape, unopened, books_left, gw, lo, hi)
        before = self.reached.get(key)
        if before is not None:
            if before == _DEAD:
                return False
            if before >= laid:
                return True
        self.reached[key] = laid
        worth = _PENALTY[r]
        ww = self.wild_weight
        # The moves laying down the most first (a stable sort: ties keep the moves' order).
        moves = [
            (m[6] * worth + ww * (gw - m[3]), m)
            for m in self.moves(r, runs, unopened, books_left, gw, False)
        ]
        moves.sort(key=_GAIN, reverse=True)
        alive = False
        for gain, (runs2, un2, books2, gw2, dlo, dhi, _, records) in moves:
            done2 = done
            for record in records:
                done2 = (record, done2)
            if self._best(r + 1, runs2, un2, books2, gw2, lo + dlo, hi + dhi, laid + gain, done2):
                alive = True
        if not alive:
            self.reached[key] = _DEAD
        return alive


# A linked list of closed melds, newest first: ("run", suit, ranks, lo, hi) or
# ("book", number, naturals per letter, books, lo, hi); lo..hi is the room for extra wilds.
_Done = tuple | None


def _plans(
    done: _Done, wilds: int | None, spare_wilds: int | None = None, m: int = 13
) -> list[Plan]:
    """Turn closed-meld records into plans, spreading the extra wilds over their rooms.

    ``wilds``: exactly this many extra wilds (exact mode); otherwise as many as fit, at most
    ``spare_wilds``.
    """
    records = []
    while done is not None:
        records.append(done[0])
        done = done[1]
    records.reverse()
    floor = sum(rec[-2] for rec in records)
    room = sum(rec[-1] - rec[-2] for rec in records)
    if wilds is None:
        assert spare_wilds is not None
        wilds = floor + min(room, spare_wilds - floor)
    spare = wilds - floor
    assert 0 <= spare <= room, (records, wilds)
    plans: list[Plan] = []
    for rec in records:
        add = min(spare, rec[-1] - rec[-2])
        spare -= add
        extra = rec[-2] + add
        if rec[0] == "run":
            _, suit, ranks, _, _ = rec
            gaps = ranks[-1] - ranks[0] + 1 - len(ranks)
            cells = tuple(suit * m + rank - 1 for rank in ranks)
            plans.append(("run", cells, gaps + extra))
            continue
        _, rank, per_suit, books, _, _ = rec
        naturals = [s * m + rank - 1 for s in range(len(SUITS)) for _ in range(per_suit[s])]
        size, longer = divmod(len(naturals), books)
        sizes = [size + (1 if i < longer else 0) for i in range(books)]
        wilds_each = [max(0, BOOK_MIN - n) for n in sizes]
        extra -= sum(wilds_each)
        at = 0
        for n, w in zip(sizes, wilds_each, strict=True):
            add = min(extra, n - w)
            extra -= add
            plans.append(("book", tuple(naturals[at : at + n]), w + add))
            at += n
        assert extra == 0, rec
    return sorted(plans, key=lambda p: (p[0] != "book", p[1][0]))
