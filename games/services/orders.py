"""Standing orders for "May I?" windows, saved per player and table (on the seat).

They answer at once, in the transaction of the move that opened the window (or, as early
answers [D], of the discard that put the card on the pile), the way bots answer: see
``Transition.run_bots`` (transition.py) and the engine's ``standing_answer``.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from games.models import BuyOrder, Seat, Table

from .errors import BadOptions, NotSeated
from .locking import lock_table_with_seats, retry_on_contention
from .transition import Transition

MAX_LIMIT = 10


@retry_on_contention
def seat_set_buy_order(
    *, table_id: int, user: User, order: str, limit: int | None = None
) -> tuple[Table, list[Seat]]:
    """Save ``user``'s standing order at this table; if it already decides an open window (or
    the card on the pile), it answers now."""
    if order not in BuyOrder.values:
        raise BadOptions(f"order must be one of {', '.join(BuyOrder.values)}")
    if limit is not None and (
        isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= MAX_LIMIT
    ):
        raise BadOptions(f"limit must be an integer from 0 to {MAX_LIMIT}, or null")
    with transaction.atomic():
        table, seats = lock_table_with_seats(table_id)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotSeated("you have no seat at this table")
        if seat.expelled:
            raise NotSeated("you were expelled; a bot plays this seat", code="expelled")
        seat.buy_order, seat.buy_order_limit = order, limit
        seat.save(update_fields=["buy_order", "buy_order_limit"])
        if table.status == Table.Status.PLAYING and table.state is not None:
            change = Transition(table=table, seats=seats, state=table.state)
            change.run_bots()
            if change.moves:
                change.commit()
    return table, seats
