"""Hand-compiled SQL for the statements every move runs: read (and lock) a table with its
seats, insert moves, update changed columns.

Django compiles a queryset anew on every execution; for the ``select_related`` read of a table,
its host, seats, their users and profiles that was about a third of a move's CPU time (a
profile of bench/api_moves.py). Here each statement's text is built once per process from the
models' own metadata (so it follows migrations without edits), and the rows become ordinary
model instances through ``Model.from_db`` with the same converters Django applies, so the rest
of the code cannot tell the difference. The tests run every service on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Field, Model

from accounts.models import Profile
from games.models import Seat, Table
from mayi_site.rows import Columns


def field_of(model: type[Model], name: str | None = None) -> Field:
    """A concrete field of ``model`` by name (the primary key when ``name`` is None)."""
    field = model._meta.pk if name is None else model._meta.get_field(name)
    if not isinstance(field, Field) or not field.column:
        raise TypeError(f"{model.__name__}.{name} is not a concrete field")
    return field


def column_of(model: type[Model], name: str | None = None) -> str:
    """The quoted column of a concrete field of ``model`` (the primary key's by default)."""
    return connection.ops.quote_name(cast(str, field_of(model, name).column))


class TableWithSeats:
    """The table and its host, each seat with its user and the user's profile, in seat order, in
    one statement; optionally after locking the table row (and only it) until the transaction
    ends."""

    def __init__(self) -> None:
        User = get_user_model()
        quote = connection.ops.quote_name
        self.table = Columns(Table, "t")
        self.host = Columns(User, "h")
        self.seat = Columns(Seat, "s")
        self.user = Columns(User, "u")
        self.profile = Columns(Profile, "p")
        users = quote(User._meta.db_table)
        user_pk = column_of(User)
        col = column_of

        self.sql = (
            f"SELECT {self.table.sql}, {self.host.sql}, {self.seat.sql}, {self.user.sql}, "
            f"{self.profile.sql} "
            f"FROM {quote(Table._meta.db_table)} t "
            f"LEFT JOIN {users} h ON h.{user_pk} = t.{col(Table, 'host')} "
            f"LEFT JOIN {quote(Seat._meta.db_table)} s "
            f"ON s.{col(Seat, 'table')} = t.{col(Table, 'id')} "
            f"LEFT JOIN {users} u ON u.{user_pk} = s.{col(Seat, 'user')} "
            f"LEFT JOIN {quote(Profile._meta.db_table)} p ON p.{col(Profile, 'user')} = u.{user_pk} "
            f"WHERE t.{col(Table, 'id')} = %s ORDER BY s.{col(Seat, 'position')}"
        )
        # The lock is a statement of its own, before the read: under READ COMMITTED a statement
        # that waits for a row lock sees the locked row's newest version but the joined rows
        # (the seats) as they were when it started, so one joined "FOR UPDATE OF t" read could
        # miss a seat taken, or a clock bank changed, by the writer it waited for. The read
        # after it starts once the lock is held, and sees everything that writer committed.
        # SQLite has no FOR UPDATE: its IMMEDIATE transactions already serialise writers.
        self.lock_sql = (
            f"SELECT 1 FROM {quote(Table._meta.db_table)} WHERE {column_of(Table)} = %s FOR UPDATE"
            if connection.features.has_select_for_update
            else None
        )
        self.host_field = Table._meta.get_field("host")
        self.seat_table_field = Seat._meta.get_field("table")
        self.seat_user_field = Seat._meta.get_field("user")
        self.profile_rel = User._meta.get_field("profile")
        self.profile_user_field = Profile._meta.get_field("user")

    def fetch(self, table_id: int, *, lock: bool) -> tuple[Table, list[Seat]] | None:
        with connection.cursor() as cursor:
            if lock and self.lock_sql:
                cursor.execute(self.lock_sql, [table_id])
                if cursor.fetchone() is None:
                    return None
            cursor.execute(self.sql, [table_id])
            rows = cursor.fetchall()
        if not rows:
            return None
        offset = 0
        table = self.table.load(rows[0], offset)
        assert table is not None  # the table row itself is never the NULL side of a join
        offset += self.table.width
        self.host_field.set_cached_value(table, self.host.load(rows[0], offset))
        offset += self.host.width
        seats = []
        for row in rows:
            seat = self.seat.load(row, offset)
            if seat is None:
                break  # a table without seats: the one row is all outer-join NULLs
            user = self.user.load(row, offset + self.seat.width)
            if user is not None:
                profile = self.profile.load(row, offset + self.seat.width + self.user.width)
                self.profile_rel.set_cached_value(user, profile)
                if profile is not None:
                    self.profile_user_field.set_cached_value(profile, user)
            self.seat_table_field.set_cached_value(seat, table)
            self.seat_user_field.set_cached_value(seat, user)
            seats.append(seat)
        return cast(Table, table), cast(list[Seat], seats)


class Insert:
    """``INSERT`` of new rows of one model (all concrete columns but the automatic key)."""

    def __init__(self, model: type[Model]) -> None:
        quote = connection.ops.quote_name
        self.fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        columns = ", ".join(quote(cast(str, f.column)) for f in self.fields)
        self.head = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES "
        self.row = "(" + ", ".join(["%s"] * len(self.fields)) + ")"

    def statement(self, objs: Sequence[Model]) -> tuple[str, list[Any]]:
        params: list[Any] = []
        for obj in objs:
            for field in self.fields:
                params.append(field.get_db_prep_save(field.pre_save(obj, True), connection))
        return self.head + ", ".join([self.row] * len(objs)), params


class Update:
    """``UPDATE`` of named columns of one row by primary key (``auto_now`` fields refresh)."""

    def __init__(self, model: type[Model], names: Iterable[str]) -> None:
        quote = connection.ops.quote_name
        self.fields = [field_of(model, name) for name in names]
        sets = ", ".join(f"{quote(cast(str, f.column))} = %s" for f in self.fields)
        self.sql = f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {column_of(model)} = %s"

    def statement(self, obj: Model) -> tuple[str, list[Any]]:
        params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in self.fields]
        params.append(obj.pk)
        return self.sql, params


_cache: dict[tuple[str, str], Any] = {}


def _statement(key: str, build: Callable[[], Any]) -> Any:
    # Per database vendor: the test suite may run one process against SQLite, then PostgreSQL.
    cache_key = (connection.vendor, key)
    statement = _cache.get(cache_key)
    if statement is None:
        statement = _cache[cache_key] = build()
    return statement


def table_with_seats(table_id: int, *, lock: bool) -> tuple[Table, list[Seat]] | None:
    """The table (host cached), its seats in order (table, user and profile cached), or None."""
    return _statement("table_with_seats", TableWithSeats).fetch(table_id, lock=lock)


def _execute(sql: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _insert_statement(objs: Sequence[Model]) -> tuple[str, list[Any]]:
    model = type(objs[0])
    return _statement(f"insert:{model._meta.label}", lambda: Insert(model)).statement(objs)


def _update_statement(obj: Model, names: Sequence[str]) -> tuple[str, list[Any]]:
    model = type(obj)
    key = f"update:{model._meta.label}:{','.join(names)}"
    return _statement(key, lambda: Update(model, names)).statement(obj)


def write(updates: Sequence[tuple[Model, Sequence[str]]], inserts: Sequence[Model] = ()) -> None:
    """Insert ``inserts`` (new instances of one model; their primary keys stay unset) and write
    the named columns of each updated instance: in one round trip where the database can
    (PostgreSQL's data-modifying ``WITH``), else one statement after another."""
    statements = [_insert_statement(inserts)] if inserts else []
    statements += [_update_statement(obj, names) for obj, names in updates]
    if connection.vendor == "postgresql" and len(statements) > 1:
        *first, (last_sql, _) = statements
        parts = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(first))
        _execute(f"WITH {parts} {last_sql}", [p for _, params in statements for p in params])
    else:
        for sql, params in statements:
            _execute(sql, params)
