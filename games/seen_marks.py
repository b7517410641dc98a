""" "Since you last looked" from the sockets in sight: the version each one shows, written for
the whole daphne process at most every ``SEEN_EVERY_SECONDS``, in one statement.

A socket whose tab shows the table records the versions it shows, not only when it closes (a
phone left open on the table had "seen" nothing for the laptop). Each socket once wrote its own
mark every few seconds, after reading its session and its user again: with every seat of a
game in play in sight that was a fifth of daphne's CPU and 9 of the 29 statements of a move
under bench/load.py (docs/PERFORMANCE.md). Now a socket hands its mark to this module, and one
task per process writes the marks of all its sockets in one UPDATE
(``services.seats_mark_seen_by_users``). The user is the socket's own, read from its session as
it opened; every frame it was sent checked that session again.

A socket that closes writes its mark at once (``closed``), so the next page a player opens
already knows what they saw.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async

from games import services

logger = logging.getLogger("games.live")

SEEN_EVERY_SECONDS = 3.0

# {(table id, user id): the latest version a socket of that user showed}, not yet written.
_pending: dict[tuple[int, int], int] = {}
# The marks being written now.
_writing: dict[tuple[int, int], int] = {}
_task: asyncio.Task | None = None
_write = database_sync_to_async(services.seats_mark_seen_by_users, thread_sensitive=False)


def _this_loop() -> asyncio.AbstractEventLoop:
    """The running loop; marks left by another one (a test's, closed) are dropped, never
    written into a later test's tables."""
    global _task
    loop = asyncio.get_running_loop()
    if _task is not None and _task.get_loop() is not loop:
        _task = None
        _pending.clear()
        _writing.clear()
    return loop


def mark(table_id: int, user_id: int, version: int) -> None:
    """A socket of ``user_id`` showed ``version`` of the table in sight: written within
    ``SEEN_EVERY_SECONDS``. Called on the event loop."""
    global _task
    loop = _this_loop()
    key = (table_id, user_id)
    if _pending.get(key, -1) >= version:
        return
    _pending[key] = version
    if _task is None or _task.done():
        _task = loop.create_task(_write_later())


async def _write_later() -> None:
    while _pending:
        await asyncio.sleep(SEEN_EVERY_SECONDS)
        await _write_pending()


async def _write_pending() -> None:
    marks = dict(_pending)
    _pending.clear()
    _writing.update(marks)
    try:
        await _write(marks)
    except Exception:
        # Best effort, as ever: a mark that could not be written costs only a longer
        # "since you last looked".
        logger.exception("could not record the versions seen on %s seats", len(marks))
    finally:
        _writing.clear()


async def closed(table_id: int, user_id: int, version: int) -> None:
    """A socket that showed ``version`` in sight closed: its mark (and any pending one of the
    same seat) written now."""
    _this_loop()
    key = (table_id, user_id)
    version = max(version, _pending.pop(key, -1), _writing.get(key, -1))
    try:
        await _write({key: version})
    except Exception:
        logger.exception("could not record the version seen on table %s", table_id)


def pending(table_id: int, user_id: int) -> bool:
    """Whether a mark of the seat waits to be written (a socket closing writes it now)."""
    _this_loop()
    key = (table_id, user_id)
    return key in _pending or key in _writing
