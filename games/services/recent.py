"""The last change this process committed to each table, for the frames that follow it.

After a move commits, every socket of its table in the serving process gets a frame built from
a read of the table and of the log's new moves (games/live.py ``changed_frames``). When the
move was committed by this very process (a request or a socket's action), the table, its seats
and the moves it wrote are the rows as committed, already in memory: the POST's answer is
built from them too. So the frames of that version are built from them instead of reading
them back (two queries and their decoding: about a tenth of daphne's CPU per move,
docs/PERFORMANCE.md). A frame is still built by each socket's own process for its own user;
the channel layer still carries only the version.

Only the exact version is recalled, and only for a socket that had the version before it (its
log is then exactly the commit's moves); anything else reads the database as before. One
entry per table (the latest), so the memory is bounded by the tables this process served.
Read-only: nothing may change a recalled table, its seats or its moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.models import Move, Seat, Table

from .log import LOG_LIMIT

MAX_TABLES = 10_000


@dataclass(frozen=True)
class Committed:
    table: Table
    seats: list[Seat]
    # The moves after version ``table.version - 1``: this commit's (the last LOG_LIMIT, as
    # log.moves_since reads them).
    moves: tuple[Move, ...]


_recent: dict[int, Committed] = {}


def remember(table: Table, seats: Sequence[Seat]) -> None:
    """Called after the commit of a Transition (every move bumps the version by one)."""
    if len(_recent) >= MAX_TABLES and table.pk not in _recent:
        _recent.clear()  # a bound, not a policy: the frames read the database meanwhile
    _recent[table.pk] = Committed(table, list(seats), tuple(table.committed_moves[-LOG_LIMIT:]))


def recall(table_id: int, version: int) -> Committed | None:
    """The change that made ``version`` of the table, if this process committed it last."""
    found = _recent.get(table_id)
    return found if found is not None and found.table.version == version else None


def latest_version(table_id: int) -> int | None:
    """The latest version of the table this process committed, if any: a request at an older
    version is stale whatever the table is at now."""
    found = _recent.get(table_id)
    return found.table.version if found is not None else None


def forget() -> None:
    """Tests: start with nothing remembered."""
    _recent.clear()
