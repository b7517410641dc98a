"""A change to a locked table: moves applied through the engine, bots and standing orders
answering, then everything written at once and announced after the commit."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import broadcast, engine
from games.models import BuyOrder, Move, RoundResult, Seat, Table
from stats.services import stats_game_finished, stats_round_ended

from . import clocks, enqueue, recent, rows
from .bot_levels import bot_level

logger = logging.getLogger("games.services")


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
            if kind in engine.TURN_EVENTS:
                self.turn_changed = True
            elif kind in engine.WINDOW_EVENTS:
                self.window_opened = True
            elif kind == engine.ROUND_ENDED:
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
        """Apply one action through the engine (raises IllegalMove, changing nothing).

        The move records the action in its concrete form (``engine.concrete_action``): a
        timeout carries the plays its bot made, so replaying the log never asks a bot, and a
        later change to a bot changes no old game."""
        action = engine.concrete_action(self.state, seat, action)
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
        levels = {s.position: bot_level(self.table, s) for s in self.seats if s.played_by_bot}
        orders = {
            s.position: s for s in self.seats if s.buy_order != BuyOrder.ASK and not s.played_by_bot
        }
        if not bots and not orders:
            return
        for _ in range(settings.MAYI_MAX_BOT_ACTIONS):
            if engine.is_over(self.state):
                return
            acted = False
            if orders:
                acted = self._answer_by_orders(orders)
            for position in [] if acted else engine.seats_to_act(self.state):
                if position not in bots:
                    continue
                action = engine.choose_action(self.state, position, levels[position])
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
        for position in engine.answerers(self.state):
            seat = orders.get(position)
            if seat is None:
                continue
            answer = engine.standing_answer(
                self.state, position, seat.buy_order, seat.buy_order_limit
            )
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

        The caller holds the table lock (see :func:`games.services.locking.lock_table_with_seats`)
        inside ``transaction.atomic``.
        """
        table = self.table
        now = now or timezone.now()
        over = engine.is_over(self.state)
        if self.results:
            RoundResult.objects.bulk_create(self.results)
            # The statistics of the round (and of the game) commit with the move (issue 12).
            stats_round_ended(
                table=table, seats=self.seats, state=self.state, new_moves=self.moves, now=now
            )
        table.move_count += len(self.moves)
        table.version += 1
        for move in self.moves:
            move.version = table.version
        table.committed_moves = tuple(self.moves)
        table.status = Table.Status.FINISHED if over else Table.Status.PLAYING
        # Before table.state is replaced: the clocks compare the old state with the new.
        banks = clocks.set_deadlines(
            table,
            self.seats,
            self.state,
            turn_changed=self.turn_changed,
            window_opened=self.window_opened,
            now=now,
        )
        if over:
            table.window_deadline = table.turn_deadline = table.turn_started = None
            table.remind_at = None
        table.state = self.state
        if over:
            stats_game_finished(table=table, seats=self.seats, now=now)
        updates = [(seat, ["clock_bank"]) for seat in banks]
        rows.write([*updates, (table, TABLE_CLOCK_FIELDS)], inserts=self.moves)
        on_commit_changed(table, self.seats)
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


def on_commit_changed(table: Table, seats: list[Seat] | None = None) -> None:
    """After this transaction commits: announce the table's new version to its sockets, then
    queue the timers of its near deadlines (if this change claimed them). ``seats``: a
    Transition's commit, whose table, seats and moves the frames of this version may use as
    they are (recent.py)."""
    table_id, version = table.pk, table.version
    deadlines = (table.window_deadline, table.turn_deadline)
    queue = table.timers_queued == version

    def after_commit() -> None:
        if seats is not None:
            recent.remember(table, seats)
        try:
            # First: the broadcast stamps the commit time as it starts.
            broadcast.table_changed(table_id, version)
        finally:
            if queue:
                # Never raises: a timer the broker did not take is queued by the sweep.
                enqueue.queue_deadlines(table_id, version, *deadlines)

    # robust: the change is committed; a failing broadcast or broker must not turn the answer
    # of a move that went through into an error (the client's retry would be stale_version).
    transaction.on_commit(after_commit, robust=True)
