"""Reading tables with their seats: the one way every move, timer, socket, page and API answer
gets "a table with its seats".

Every reader gets the same shape: the table with its host cached, its seats in seat order,
each with its user and the user's profile cached (the clocks read a player's vacation from it,
the payload their name), so building a payload or the clocks costs no further query.
"""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from games.models import Seat, Table

from . import rows
from .errors import TableNotFound


def read_table_with_seats(table_id: int, *, lock: bool) -> tuple[Table, list[Seat]]:
    """The table and its seats (after locking the table row if ``lock``), or TableNotFound.

    One statement (two with the lock), hand-compiled once per process (``rows.py``): it is
    the read of every move.
    """
    found = rows.table_with_seats(table_id, lock=lock)
    if found is None:
        raise TableNotFound(f"there is no table {table_id}")
    return found


def with_seats(tables: QuerySet[Table]) -> QuerySet[Table]:
    """``tables`` with, for each, what :func:`read_table_with_seats` gives one table: two
    queries however many tables and players (the tables with their hosts; the seats with
    their users and profiles). Read the seats with :func:`seats_of`."""
    seats = Seat.objects.select_related("user__profile").order_by("position")
    return tables.select_related("host").prefetch_related(Prefetch("seats", queryset=seats))


def seats_of(table: Table) -> list[Seat]:
    """The seats of a table read through :func:`with_seats` (no query)."""
    return list(table.seats.all())
