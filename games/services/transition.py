"""A change to a locked table: moves applied through the engine, bots and standing orders
answering, then everything written at once and announced after the commit.

Part of the public layer of changes under the lock (locked.py says what that means):
``Transition`` for moves, ``do_seats_changed`` for a seat that changed hands."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import engine, hooks
from games.models import BuyOrder, Move, Seat, Table

from . import clocks, notices, rows
from .bot_levels import bot_level
from .locked import do_announce, do_stop_clocks
from .recent import Committed

logger = logging.getLogger("games.services")


@dataclass
class Transition:
    """Moves applied to a locked table in this transaction, not yet written."""

    table: Table
    seats: list[Seat]
    state: engine.State
    moves: list[Move] = field(default_factory=list)
    turn_changed: bool = False
    # A round ended in these moves: the apps' round hooks run in the commit (stats: records).
    round_ended: bool = False
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
        for event in events:
            kind = event.get("type")
            if kind in engine.TURN_EVENTS:
                self.turn_changed = True
            elif kind in engine.WINDOW_EVENTS:
                self.window_opened = True
            elif kind == engine.ROUND_ENDED:
                self.turn_changed = True
                self.round_ended = True

    def apply(
        self,
        seat: int | None,
        action: dict[str, Any],
        *,
        by_bot: bool = False,
        platform_events: Sequence[dict[str, Any]] = (),
    ) -> None:
        """Apply one action through the engine (raises IllegalMove, changing nothing).

        The move records the action in its concrete form (``engine.concrete_action``): a
        timeout carries the plays its bot made, so replaying the log never asks a bot, and a
        later change to a bot changes no old game. ``platform_events``: the platform's own
        part of the move (a timeout's strike, an expulsion), recorded after the engine's."""
        action = engine.concrete_action(self.state, seat, action)
        self.state, events = engine.apply(self.state, seat, action)
        self.record(seat, action, [*events, *platform_events], by_bot)

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

    def commit(self, *, now: datetime | None = None) -> Committed:
        """Write the moves and new state; bump the version; set the deadlines and
        charge the clock of a turn that ended (or stop the clocks of a game that ended);
        announce the version after the commit. Returns what it wrote.

        Under the lock: the caller holds the table's row lock
        (:func:`games.services.locking.lock_table_with_seats`) inside ``transaction.atomic``.
        """
        table = self.table
        now = now or timezone.now()
        over = engine.is_over(self.state)
        if self.round_ended:
            # The statistics of the round (and of the game) commit with the move (issue 12).
            hooks.round_ended(
                table=table, seats=self.seats, state=self.state, new_moves=self.moves, now=now
            )
        table.move_count += len(self.moves)
        table.version += 1
        for move in self.moves:
            move.version = table.version
        table.status = Table.Status.FINISHED if over else Table.Status.PLAYING
        turn_seq = table.turn_seq
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
            do_stop_clocks(table)
        table.state = self.state
        if over:
            hooks.game_ended(table=table, seats=self.seats, now=now)
        updates = [(seat, ["clock_bank"]) for seat in banks]
        rows.write([*updates, (table, TABLE_CLOCK_FIELDS)], inserts=self.moves)
        committed = Committed(table, self.seats, tuple(self.moves))
        do_announce(table, committed)
        notices.on_commit_notices(
            table.pk,
            notices.notices_of(
                table,
                self.seats,
                self.state,
                turn_started=table.turn_seq != turn_seq,
                window_opened=self.window_opened,
            ),
        )
        return committed


def do_seats_changed(table: Table, seats: list[Seat], *, bots_play: bool = False) -> Committed:
    """Under the lock, once a seat of a game being played changed hands (a bot took it over, a
    person took it or came back) and the seat rows are saved: a new version whose deadlines
    follow who plays each seat now (the clock of a seat a bot took over stops), with the bots'
    moves first when ``bots_play`` (the seat may be the one to act), announced after the
    commit."""
    if table.state is None:
        raise ValueError(f"table {table.pk} has no game being played")
    change = Transition(table=table, seats=seats, state=table.state)
    if bots_play:
        change.run_bots()
    return change.commit()


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
