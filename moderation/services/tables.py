"""Table moderation: abort a table, reseat it, read its full state (each audited)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from chat.services import chat_notice
from games.engine import State, initial_state, replay, state_of
from games.models import Move, Seat, Table
from games.services import do_end_game, lock_table_with_seats, read_table_with_seats
from stats.replay import game_frames

from ..audit import audit_write
from ..models import AuditEntry
from ..permissions import require
from .compat import actor_keyword
from .errors import ModerationRefused
from .seats import seat_to_bot_locked, seat_to_user_locked


@actor_keyword
def table_abort(*, actor: User, table_id: int, reason: str) -> Table:
    """End a table now, with no winner: no rating changes and no statistics (they skip
    aborted tables), clocks stopped; the players are told why (the table's meta carries the
    reason, a notice in the chat, a fresh frame on every socket)."""
    require(actor, "abort_tablecase", "abort tables")
    if not reason.strip():
        raise ModerationRefused("say why the table is aborted: the players will read it")
    with transaction.atomic():
        table, seats = lock_table_with_seats(table_id)
        if table.status not in (Table.Status.OPEN, Table.Status.PLAYING):
            raise ModerationRefused(f"table {table_id} is already {table.status}")
        # Aborting a game one is losing would spare one's rating: another moderator decides.
        _refuse_a_player(actor, seats, "decide whether to abort it")
        before = table.status
        aborted = {"by": "moderator", "reason": reason.strip(), "at": timezone.now().isoformat()}
        do_end_game(
            table, status=Table.Status.ABORTED, options={**table.options, "aborted": aborted}
        )
        chat_notice(table=table, text=f"A moderator aborted this table: {reason.strip()}")
        audit_write(
            actor=actor,
            action=AuditEntry.Action.ABORT_TABLE,
            table=table,
            reason=reason,
            status_before=before,
            moves=table.move_count,
        )
    return table


@actor_keyword
def seat_to_bot(*, actor: User, table_id: int, position: int, reason: str) -> Table:
    """The bot plays seat ``position`` (0-based) to the end of the game."""
    require(actor, "reseat_tablecase", "replace players")
    with transaction.atomic():
        table, seat = seat_to_bot_locked(table_id, position)
        # Rolls the change back.
        _refuse_a_player(actor, Seat.objects.filter(table=table), "reseat it")
        audit_write(
            actor=actor,
            action=AuditEntry.Action.SEAT_TO_BOT,
            target_user=seat.user,
            table=table,
            reason=reason,
            seat=position,
        )
    return table


@actor_keyword
def seat_to_user(
    *,
    actor: User,
    table_id: int,
    position: int,
    user: User,
    reason: str,
) -> Table:
    """``user`` takes seat ``position`` (0-based) over, hand and score included."""
    require(actor, "reseat_tablecase", "replace players")
    with transaction.atomic():
        table, seat, before = seat_to_user_locked(table_id, position, user)
        # Rolls the change back.
        _refuse_a_player(actor, Seat.objects.filter(table=table), "reseat it")
        audit_write(
            actor=actor,
            action=AuditEntry.Action.SEAT_TO_USER,
            target_user=user,
            table=table,
            reason=reason,
            seat=position,
            previous=before.get_username() if before else None,
        )
    return table


def _refuse_a_player(moderator: User, seats: Iterable[Seat], what: str) -> None:
    """A moderator seated at the table of ``seats`` may not act on it (an abort sparing their
    rating, an opponent's seat given to the bot or a seat to a friend, a look at the hands
    would serve their own game): another moderator must ``what``."""
    if any(s.user_id == moderator.pk for s in seats):
        raise ModerationRefused(f"you play at this table: another moderator must {what}")


@actor_keyword
def table_inspect(*, actor: User, table_id: int, move: int | None = None) -> dict[str, Any]:
    """The full record of a table for a moderator: every move, and the engine state (all the
    hands, the stock) after move ``move`` (the current one when None), rebuilt by replaying
    the moves from the deal. Reading hands is audited like any other moderator action."""
    require(actor, "inspect_tablecase", "inspect games")
    table, seats = read_table_with_seats(table_id, lock=False)
    if table.status == Table.Status.PLAYING:
        # Until the game ends (its replay is open then).
        _refuse_a_player(actor, seats, "look at its hands while the game is being played")
    moves = list(Move.objects.filter(table=table).order_by("seq"))
    state = table.state
    at = table.move_count
    if state is not None and move is not None and 0 <= move < table.move_count:
        state, at = _replay(table, moves[:move]), move
    with transaction.atomic():
        audit_write(
            actor=actor,
            action=AuditEntry.Action.INSPECT_TABLE,
            table=table,
            move=at,
        )
    return {"table": table, "seats": seats, "moves": moves, "state": state, "at": at}


@actor_keyword
def table_inspect_frames(*, actor: User, table_id: int, stock_shown: int = 8) -> dict[str, Any]:
    """The whole game move by move for a moderator's replay (``stats.replay.game_frames``,
    as the players' replay, with the stock's next ``stock_shown`` cards in each frame), for a
    game being played, finished or aborted. Audited as a look at the hands (one entry for the
    whole game), refused as ``table_inspect`` is."""
    require(actor, "inspect_tablecase", "inspect games")
    table, seats = read_table_with_seats(table_id, lock=False)
    if table.status == Table.Status.PLAYING:
        _refuse_a_player(actor, seats, "look at its hands while the game is being played")
    if table.state is None:
        raise ModerationRefused(f"table {table_id} has not started: there is no game to replay")
    # The moves the table holds now: a move made during the read is the next fetch's.
    frames = game_frames(table, seats, stock_shown=stock_shown, upto=table.move_count)
    with transaction.atomic():
        audit_write(
            actor=actor,
            action=AuditEntry.Action.INSPECT_TABLE,
            table=table,
            move=table.move_count,
        )
    return frames


def _replay(table: Table, moves: list[Move]) -> State:
    """The state after ``moves``, from the deal: the engine is deterministic from the seed."""
    state = initial_state(state_of(table.state))
    for after, _ in replay(state, [(m.seat, m.action) for m in moves]):
        state = after
    return state
