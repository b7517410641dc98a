"""The game log that travels with views ("deltalog", as boardgame.io's): the moves a client
has not seen, each with its events as that seat may see them (games.engine.public).

A log entry is one Move row: ``{"seq", "version", "seat", "by_bot", "at", "action",
"events"}``. ``version`` is the table version the move committed in (a commit of bots and
standing orders carries several moves), so "the moves after version V" is exact. Reads are
one statement over the (table, seq) unique index, bounded to the last LOG_LIMIT moves; the
answer to an action uses the moves it just wrote, with no read at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from django.db import connection

from games.engine import event_cards, face_data, public_events
from games.models import Move, Table

from . import rows

# The most moves one answer or frame carries; older ones are paged (table_log_page).
LOG_LIMIT = 200
PAGE_LIMIT = 200


def log_entries(moves: Iterable[Move], seat: int | None) -> list[dict[str, Any]]:
    """Log entries of ``moves`` for ``seat`` (``None``: a spectator): never a hidden card.
    ``faces``: how to draw each card the events name (a past move's cards need not be in
    the current view)."""
    out = []
    for m in moves:
        events = public_events(m.events or [], seat)
        out.append(
            {
                "seq": m.seq,
                "version": m.version,
                "seat": m.seat,
                "by_bot": m.by_bot,
                "at": m.created.isoformat() if m.created else None,
                "action": m.action.get("type") if isinstance(m.action, dict) else None,
                "events": events,
                "faces": {c: face_data(c) for c in event_cards(events)},
            }
        )
    return out


class MovesRange:
    """``SELECT`` of a table's moves with seq in (low, high] and version > since, in seq
    order: a range scan of the (table, seq) index, compiled once per process."""

    def __init__(self) -> None:
        quote = connection.ops.quote_name
        self.columns = rows.Columns(Move, "m")

        def col(name: str) -> str:
            return f"m.{rows.column_of(Move, name)}"

        self.sql = (
            f"SELECT {self.columns.sql} FROM {quote(Move._meta.db_table)} m "
            f"WHERE {col('table')} = %s AND {col('seq')} > %s AND {col('seq')} <= %s "
            f"AND {col('version')} > %s ORDER BY {col('seq')}"
        )

    def fetch(self, table_id: int, low: int, high: int, since: int) -> list[Move]:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [table_id, low, high, since])
            found = cursor.fetchall()
        # Every row has its primary key (a move read by it), so load gives a Move, never None.
        return [cast(Move, self.columns.load(row, 0)) for row in found]


_ranges: dict[str, MovesRange] = {}


def _range(table_id: int, low: int, high: int, since: int) -> list[Move]:
    # Per database vendor, as rows.py does: one test process may use SQLite, then PostgreSQL.
    statement = _ranges.get(connection.vendor)
    if statement is None:
        statement = _ranges[connection.vendor] = MovesRange()
    return statement.fetch(table_id, low, high, since)


def moves_since(table: Table, since: int | None, *, limit: int | None = None) -> list[Move]:
    """The moves committed after version ``since`` (``None``: from the start), up to the
    table's version as read, at most the last ``limit`` (LOG_LIMIT). No query when there is
    none."""
    if since is not None and since >= table.version:
        return []
    high = table.move_count
    low = max(0, high - (LOG_LIMIT if limit is None else limit))
    if high <= low:
        return []
    return _range(table.pk, low, high, -1 if since is None else since)


def moves_before(table: Table, before: int | None, limit: int) -> list[Move]:
    """Up to ``limit`` moves with seq < ``before`` (``None``: the newest), oldest first."""
    high = table.move_count if before is None else min(before - 1, table.move_count)
    low = max(0, high - limit)
    if high <= low:
        return []
    return _range(table.pk, low, high, -1)


def table_log(
    table: Table,
    seat: int | None,
    *,
    since: int | None = None,
    moves: Sequence[Move] | None = None,
) -> list[dict[str, Any]]:
    """The log for an answer or a frame, for ``seat`` (None: a spectator): ``moves`` when the
    caller has them (the moves of the commit being answered), else the moves after version
    ``since`` (the last LOG_LIMIT when ``since`` is None)."""
    if table.state is None:
        return []
    if moves is None:
        moves = moves_since(table, since)
    return log_entries(moves, seat)


def log_page(table: Table, seat: int | None, *, before: int | None, limit: int) -> dict[str, Any]:
    """``GET /api/tables/<id>/log``: up to ``limit`` moves before seq ``before``, oldest
    first; the caller checked access. ``more``: there are moves before this page."""
    limit = max(1, min(limit, PAGE_LIMIT))
    found = moves_before(table, before, limit) if table.state is not None else []
    return {
        "table": table.pk,
        "version": table.version,
        "log": log_entries(found, seat),
        "more": bool(found) and found[0].seq > 1,
    }
