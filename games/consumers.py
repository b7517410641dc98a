"""The websocket of a table: each socket gets its own user's view on connect, after every
committed change, and on request. Thin: the frames and actions come from games.live."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from pydantic import TypeAdapter, ValidationError

from chat import services as chat
from games import broadcast, live, services
from games.api_schemas import ActionIn
from games.engine import IllegalMove
from games.errors import error_body
from games.ws_guard import GuardedJsonMixin
from moderation import live as moderation_live

_action = TypeAdapter(ActionIn)

# Reads run in the loop's thread pool, not in the one thread that serves the sync views: the
# sockets of one change then wait on the database side by side, not one after another.
_read = database_sync_to_async(live.table_read, thread_sensitive=False)
_frame = database_sync_to_async(live.table_frame, thread_sensitive=False)
_changed_frame = database_sync_to_async(live.changed_frame, thread_sensitive=False)
_changed_frames = database_sync_to_async(live.changed_frames, thread_sensitive=False)
_touch = database_sync_to_async(live.touch, thread_sensitive=False)
_chat_read = database_sync_to_async(chat.chat_read, thread_sensitive=False)
_chat_frame = database_sync_to_async(chat.chat_frame_for_session, thread_sensitive=False)
_moves = database_sync_to_async(live.moves_since, thread_sensitive=False)
_closed = database_sync_to_async(live.socket_closed, thread_sensitive=False)
_socket_user = database_sync_to_async(live.socket_user, thread_sensitive=False)
_user_frame = database_sync_to_async(live.user_frame, thread_sensitive=False)

# One read of a table per announced version, shared by all its sockets in this process:
# {(table_id, version): future of the (table, seats) read after that version committed}.
_shared_reads: dict[tuple[int, int], asyncio.Future] = {}
_SHARED_READS_MAX = 4096
# The same for the log's moves: {(table_id, table version read, socket's version): future}.
# A table's sockets had the same version before a change (the last frame), so one read.
_shared_moves: dict[tuple[int, int, int], asyncio.Future] = {}
# The frames of all of a table's sockets in this process after a change, built in one thread
# hop with one query for their sessions: {(table_id, version): future of {socket: (the
# version it had, its frame or Refused)}}. A hop and a session query per socket per change
# were most of daphne's cost per frame (docs/PERFORMANCE.md).
_shared_frames: dict[tuple[int, int], asyncio.Future] = {}
# This process's open sockets of each table: {table_id: sockets}.
_sockets: dict[int, set[TableConsumer]] = {}
# And for a chat message pushed to a table's sockets: {(message id, push): future of its read}.
_shared_chat: dict[tuple[int, int], asyncio.Future] = {}
# How long a shared answer stays for a socket of the same change that comes late. The sockets
# of a process hear a change together, so they await the first one's read before it is done;
# a later one reads afresh. Short on purpose: a batch holds every socket's frame (the views'
# lists and dicts), and held 5 s each batch outlived the cyclic collector's young collections,
# so under load each one scanned thousands of frames' objects (docs/PERFORMANCE.md, "The
# collector's pauses").
_SHARED_HOLD_SECONDS = 0.25


def _shared(cache: dict, key: Any, make: Any) -> asyncio.Future:
    loop = asyncio.get_running_loop()
    future = cache.get(key)
    if future is None or future.get_loop() is not loop:
        if len(cache) >= _SHARED_READS_MAX:
            cache.clear()
        future = loop.create_task(make())
        cache[key] = future
        future.add_done_callback(
            lambda _: loop.call_later(_SHARED_HOLD_SECONDS, cache.pop, key, None)
        )
    return future


def shared_read(table_id: int, version: int) -> asyncio.Future:
    return _shared(_shared_reads, (table_id, version), lambda: _read(table_id))


def shared_frames(table_id: int, version: int) -> asyncio.Future:
    return _shared(_shared_frames, (table_id, version), lambda: _frames_of(table_id, version))


async def _frames_of(table_id: int, version: int) -> dict[TableConsumer, tuple[int, Any]]:
    # The sockets that still need this version, each with the version it has now: its log is
    # the moves after that one.
    sockets = [s for s in _sockets.get(table_id, ()) if not s.closing and s.version < version]
    had = [s.version for s in sockets]
    answers = await _changed_frames(
        table_id, [(s._session_key(), v) for s, v in zip(sockets, had, strict=True)], version
    )
    return {s: (v, a) for s, v, a in zip(sockets, had, answers, strict=True)}


def shared_chat(message_id: int, sent: int) -> asyncio.Future:
    return _shared(_shared_chat, (message_id, sent), lambda: _chat_read(message_id))


def shared_moves(table: Any, since: int) -> asyncio.Future:
    key = (table.pk, table.version, since)
    return _shared(_shared_moves, key, lambda: _moves(table, None if since < 0 else since))


class TableConsumer(GuardedJsonMixin, AsyncJsonWebsocketConsumer):
    """``/ws/tables/<id>/``. Client messages: ``{"type": "sync", "version": N}``,
    ``{"type": "action", "action": {...}, "expect_version": N}``, ``{"type": "ping"}`` and
    ``{"type": "looking", "visible": bool}`` (the page's tab shown or hidden)."""

    table_id: int
    version: int
    # "Since you last looked": the version the player had on screen last. A frame sent to a
    # tab in the background (``?hidden=1`` at the opening, or a ``looking`` message since) is
    # not looked at: a laptop closed overnight on the table's tab left every move "seen".
    looked: int
    looking: bool
    group: str | None = None
    session_group: str | None = None
    user_group: str | None = None
    # Set once a refusal closed the socket: messages still queued for it are dropped.
    closing = False

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels' own dispatch first runs close_old_connections in the one thread-sensitive
        # thread, for every message to every socket: a thread hop, queued behind the other
        # sockets' hops, per frame. Every database read of this consumer goes through
        # database_sync_to_async, which closes old connections around its own call anyway.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.version = -1
        self.looked = -1
        # ``?since=N``: the version the page already has, so the first frame's log holds
        # only the moves after it (without it: the last 200 moves).
        query = self.scope.get("query_string", b"")
        since = _since(query)
        self.looking = not _hidden(query)
        # Accept before deciding, so that a refusal reaches the client as a 4xxx close code
        # (a close before accept is only an HTTP 403 to the browser). Nothing is sent first.
        await self.accept()
        # Join the group before reading the table: a change committed between the read and the
        # join would otherwise be missed; one committed after the read is a newer version.
        self.group = broadcast.group_name(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        _sockets.setdefault(self.table_id, set()).add(self)
        self.session_group = broadcast.session_group(self._session_key())
        if self.session_group is not None:
            # Logging out closes this socket at once (games.broadcast.on_logged_out).
            await self.channel_layer.group_add(self.session_group, self.channel_name)
        # A suspension or a ban closes the user's sockets at once (moderation.live): the group
        # is joined before the first frame is read, from the one read of the session.
        user = await _socket_user(self._session_key())
        if user is None:
            await self.refuse(live.Refused(live.CLOSE_SIGNED_OUT, "sign in to follow a table"))
            return
        self.user_group = moderation_live.user_group(user.pk)
        await self.channel_layer.group_add(self.user_group, self.channel_name)
        try:
            frame = await _user_frame(
                table_id=self.table_id, user=user, since=since, seen=self.looking
            )
        except live.Refused as exc:
            await self.refuse(exc)
            return
        await self.send_frame(frame)

    async def disconnect(self, code: int) -> None:
        mine = _sockets.get(self.table_id)
        if mine is not None:
            mine.discard(self)
            if not mine:
                del _sockets[self.table_id]
        if self.looked >= 0 and not self.closing:
            # "Since you last looked": the version the page showed (not on every frame).
            await _closed(
                table_id=self.table_id, session_key=self._session_key(), version=self.looked
            )
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.session_group is not None:
            await self.channel_layer.group_discard(self.session_group, self.channel_name)
        if self.user_group is not None:
            await self.channel_layer.group_discard(self.user_group, self.channel_name)

    async def session_ended(self, event: dict[str, Any]) -> None:
        await self.refuse(live.Refused(live.CLOSE_SIGNED_OUT, "signed out"))

    async def user_closed(self, event: dict[str, Any]) -> None:
        await self.refuse(live.Refused(live.CLOSE_SIGNED_OUT, event.get("reason") or "signed out"))

    async def table_changed(self, event: dict[str, Any]) -> None:
        # Coalesce: a frame already sent at this version or later makes this one redundant.
        if event["version"] <= self.version or self.closing:
            return
        # The frames of all of the table's sockets in this process are built together, from one
        # read of the table; each socket's session is checked again for every change.
        try:
            batch = await shared_frames(self.table_id, event["version"])
            had, frame = batch.get(self, (None, None))
            if had != self.version:
                # Opened, or sent a newer frame, since the batch was taken: a frame of its own.
                table, seats = await shared_read(self.table_id, event["version"])
                moves = await shared_moves(table, self.version)
                frame = await _changed_frame(table, seats, self._session_key(), moves)
            if isinstance(frame, live.Refused):
                raise frame
        except live.Refused as exc:
            await self.refuse(exc)
            return
        await self.send_frame(
            frame, committed_at=event.get("committed_at"), announced=event["version"]
        )

    async def chat_message(self, event: dict[str, Any]) -> None:
        # Only the id travels; the message goes out only if this socket's user may see it.
        if self.closing:
            return
        read = await shared_chat(event["id"], event.get("sent", 0))
        frame = await _chat_frame(read, self._session_key())
        if frame is not None:
            await self.send_json(frame)

    async def push(
        self, *, force: bool = False, since: int | None = None, seen: bool = False
    ) -> None:
        """Read the table and build this user's frame now (the session is checked again), its
        log from version ``since``."""
        try:
            frame = await _frame(
                table_id=self.table_id, session_key=self._session_key(), since=since, seen=seen
            )
        except live.Refused as exc:
            await self.refuse(exc)
            return
        await self.send_frame(frame, force=force)

    async def send_frame(
        self,
        frame: dict[str, Any],
        *,
        force: bool = False,
        committed_at: float | None = None,
        announced: int | None = None,
    ) -> None:
        if frame["version"] <= self.version and not force:
            return
        self._shows(frame["version"])
        if committed_at is not None and announced == frame["version"]:
            frame["committed_at"] = committed_at
        await self.send_json(frame)

    def _shows(self, version: int) -> None:
        """The page now has ``version``; on screen too unless its tab is in the background."""
        self.version = version
        if self.looking:
            self.looked = version

    async def refuse(self, exc: live.Refused) -> None:
        if self.closing:
            return
        self.closing = True
        await self.send_json({"type": "refused", "error": {"code": exc.code, "message": str(exc)}})
        await self.close(code=exc.code)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if self.closing:
            return
        if kind == "sync":
            await self.sync(content.get("version"))
        elif kind == "action":
            await self.act(content.get("action"), content.get("expect_version"))
        elif kind == "looking":
            self.looking = content.get("visible") is True
            if self.looking:
                self.looked = self.version
        elif kind == "ping":
            # The page's keepalive: keeps proxies from closing an idle socket, and the player
            # marked online while the page is open.
            if await _touch(self._session_key()):
                await self.send_json({"type": "pong", "version": self.version})
            else:
                await self.refuse(live.Refused(live.CLOSE_SIGNED_OUT, "signed out"))
        else:
            await self.error("bad_request", 'send {"type": "sync"}, "action", "ping" or "looking"')

    async def sync(self, version: Any) -> None:
        """A client that suspects it missed a frame: a fresh frame if its version is stale."""
        since = version if isinstance(version, int) and not isinstance(version, bool) else None
        try:
            frame = await _frame(
                table_id=self.table_id, session_key=self._session_key(), since=since
            )
        except live.Refused as exc:
            await self.refuse(exc)
            return
        if frame["version"] == version:
            self._shows(max(self.version, frame["version"]))
            await self.send_json({"type": "current", "version": version})
        else:
            await self.send_frame(frame, force=True)

    async def act(self, action: Any, expect_version: Any) -> None:
        """The same service as ``POST /api/tables/<id>/actions``; errors in the API's shape."""
        if not isinstance(action, dict):
            await self.error("bad_request", "action must be an object")
            return
        try:
            parsed = _action.validate_python({**action, "expect_version": expect_version})
        except ValidationError as exc:
            await self.error("bad_request", _first_error(exc))
            return
        clean = parsed.model_dump(exclude={"expect_version"}, exclude_none=True)
        try:
            frame = await database_sync_to_async(live.table_act)(
                table_id=self.table_id,
                session_key=self._session_key(),
                action=clean,
                expect_version=parsed.expect_version,
            )
        except live.Refused as exc:
            await self.refuse(exc)
            return
        except services.StaleVersion as exc:
            await self.error(exc.code, exc.message)
            await self.push(force=True, since=exc.since)
            return
        except (services.ServiceError, IllegalMove) as exc:
            _, code, message = services.refusal(exc)
            await self.error(code, message)
            return
        await self.send_frame(frame, force=True)

    async def error(self, code: str, message: str) -> None:
        await self.send_json({"type": "error", **error_body(code, message)})

    def _session_key(self) -> str | None:
        session = self.scope.get("session")
        return session.session_key if session is not None else None


def _since(query_string: bytes) -> int | None:
    """``since`` from a socket's query string (anything but a whole number is ignored)."""
    for value in parse_qs(query_string.decode("latin-1")).get("since", [])[:1]:
        if value.isdigit() and len(value) < 12:
            return int(value)
    return None


def _hidden(query_string: bytes) -> bool:
    """``hidden=1``: the page opened its socket from a tab in the background."""
    return parse_qs(query_string.decode("latin-1")).get("hidden", [""])[:1] == ["1"]


def _first_error(exc: ValidationError) -> str:
    item = exc.errors()[0]
    where = ".".join(str(p) for p in item.get("loc", ()))
    return f"{where or 'action'}: {item.get('msg', 'invalid')}"
