"""Seats changed by moderation: the bot takes a seat over, or another user does.

Both go through the games' own layer of changes under the lock: the table's row lock, then
``do_seats_changed``, which lets the bots act (the seat may be the one to play now) and commits
a new version, so every socket of the table gets a fresh frame.
"""

from __future__ import annotations

from django.contrib.auth.models import User

from chat.services import chat_notice
from games.models import Seat, Table
from games.services import do_seats_changed, lock_table_with_seats
from stats.services import stats_seat_handed_over

from .errors import ModerationRefused


def seat_to_bot_locked(table_id: int, position: int) -> tuple[Table, Seat]:
    """Under the caller's transaction: lock the table; the bot plays ``position`` to the end
    (the player keeps the seat in the record, like an expelled one, and watches)."""
    table, seats = lock_table_with_seats(table_id)
    if table.status != Table.Status.PLAYING:
        raise ModerationRefused(f"table {table_id} is not being played")
    seat = next((s for s in seats if s.position == position), None)
    if seat is None or seat.played_by_bot:
        raise ModerationRefused(f"seat {position} of table {table_id} is not played by a person")
    seat.expelled = True
    seat.save(update_fields=["expelled"])
    name = seat.user.get_username() if seat.user else f"seat {position + 1}"
    chat_notice(table=table, text=f"A moderator gave {name}'s seat to the bot.")
    do_seats_changed(table, seats, bots_play=True)
    return table, seat


def seat_to_owner_locked(table_id: int, position: int, user: User) -> bool:
    """Under the caller's transaction: ``user`` plays their own seat again after a suspension
    (nothing happens if the game ended or the seat went to someone else meanwhile)."""
    table, seats = lock_table_with_seats(table_id)
    seat = next((s for s in seats if s.position == position), None)
    if (
        table.status != Table.Status.PLAYING
        or seat is None
        or seat.user_id != user.pk
        or seat.is_bot
        or not seat.expelled
    ):
        return False
    seat.expelled, seat.missed_turns = False, 0
    seat.save(update_fields=["expelled", "missed_turns"])
    chat_notice(table=table, text=f"{user.get_username()} is back and plays their seat again.")
    do_seats_changed(table, seats)
    return True


def seat_to_user_locked(
    table_id: int, position: int, user: User
) -> tuple[Table, Seat, User | None]:
    """Under the caller's transaction: ``user`` takes seat ``position`` over (the hand, the
    score, the clock), whoever or whatever played it."""
    table, seats = lock_table_with_seats(table_id)
    if table.status != Table.Status.PLAYING:
        raise ModerationRefused(f"table {table_id} is not being played")
    seat = next((s for s in seats if s.position == position), None)
    if seat is None:
        raise ModerationRefused(f"table {table_id} has no seat {position}")
    if any(s.user_id == user.pk for s in seats):
        raise ModerationRefused(f"{user.get_username()} already sits at table {table_id}")
    if not user.is_active:
        raise ModerationRefused(f"{user.get_username()} cannot sign in")
    before = seat.user
    if before is not None and not seat.is_bot:
        # Replaced by a moderator: not finished in their seat (their reliability).
        stats_seat_handed_over(table=table, user_id=before.pk)
    seat.user, seat.is_bot, seat.expelled, seat.missed_turns = user, False, False, 0
    seat.save(update_fields=["user", "is_bot", "expelled", "missed_turns"])
    chat_notice(
        table=table,
        text=f"A moderator gave {before.get_username() if before else 'the bot'}'s seat "
        f"to {user.get_username()}.",
    )
    do_seats_changed(table, seats)
    return table, seat, before
