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
log is then exactly the commit's moves); anything else reads the database as before. A change
is recalled once (a process builds one batch of frames per version, games/consumers.py) and
held for at most ``HOLD_SECONDS`` if no socket here asks: a committed table holds its decoded
state (a hundred or so lists and dicts), and held until the table's next move, seconds later,
every one of them outlived the cyclic collector's young generations, so each collection under
load scanned some 15,000 of them again (about half its work, pauses of 30 to 50 ms at 200
tables: docs/PERFORMANCE.md). Read-only: nothing may change a recalled table, its seats or its
moves.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from games.models import Move, Seat, Table

from .log import LOG_LIMIT

MAX_TABLES = 10_000
HOLD_SECONDS = 2.0


@dataclass(frozen=True)
class Committed:
    """What a change under the lock wrote, as committed: the services that move a table
    (``table_submit_action``, ``Transition.commit``, ``do_seats_changed``) return it, the
    answer of an action and the frames of its version are built from it."""

    table: Table
    seats: list[Seat]
    # The moves after version ``table.version - 1``: this commit's (the last LOG_LIMIT, as
    # log.moves_since reads them).
    moves: tuple[Move, ...]

    def __iter__(self) -> Iterator[Any]:
        """``table, seats = table_submit_action(...)``: the pair it answered before this record."""
        return iter((self.table, self.seats))


# table id -> (when remembered, the change), oldest first: a table remembered again moves to
# the end, so the ones past HOLD_SECONDS are always at the front.
_recent: dict[int, tuple[float, Committed]] = {}
# table id -> the latest version this process committed (plain ints: nothing to collect).
_latest: dict[int, int] = {}
# Request threads remember, the sockets' threads recall.
_lock = threading.Lock()


def remember(table: Table, seats: Sequence[Seat], moves: Sequence[Move] = ()) -> None:
    """Called after the commit of a Transition (every move bumps the version by one) with the
    moves it wrote."""
    change = Committed(table, list(seats), tuple(moves[-LOG_LIMIT:]))
    with _lock:
        now = time.monotonic()
        _drop_held_since(now - HOLD_SECONDS)
        if len(_latest) >= MAX_TABLES and table.pk not in _latest:
            _latest.clear()  # a bound, not a policy: the 409s take the lock meanwhile
        _latest[table.pk] = table.version
        _recent.pop(table.pk, None)
        _recent[table.pk] = (now, change)


def _drop_held_since(cutoff: float) -> None:
    while _recent:
        table_id = next(iter(_recent))
        if _recent[table_id][0] > cutoff:
            return
        del _recent[table_id]


def recall(table_id: int, version: int) -> Committed | None:
    """The change that made ``version`` of the table, if this process committed it last and
    nothing recalled it yet."""
    with _lock:
        held = _recent.get(table_id)
        if held is None or held[1].table.version != version:
            return None
        del _recent[table_id]
        return held[1]


def latest_version(table_id: int) -> int | None:
    """The latest version of the table this process committed, if any: a request at an older
    version is stale whatever the table is at now."""
    return _latest.get(table_id)


def forget() -> None:
    """Tests: start with nothing remembered."""
    with _lock:
        _recent.clear()
        _latest.clear()
