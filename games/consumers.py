"""The websocket of a table: each socket gets its own user's view on connect, after every
committed change, and on request. Thin: the frames and actions come from games.live."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from pydantic import TypeAdapter, ValidationError

from games import broadcast, fanout, hub, live, presence, seen_marks, services
from games.api_messages import validation_message
from games.api_schemas import ActionIn
from games.engine import IllegalMove
from games.ws_guard import GuardedJsonConsumer, message_ref

logger = logging.getLogger("games.live")

_action = TypeAdapter(ActionIn)

# Reads of one socket's own, in the loop's thread pool (the shared ones: games/fanout.py).
_frame = database_sync_to_async(live.table_frame, thread_sensitive=False)
_changed_frame = database_sync_to_async(live.changed_frame, thread_sensitive=False)
_touch = database_sync_to_async(live.touch, thread_sensitive=False)
_opening_frame = database_sync_to_async(live.opening_frame, thread_sensitive=False)
# Not thread-sensitive either: every socket's move of the process would otherwise wait in the
# one thread that Django's synchronous code shares.
_table_act = database_sync_to_async(live.table_act, thread_sensitive=False)
_looking = sync_to_async(presence.mark_looking, thread_sensitive=False)


class TableConsumer(GuardedJsonConsumer):
    """``/ws/tables/<id>/``. Client messages: ``{"type": "sync", "version": N}``,
    ``{"type": "action", "action": {...}, "expect_version": N}``, ``{"type": "ping"}`` and
    ``{"type": "looking", "visible": bool}`` (the page's tab shown or hidden)."""

    # No channel of its own: the process's hub (games/hub.py) hands the socket the messages of
    # its table, its session and its user. An alias no setting names gives Channels no layer.
    channel_layer_alias = "table-sockets-use-the-hub"

    table_id: int
    version: int
    # "Since you last looked": the version the player had on screen last. A frame sent to a
    # tab in the background (``?hidden=1`` at the opening, or a ``looking`` message since) is
    # not looked at: a laptop closed overnight on the table's tab left every move "seen".
    looked: int
    looking: bool
    # The version last recorded as seen, or handed to games/seen_marks.py to be.
    recorded: int = -1
    # The signed-in user, once the socket's session was read (the "looking" marks: no push
    # about a table its player has on screen, games/presence.py).
    user_id: int | None = None
    sockets_hub: hub.Hub | None = None
    # Set once a refusal closed the socket: messages still queued for it are dropped.
    closing = False
    # Set once the client went away: the hub's messages still queued for it are dropped.
    gone = False
    # ``?client=NAME``: the page's name for this socket. A move the page sends by
    # ``POST /api/tables/<id>/actions`` with the header ``X-Table-Socket: NAME`` is answered
    # with the new view, so this socket is not sent the frame of that version too; the next
    # frame's log starts after it, as after a frame. (A page whose answer was lost asks for a
    # fresh frame by version: ``sync``.) A move sent over the socket names it the same way.
    client: str | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # One message at a time, its client's and the hub's alike, in the order they came.
        self._turn = asyncio.Lock()

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels' own dispatch first runs close_old_connections in the one thread-sensitive
        # thread, for every message to every socket: a thread hop, queued behind the other
        # sockets' hops, per frame. Every database read of this consumer goes through
        # database_sync_to_async, which closes old connections around its own call anyway.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        async with self._turn:
            await handler(message)

    def deliver(self, message: dict[str, Any]) -> None:
        """A message from the hub (a change of the table, a chat message, a sign-out, a ban):
        handled after the messages before it."""
        if not self.gone:
            asyncio.ensure_future(self._delivered(message))

    async def _delivered(self, message: dict[str, Any]) -> None:
        async with self._turn:
            if self.gone:
                return
            handler = getattr(self, get_handler_name(message), None)
            if handler is None:
                logger.warning("a table socket got a message it has no handler for: %r", message)
                return
            try:
                await handler(message)
            except Exception:
                # As Channels does when a handler fails: the socket closes (the client
                # reconnects and re-syncs by version); the error is logged.
                logger.exception("a table socket failed on %s", message.get("type"))
                self.closing = True
                await self.close(code=1011)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.version = -1
        self.looked = -1
        # ``?since=N``: the version the page already has, so the first frame's log holds
        # only the moves after it (without it: the last 200 moves).
        query = self.scope.get("query_string", b"")
        since = _since(query)
        self.looking = not _hidden(query)
        # A socket opened without a name gets one: its moves over the socket answer it too.
        self.client = _client(query) or f"socket-{secrets.token_hex(8)}"
        # Accept before deciding, so that a refusal reaches the client as a 4xxx close code
        # (a close before accept is only an HTTP 403 to the browser). Nothing is sent first.
        await self.accept()
        # Join the table's group before reading the table: a change committed between the read
        # and the join would otherwise be missed; one committed after the read is a newer
        # version. Logging out closes this socket at once (games.broadcast.on_logged_out).
        self.sockets_hub = hub.current()
        if self.sockets_hub is not None:
            await self.sockets_hub.join(self, self.table_id, self._session_key())
        fanout.join(self.table_id, self)
        read_at = time.monotonic()
        try:
            user, frame = await _opening_frame(
                table_id=self.table_id,
                session_key=self._session_key(),
                since=since,
                looking=self.looking,
            )
        except live.Refused as exc:
            await self.refuse(exc)
            return
        self.user_id = user.pk
        # A suspension or a ban closes the user's sockets at once (moderation.live). The hub
        # learns the user from the one read of the session, and says whether one came since.
        if self.sockets_hub is not None:
            closed = self.sockets_hub.user_known(self, user.pk, read_at)
            if closed is not None:
                await self.refuse(live.Refused(live.CLOSE_SIGNED_OUT, closed))
                return
        if self.looking:
            self.recorded = frame["version"]  # opening_frame recorded it as seen
        await self.send_frame(frame)

    async def disconnect(self, code: int) -> None:
        self.gone = True
        if self.sockets_hub is not None:
            self.sockets_hub.leave(self, self.table_id, self._session_key(), self.user_id)
        fanout.leave(self.table_id, self)
        if self.user_id is not None and self.looking:
            await _looking(self.user_id, self.table_id, False)
        if (
            self.user_id is not None
            and not self.closing
            and self.looked >= 0
            and (self.looked > self.recorded or seen_marks.pending(self.table_id, self.user_id))
        ):
            # "Since you last looked": the version the page showed, written as it closes.
            await seen_marks.closed(self.table_id, self.user_id, self.looked)

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
            batch = await fanout.shared_frames(
                self.table_id, event["version"], event.get("answered")
            )
            had, frame = batch.get(self, (None, None))
            if frame is fanout.ANSWERED and had == self.version:
                # The page's own move, whose request answered it with this version's view.
                self._shows(event["version"])
                return
            if had != self.version or frame is fanout.ANSWERED:
                # Opened, or sent a newer frame, since the batch was taken: a frame of its own.
                table, seats = await fanout.shared_read(self.table_id, event["version"])
                moves = await fanout.shared_moves(table, self.version)
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
        frame = await fanout.message_frame(
            "chat", event["id"], event.get("sent", 0), self._session_key()
        )
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
            self._record_soon()

    def _record_soon(self) -> None:
        """Record the version on screen as seen, within seen_marks.SEEN_EVERY_SECONDS (one
        write for a burst of frames and for all the process's sockets; none while nothing new
        was shown)."""
        if self.looked <= self.recorded or self.closing or self.user_id is None:
            return
        self.recorded = self.looked
        seen_marks.mark(self.table_id, self.user_id, self.looked)

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
            await self.act(
                content.get("action"), content.get("expect_version"), message_ref(content)
            )
        elif kind == "looking":
            self.looking = content.get("visible") is True
            if self.looking:
                self.looked = self.version
                self._record_soon()
            if self.user_id is not None:
                await _looking(self.user_id, self.table_id, self.looking)
        elif kind == "ping":
            # The page's keepalive: keeps proxies from closing an idle socket, and the player
            # marked online while the page is open.
            if await _touch(self._session_key()):
                if self.looking and self.user_id is not None:
                    await _looking(self.user_id, self.table_id, True)
                await self.send_json({"type": "pong", "version": self.version})
            else:
                await self.refuse(live.Refused(live.CLOSE_SIGNED_OUT, "signed out"))
        else:
            await self.send_error(
                "bad_request", 'send {"type": "sync"}, "action", "ping" or "looking"'
            )

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

    async def act(self, action: Any, expect_version: Any, ref: str | None = None) -> None:
        """The same service as ``POST /api/tables/<id>/actions``; errors in the API's shape.
        The answer (the fresh frame, or the error) carries the client's ``ref`` when it sent
        one: frames of other seats' moves may arrive between the action and its answer."""
        if not isinstance(action, dict):
            await self.send_error("bad_request", "action must be an object", ref)
            return
        try:
            parsed = _action.validate_python({**action, "expect_version": expect_version})
        except ValidationError as exc:
            # In players' words, as the API's (the page shows the message as it is).
            await self.send_error("bad_request", validation_message(exc.errors()), ref)
            return
        clean = parsed.model_dump(exclude={"expect_version"}, exclude_none=True)
        try:
            frame = await _table_act(
                table_id=self.table_id,
                session_key=self._session_key(),
                action=clean,
                expect_version=parsed.expect_version,
                client=self.client,
            )
        except live.Refused as exc:
            await self.refuse(exc)
            return
        except live.StaleActionFrame as exc:
            # In the API's 409 shape: the error with the fresh table, view and the moves since
            # the version the client had, in one message (the page answers from it).
            fresh = exc.frame
            await self.send_error(exc.stale.code, exc.stale.message, ref, **fresh)
            if fresh["version"] > self.version:
                self._shows(fresh["version"])
            return
        except (services.ServiceError, IllegalMove) as exc:
            _, code, message = services.refusal(exc)
            await self.send_error(code, message, ref)
            return
        if ref is not None:
            frame["ref"] = ref
        await self.send_frame(frame, force=True)

    def _session_key(self) -> str | None:
        session = self.scope.get("session")
        return session.session_key if session is not None else None


def _since(query_string: bytes) -> int | None:
    """``since`` from a socket's query string (anything but a whole number is ignored)."""
    for value in parse_qs(query_string.decode("latin-1")).get("since", [])[:1]:
        if value.isdigit() and len(value) < 12:
            return int(value)
    return None


def _client(query_string: bytes) -> str | None:
    """``client`` from a socket's query string: the page's name for its socket (8 to 64
    letters, digits, ``-`` and ``_``), else None."""
    for value in parse_qs(query_string.decode("latin-1")).get("client", [])[:1]:
        if broadcast.valid_client(value):
            return value
    return None


def _hidden(query_string: bytes) -> bool:
    """``hidden=1``: the page opened its socket from a tab in the background."""
    return parse_qs(query_string.decode("latin-1")).get("hidden", [""])[:1] == ["1"]
