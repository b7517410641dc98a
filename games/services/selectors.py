"""Reading a table with its seats: the one read every move, timer, socket and page starts from."""

from __future__ import annotations

from games.models import Seat, Table

from . import rows
from .errors import TableNotFound


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
