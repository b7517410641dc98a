"""The fan-out of one change to every socket of a table in this process: one read, one batch.

After a change commits, every socket of the table in each daphne process hears the group
message. The first one to ask starts the work for all of them and the others await the same
future: one read of a table per announced version, one read of the log's moves, the frames of
all the table's sockets built in one thread hop with one query for their sessions (a hop and a
session query per socket per change were most of daphne's cost per frame:
docs/PERFORMANCE.md), one read of a chat message per push.

The table socket also carries the messages of apps built on games (the table chat): such an
app registers, from its ``AppConfig.ready``, how to read one of its messages once for all the
sockets and how to make one socket's frame of it (:func:`register_message`), so games imports
none of them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from channels.db import database_sync_to_async

from games import live


class Socket(Protocol):
    """What the fan-out needs of a table socket (games/consumers.py ``TableConsumer``)."""

    version: int
    closing: bool
    client: str | None
    user_id: int | None

    def _session_key(self) -> str | None: ...


# Reads run in the loop's thread pool, not in the one thread that serves the sync views: the
# sockets of one change then wait on the database side by side, not one after another.
_read = database_sync_to_async(live.table_read, thread_sensitive=False)
_changed_frames = database_sync_to_async(live.changed_frames, thread_sensitive=False)
_moves = database_sync_to_async(live.moves_since, thread_sensitive=False)

# {(table_id, version): future of the (table, seats) read after that version committed}.
_shared_reads: dict[tuple[int, int], asyncio.Future] = {}
_SHARED_MAX = 4096
# The same for the log's moves: {(table_id, table version read, socket's version): future}.
# A table's sockets had the same version before a change (the last frame), so one read.
_shared_moves: dict[tuple[int, int, int], asyncio.Future] = {}
# The frames of all of a table's sockets after a change: {(table_id, version): future of
# {socket: (the version it had, its frame or Refused)}}.
_shared_frames: dict[tuple[int, int], asyncio.Future] = {}
# This process's open sockets of each table: {table_id: sockets}.
_sockets: dict[int, set[Any]] = {}
# A message of another app pushed to a table's sockets: {(kind, id, push): future of its read}.
_shared_messages: dict[tuple[str, int, int], asyncio.Future] = {}
# How long a shared answer stays for a socket of the same change that comes late. The sockets
# of a process hear a change together, so they await the first one's read before it is done;
# a later one reads afresh. Short on purpose: a batch holds every socket's frame (the views'
# lists and dicts), and held 5 s each batch outlived the cyclic collector's young collections,
# so under load each one scanned thousands of frames' objects (docs/PERFORMANCE.md).
_SHARED_HOLD_SECONDS = 0.25


class _Answered:
    """In a batch, for a socket whose page's own request answered this version."""

    def __repr__(self) -> str:
        return "ANSWERED"


# A page that sends its move by HTTP names its socket (``X-Table-Socket``, games/api.py): the
# request's answer is the new view, so that socket gets no frame of the version too (a quarter
# of a four-seat table's frames). The change's message names the socket (games/broadcast.py).
ANSWERED = _Answered()


@dataclass(frozen=True)
class MessageKind:
    read: Callable[[int], Awaitable[Any]]
    frame: Callable[[Any, str | None], Awaitable[dict[str, Any] | None]]


_messages: dict[str, MessageKind] = {}


def register_message(
    kind: str,
    *,
    read: Callable[[int], Any],
    frame: Callable[[Any, str | None], dict[str, Any] | None],
) -> None:
    """Carry an app's messages of ``kind`` on the table socket: ``read(id)`` reads one (once
    for all the sockets of a push, in a thread), ``frame(read, session_key)`` makes a socket's
    frame of it, or None when that socket's user may not see it."""
    _messages[kind] = MessageKind(
        read=database_sync_to_async(read, thread_sensitive=False),
        frame=database_sync_to_async(frame, thread_sensitive=False),
    )


def join(table_id: int, socket: Socket) -> None:
    _sockets.setdefault(table_id, set()).add(socket)


def leave(table_id: int, socket: Socket) -> None:
    mine = _sockets.get(table_id)
    if mine is not None:
        mine.discard(socket)
        if not mine:
            del _sockets[table_id]


def _shared(cache: dict, key: Any, make: Any) -> asyncio.Future:
    loop = asyncio.get_running_loop()
    future = cache.get(key)
    if future is None or future.get_loop() is not loop:
        if len(cache) >= _SHARED_MAX:
            cache.clear()
        future = loop.create_task(make())
        cache[key] = future
        future.add_done_callback(
            lambda _: loop.call_later(_SHARED_HOLD_SECONDS, cache.pop, key, None)
        )
    return future


def shared_read(table_id: int, version: int) -> asyncio.Future:
    return _shared(_shared_reads, (table_id, version), lambda: _read(table_id))


def shared_frames(
    table_id: int, version: int, answered: dict[str, Any] | None = None
) -> asyncio.Future:
    """The frames of the table's sockets here for ``version``; ``answered``: the socket (its
    client's name and user) whose page's request answered that version, from the message."""
    return _shared(
        _shared_frames, (table_id, version), lambda: _frames_of(table_id, version, answered)
    )


def _was_answered(socket: Socket, answered: dict[str, Any] | None) -> bool:
    return (
        answered is not None
        and socket.client is not None
        and socket.client == answered.get("client")
        and socket.user_id == answered.get("user")
    )


async def _frames_of(
    table_id: int, version: int, answered: dict[str, Any] | None = None
) -> dict[Any, tuple[int, Any]]:
    # The sockets that still need this version, each with the version it has now: its log is
    # the moves after that one. A socket whose page's request answered this version gets none.
    batch: dict[Any, tuple[int, Any]] = {}
    sockets = []
    for s in _sockets.get(table_id, ()):
        if s.closing or s.version >= version:
            continue
        if _was_answered(s, answered):
            batch[s] = (s.version, ANSWERED)
        else:
            sockets.append(s)
    if not sockets:
        return batch
    had = [s.version for s in sockets]
    answers = await _changed_frames(
        table_id, [(s._session_key(), v) for s, v in zip(sockets, had, strict=True)], version
    )
    batch.update({s: (v, a) for s, v, a in zip(sockets, had, answers, strict=True)})
    return batch


def shared_moves(table: Any, since: int) -> asyncio.Future:
    key = (table.pk, table.version, since)
    return _shared(_shared_moves, key, lambda: _moves(table, None if since < 0 else since))


async def message_frame(
    kind: str, message_id: int, sent: int, session_key: str | None
) -> dict[str, Any] | None:
    """The frame of message ``message_id`` of an app's ``kind`` for one socket (its read
    shared by the sockets of the same push), or None."""
    handler = _messages.get(kind)
    if handler is None:
        return None
    read = await _shared(
        _shared_messages, (kind, message_id, sent), lambda: handler.read(message_id)
    )
    return await handler.frame(read, session_key)
