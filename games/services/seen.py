""" "Since you last looked": the table version each player last saw.

Written on the reads a player makes on purpose (the table page, ``GET /api/tables/<id>``, a
socket opening or closing: the version its tab last showed, games/consumers.py), never on each
pushed frame, and only when the version moved on: one conditional UPDATE, and none at all when
nothing changed.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from django.contrib.auth.models import AnonymousUser, User
from django.db import connection
from django.db.models import Q

from games.models import Seat

from .queries import seat_of
from .rows import column_of

# Rows of one statement (3 parameters each: far under SQLite's 32766).
_MARKS_PER_STATEMENT = 500


def seat_mark_seen(*, seats: Sequence[Seat], user: User | AnonymousUser, version: int) -> bool:
    """Record that ``user`` saw ``version`` of the table of ``seats`` (a read the caller just
    made). True if it was written. Never goes back: a slow request cannot undo a newer one
    (the row's own mark is compared, not the one ``seats`` came with)."""
    mine = seat_of(list(seats), user)
    if mine is None or (mine.last_seen_version is not None and mine.last_seen_version >= version):
        return False
    with connection.cursor() as cursor:
        cursor.execute(_mark_one_sql(connection.vendor), [version, mine.pk, version])
        written = cursor.rowcount > 0
    if written:
        mine.last_seen_version = version
    return written


@functools.cache
def _mark_one_sql(vendor: str) -> str:
    # Every socket opening, table page and GET of a table runs it: the queryset's update was
    # compiled anew each time, a sixth of a socket's opening (py-spy under bench/load.py).
    # ``vendor`` keys the cache: the tests run one process against SQLite, then PostgreSQL.
    seat = connection.ops.quote_name(Seat._meta.db_table)
    seen = column_of(Seat, "last_seen_version")
    return (
        f"UPDATE {seat} SET {seen} = %s WHERE {column_of(Seat)} = %s "
        f"AND ({seen} IS NULL OR {seen} < %s)"
    )


def seat_mark_seen_by_user(*, table_id: int, user: User | int, version: int) -> None:
    """The same from a socket that closed: the user's seat at the table, by ids (one UPDATE).
    ``user``: the user or its id (a socket knows its user's id from its opening)."""
    user_id = user if isinstance(user, int) else user.pk
    Seat.objects.filter(table_id=table_id, user_id=user_id, expelled=False).filter(
        Q(last_seen_version__isnull=True) | Q(last_seen_version__lt=version)
    ).update(last_seen_version=version)


def seats_mark_seen_by_users(marks: Mapping[tuple[int, int], int]) -> None:
    """:func:`seat_mark_seen_by_user` for many seats at once, ``{(table id, user id):
    version}``, in one UPDATE (per 500): the versions a daphne process's sockets in sight
    showed (games/seen_marks.py). A conditional write, as the others: never goes back."""
    items = list(marks.items())
    for start in range(0, len(items), _MARKS_PER_STATEMENT):
        chunk = items[start : start + _MARKS_PER_STATEMENT]
        with connection.cursor() as cursor:
            cursor.execute(
                _mark_many_sql(len(chunk)),
                [value for (table_id, user_id), v in chunk for value in (table_id, user_id, v)],
            )


def _mark_many_sql(count: int) -> str:
    # VALUES' columns are column1, column2... on PostgreSQL and SQLite alike.
    seat = connection.ops.quote_name(Seat._meta.db_table)
    seen = column_of(Seat, "last_seen_version")
    rows = ", ".join(["(%s, %s, %s)"] * count)
    return (
        f"UPDATE {seat} SET {seen} = v.column3 FROM (VALUES {rows}) AS v "
        f"WHERE {seat}.{column_of(Seat, 'table')} = v.column1 "
        f"AND {seat}.{column_of(Seat, 'user')} = v.column2 "
        f"AND NOT {seat}.{column_of(Seat, 'expelled')} "
        f"AND ({seat}.{seen} IS NULL OR {seat}.{seen} < v.column3)"
    )
