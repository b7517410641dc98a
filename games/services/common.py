"""Shared machinery of the table services: row locks, retries, bots and committing a change."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.utils import timezone

from games import engine
from games.events import table_changed
from games.models import BuyOrder, Move, RoundResult, Seat, Table

from . import clocks, rows, timers
from .errors import Busy, TableNotFound

logger = logging.getLogger("games.services")

P = ParamSpec("P")
R = TypeVar("R")

LOCK_RETRIES = 3


def lock_table_with_seats(table_id: int) -> tuple[Table, list[Seat]]:
    """The table row locked until the end of the caller's transaction, then the table and its
    seats read in one statement (every move, timer and seat change starts here).

    Every change to a table (a move, a seat taken, a timer firing) goes through this lock, so two
    writers of one table run one after the other and each sees the other's result: the version
    check and the seat assignment need no other coordination. On SQLite, where FOR UPDATE does
    not exist, the IMMEDIATE transaction mode gives the same ordering for the whole database.
    """
    return read_table_with_seats(table_id, lock=True)


def read_table_with_seats(table_id: int, *, lock: bool) -> tuple[Table, list[Seat]]:
    """The table and its seats (after locking the table row if ``lock``), or TableNotFound."""
    found = rows.table_with_seats(table_id, lock=lock)
    if found is None:
        raise TableNotFound(f"there is no table {table_id}")
    return found


def table_seats(table: Table) -> list[Seat]:
    # The profile comes along for the clocks (a player on vacation); no extra query.
    return list(
        Seat.objects.filter(table=table).select_related("user__profile").order_by("position")
    )


def _is_contention(exc: OperationalError) -> bool:
    text = str(exc).lower()
    cause = getattr(exc, "__cause__", None)
    sqlstate = getattr(cause, "sqlstate", None)
    # 40001 serialization failure, 40P01 deadlock, 55P03 lock not available.
    return sqlstate in {"40001", "40P01", "55P03"} or "database is locked" in text


def retry_on_contention(func: Callable[P, R]) -> Callable[P, R]:
    """Run a service again when the database reports lock contention, then give up as Busy.

    Lock contention is a reason to wait and retry, never a server error. Inside an outer
    transaction there is nothing to retry (the outer one is already doomed), so it is reported
    as Busy at once.
    """

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(LOCK_RETRIES):
            try:
                return func(*args, **kwargs)
            except OperationalError as exc:
                if not _is_contention(exc):
                    raise
                if connection.in_atomic_block or attempt == LOCK_RETRIES - 1:
                    logger.warning("giving up on contention in %s: %s", func.__name__, exc)
                    raise Busy("the table is busy, try again") from exc
                logger.info("retrying %s after contention: %s", func.__name__, exc)
        raise AssertionError("unreachable")

    return wrapper


@dataclass
class Transition:
    """Moves applied to a locked table in this transaction, not yet written."""

    table: Table
    seats: list[Seat]
    state: dict[str, Any]
    moves: list[Move] = field(default_factory=list)
    results: list[RoundResult] = field(default_factory=list)
    turn_changed: bool = False
    window_opened: bool = False

    def record(
        self, seat: int | None, action: dict[str, Any], events: list[dict], by_bot: bool
    ) -> None:
        table = self.table
        self.moves.append(
            Move(
                table=table,
                seq=table.move_count + len(self.moves) + 1,
                seat=seat,
                by_bot=by_bot,
                action=action,
                events=events,
            )
        )
        by_position = {s.position: s for s in self.seats}
        for event in events:
            kind = event.get("type")
            if kind in TURN_EVENTS:
                self.turn_changed = True
            elif kind in WINDOW_EVENTS:
                self.window_opened = True
            elif kind == "round_ended":
                self.turn_changed = True
                self._round_results(event, by_position)

    def _round_results(self, event: dict, by_position: dict[int, Seat]) -> None:
        went_out = event.get("went_out")
        scores = event.get("scores") or []
        buys = event.get("buys") or [0] * len(scores)
        mayi = event.get("mayi_melds") or [0] * len(scores)
        for position, score in enumerate(scores):
            seat = by_position.get(position)
            self.results.append(
                RoundResult(
                    table=self.table,
                    round_no=event["round"],
                    seat=position,
                    user=seat.user if seat else None,
                    ruleset=self.table.ruleset,
                    score=score,
                    went_out=went_out == position,
                    buys=buys[position],
                    mayi_melds=mayi[position],
                    by_bot=bool(seat and seat.played_by_bot),
                    expelled=bool(seat and seat.expelled),
                )
            )

    def apply(self, seat: int | None, action: dict[str, Any], *, by_bot: bool = False) -> None:
        """Apply one action through the engine (raises IllegalMove, changing nothing)."""
        self.state, events = engine.apply(self.state, seat, action)
        self.record(seat, action, events, by_bot)

    def run_bots(self) -> None:
        """Let bot-played seats act, and standing orders answer "May I?", until only people
        (or nobody) can act.

        Each pass recomputes who may act from the new state. A bot that proposes nothing, or an
        action the engine refuses, stops the loop instead of spinning; the turn clock then
        covers that seat. The cap bounds one transaction even for a table of bots only.
        """
        bots = {s.position for s in self.seats if s.played_by_bot}
        orders = {
            s.position: s for s in self.seats if s.buy_order != BuyOrder.ASK and not s.played_by_bot
        }
        if not bots and not orders:
            return
        for _ in range(settings.MAYI_MAX_BOT_ACTIONS):
            if self.state.get("game_over"):
                return
            acted = False
            if orders:
                acted = self._answer_by_orders(orders)
            for position in [] if acted else engine.seats_to_act(self.state):
                if position not in bots:
                    continue
                action = choose_action(self.state, position)
                if action is None:
                    continue
                try:
                    self.apply(position, action, by_bot=True)
                except engine.IllegalMove as exc:
                    logger.error("bot at table %s seat %s: %s", self.table.pk, position, exc)
                    return
                acted = True
                break
            if not acted:
                return
        logger.warning("table %s: bots hit the per-request cap", self.table.pk)

    def _answer_by_orders(self, orders: dict[int, Seat]) -> bool:
        """Answer for the first seat whose standing order decides a window (or, early [D], the
        card on the pile before the next player draws). True if one answered."""
        from games.engine.legal import answerers

        for position in answerers(self.state):
            seat = orders.get(position)
            if seat is None:
                continue
            answer = standing_answer(self.state, position, seat.buy_order, seat.buy_order_limit)
            try:
                self.apply(position, {"type": answer, "standing_order": True})
            except engine.IllegalMove as exc:
                logger.error("standing order at table %s seat %s: %s", self.table.pk, position, exc)
                return False
            return True
        return False

    def commit(self, *, now: datetime | None = None) -> Table:
        """Write the moves, results and new state; bump the version; set the deadlines and
        charge the clock of a turn that ended.

        The caller holds the table lock (see :func:`lock_table_with_seats`) inside
        ``transaction.atomic``.
        """
        table = self.table
        now = now or timezone.now()
        if self.results:
            RoundResult.objects.bulk_create(self.results)
        table.move_count += len(self.moves)
        table.version += 1
        if self.state.get("game_over"):
            table.status = Table.Status.FINISHED
        else:
            table.status = Table.Status.PLAYING
        # Before table.state is replaced: the clocks compare the old state with the new.
        banks = clocks.set_deadlines(table, self.seats, self, now)
        if self.state.get("game_over"):
            table.window_deadline = table.turn_deadline = table.turn_started = None
            table.remind_at = None
        table.state = self.state
        updates = [(seat, ["clock_bank"]) for seat in banks]
        rows.write([*updates, (table, TABLE_CLOCK_FIELDS)], inserts=self.moves)
        on_commit_changed(table)
        return table


TABLE_CLOCK_FIELDS = [
    "state",
    "version",
    "move_count",
    "status",
    "window_deadline",
    "turn_deadline",
    "turn_started",
    "turn_seq",
    "timers_queued",
    "remind_at",
    "remind_stage",
    "updated",
]


def on_commit_changed(table: Table) -> None:
    table_id, version = table.pk, table.version
    deadlines = (table.window_deadline, table.turn_deadline)
    queue = table.timers_queued == version

    def after_commit() -> None:
        try:
            # First: the broadcast stamps the commit time as it starts.
            table_changed(table_id, version)
        finally:
            if queue:
                # Never raises: a timer the broker did not take is queued by the sweep.
                timers.queue_deadlines(table_id, version, *deadlines)

    transaction.on_commit(after_commit)


def choose_action(state: dict[str, Any], seat: int) -> dict[str, Any] | None:
    from games.engine.bots import choose_action as engine_choose

    return engine_choose(state, seat, "heuristic")


def standing_answer(state: dict[str, Any], seat: int, order: str, limit: int | None) -> str:
    """The answer a standing order gives for the card the seat may answer for now.

    "never": no thanks. "completes": "May I?" when the card with cards of the hand makes a book
    of 3 or a run of 4 (:func:`games.engine.orders.completes_meld`) and the seat has bought
    fewer than ``limit`` times this round (no limit: the ruleset's cap); no thanks otherwise.
    """
    from games.engine.orders import completes_meld

    if order != BuyOrder.COMPLETES:
        return "no_thanks"
    if limit is not None and state["buys"][seat] >= limit:
        return "no_thanks"
    window = state.get("window")
    card = window["card"] if window else state["discard"][-1]
    return "may_i" if completes_meld(state["hands"][seat], card) else "no_thanks"


# Event types that start a new turn or open a buy window (names from games.engine).
TURN_EVENTS = frozenset({"turn", "round_started"})
WINDOW_EVENTS = frozenset({"window_opened"})
