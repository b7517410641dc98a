"""The websocket of a table: each socket gets its own user's view on connect, after every
committed change, and on request. Thin: the frames and actions come from games.live."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from pydantic import TypeAdapter, ValidationError

from games import broadcast, fanout, live, presence, seen_marks, services
from games.api_messages import validation_message
from games.api_schemas import ActionIn
from games.engine import IllegalMove
from games.ws_guard import GuardedJsonConsumer

_action = TypeAdapter(ActionIn)

# Reads of one socket's own, in the loop's thread pool (the shared ones: games/fanout.py).
_frame = database_sync_to_async(live.table_frame, thread_sensitive=False)
_changed_frame = database_sync_to_async(live.changed_frame, thread_sensitive=False)
_touch = database_sync_to_async(live.touch, thread_sensitive=False)
_socket_user = database_sync_to_async(live.socket_user, thread_sensitive=False)
_user_frame = database_sync_to_async(live.user_frame, thread_sensitive=False)
# Not thread-sensitive either: every socket's move of the process would otherwise wait in the
# one thread that Django's synchronous code shares.
_table_act = database_sync_to_async(live.table_act, thread_sensitive=False)
_looking = sync_to_async(presence.mark_looking, thread_sensitive=False)


class TableConsumer(GuardedJsonConsumer):
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
    # The version last recorded as seen, or handed to games/seen_marks.py to be.
    recorded: int = -1
    # The signed-in user, once the socket's session was read (the "looking" marks: no push
    # about a table its player has on screen, games/presence.py).
    user_id: int | None = None
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
        fanout.join(self.table_id, self)
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
        self.user_group = broadcast.user_group(user.pk)
        self.user_id = user.pk
        await self.channel_layer.group_add(self.user_group, self.channel_name)
        try:
            # Marked looking in the same hop, before the frame goes: a client that has the
            # frame may count on the mark (no push about a table on its screen).
            frame = await _user_frame(
                table_id=self.table_id,
                user=user,
                since=since,
                seen=self.looking,
                looking=self.looking,
            )
        except live.Refused as exc:
            await self.refuse(exc)
            return
        if self.looking:
            self.recorded = frame["version"]  # _user_frame recorded it (seen=True)
        await self.send_frame(frame)

    async def disconnect(self, code: int) -> None:
        if self.user_id is not None and self.looking:
            await _looking(self.user_id, self.table_id, False)
        fanout.leave(self.table_id, self)
        if (
            self.user_id is not None
            and not self.closing
            and self.looked >= 0
            and (self.looked > self.recorded or seen_marks.pending(self.table_id, self.user_id))
        ):
            # "Since you last looked": the version the page showed, written as it closes.
            await seen_marks.closed(self.table_id, self.user_id, self.looked)
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
            batch = await fanout.shared_frames(self.table_id, event["version"])
            had, frame = batch.get(self, (None, None))
            if had != self.version:
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
            await self.act(content.get("action"), content.get("expect_version"), _ref(content))
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
            )
        except live.Refused as exc:
            await self.refuse(exc)
            return
        except services.StaleVersion as exc:
            await self.send_error(exc.code, exc.message, ref)
            await self.push(force=True, since=exc.since)
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


def _ref(content: dict[str, Any]) -> str | None:
    """The client's name for its action (``ref``: up to 64 characters), echoed on the answer."""
    ref = content.get("ref")
    return ref if isinstance(ref, str) and 0 < len(ref) <= 64 else None


def _since(query_string: bytes) -> int | None:
    """``since`` from a socket's query string (anything but a whole number is ignored)."""
    for value in parse_qs(query_string.decode("latin-1")).get("since", [])[:1]:
        if value.isdigit() and len(value) < 12:
            return int(value)
    return None


def _hidden(query_string: bytes) -> bool:
    """``hidden=1``: the page opened its socket from a tab in the background."""
    return parse_qs(query_string.decode("latin-1")).get("hidden", [""])[:1] == ["1"]
