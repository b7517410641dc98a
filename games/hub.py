"""One channel of the channel layer per process, shared by all of the process's table sockets.

A socket had a channel of its own and joined three groups (its table's, its session's and its
user's): four Redis subscriptions as it opened and four more as it closed, and every change of
its table came to it through a queue of its own. Now each process (each event loop) has one
hub with one channel. The hub joins a table's group when the first socket of that table opens
in the process and leaves it with the last one, and it joins once the group that every process
hears for the messages about one session or one user (a sign-out, a ban:
``broadcast.SOCKETS_GROUP``). It hands each message to the sockets it is about, in the order it
came.

A message to a table's group names its table (``"table": id``), since one channel hears them
all. Each socket handles one message at a time, its own client's and the hub's alike
(``Member.deliver``, games/consumers.py).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from typing import Any, Protocol

from channels.layers import BaseChannelLayer, get_channel_layer

from games import broadcast

logger = logging.getLogger("games.live")

# How long the hub waits before it listens again after the layer failed to deliver.
RETRY_SECONDS = 1.0
# "user.closed" messages are remembered for the sockets opening meanwhile (``user_known``):
# the newest, up to this many, those older than this many seconds forgotten first.
CLOSED_MAX = 10_000
CLOSED_SECONDS = 60.0


class Member(Protocol):
    """What the hub needs of a table socket (games/consumers.py ``TableConsumer``)."""

    def deliver(self, message: dict[str, Any]) -> None: ...


class Hub:
    def __init__(self, layer: BaseChannelLayer) -> None:
        self.layer = layer
        self.tables: dict[int, set[Member]] = {}
        self.sessions: dict[str, set[Member]] = {}
        self.users: dict[int, set[Member]] = {}
        # {table id: the task that joins its group}: the sockets that open while it runs
        # await the same one, so none reads its first frame before the group hears changes.
        self._joined: dict[int, asyncio.Task] = {}
        self._channel: asyncio.Task | None = None
        self._listening: asyncio.Task | None = None
        # {user id: (when, reason)} of the latest "user.closed" messages, for the sockets
        # whose session was read before one came and that were not yet known as the user's.
        self._closed: dict[int, tuple[float, str]] = {}

    async def channel(self) -> str:
        """The hub's channel, made (and in the sockets' group) on first use."""
        started = self._channel
        if started is None or (started.done() and (started.cancelled() or started.exception())):
            # Made again after a failure (a layer that raises while Redis is away).
            started = self._channel = asyncio.ensure_future(self._start())
        return await asyncio.shield(started)

    async def _start(self) -> str:
        name = await self.layer.new_channel(prefix="hub.")
        await self.layer.group_add(broadcast.SOCKETS_GROUP, name)
        self._listening = asyncio.ensure_future(self._listen(name))
        return name

    async def join(self, member: Member, table_id: int, session_key: str | None) -> None:
        """Hand ``member`` the messages of its table and its session from now on; returns once
        the table's group is joined, so a change committed after this is heard."""
        self.tables.setdefault(table_id, set()).add(member)
        if session_key:
            self.sessions.setdefault(session_key, set()).add(member)
        channel = await self.channel()
        joining = self._joined.get(table_id)
        if joining is None or (joining.done() and (joining.cancelled() or joining.exception())):
            joining = self._joined[table_id] = asyncio.ensure_future(
                self.layer.group_add(broadcast.group_name(table_id), channel)
            )
        await asyncio.shield(joining)

    def user_known(self, member: Member, user_id: int, read_at: float) -> str | None:
        """Hand ``member`` the messages about its user (read from its session at ``read_at``,
        ``time.monotonic()``) from now on. Returns the reason of a "user.closed" that came for
        the user since then (it found no socket of theirs to close), else None."""
        self.users.setdefault(user_id, set()).add(member)
        closed = self._closed.get(user_id)
        return closed[1] if closed is not None and closed[0] >= read_at else None

    def _remember_closed(self, message: dict[str, Any]) -> None:
        now = time.monotonic()
        if len(self._closed) >= CLOSED_MAX:
            self._closed = {k: v for k, v in self._closed.items() if now - v[0] < CLOSED_SECONDS}
            if len(self._closed) >= CLOSED_MAX:  # a bound, not a policy: as many at once
                self._closed.clear()
        user_id = message.get("user")
        if isinstance(user_id, int):
            self._closed[user_id] = (now, str(message.get("reason") or "signed out"))

    def leave(
        self, member: Member, table_id: int, session_key: str | None, user_id: int | None
    ) -> None:
        _discard(self.sessions, session_key, member)
        _discard(self.users, user_id, member)
        if _discard(self.tables, table_id, member) and self._channel is not None:
            # The process's last socket of the table: its group is left. A socket of the table
            # that opens meanwhile joins again after this (the layer keeps their order).
            self._joined.pop(table_id, None)
            if self._channel.done() and not self._channel.cancelled():
                channel = self._channel.result()
                asyncio.ensure_future(
                    self.layer.group_discard(broadcast.group_name(table_id), channel)
                )

    async def _listen(self, channel: str) -> None:
        while True:
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                # The layers that fail soft (mayi_site/channel_layer.py) do not raise here; any
                # other must not end the hub: the sockets would hear nothing more.
                logger.exception("the sockets' hub could not receive")
                await asyncio.sleep(RETRY_SECONDS)
                continue
            for member in self._members(message):
                member.deliver(message)

    def _members(self, message: dict[str, Any]) -> list[Member]:
        kind = message.get("type")
        if kind == "session.ended":
            found = self.sessions.get(message.get("session") or "")
        elif kind == "user.closed":
            self._remember_closed(message)
            found = self.users.get(message.get("user") or 0)
        else:
            found = self.tables.get(message.get("table") or 0)
        return list(found) if found else []


def _discard(index: dict[Any, set[Member]], key: Any, member: Member) -> bool:
    """Take ``member`` out of ``index[key]``; True when that left the key without members."""
    members = index.get(key) if key is not None else None
    if members is None:
        return False
    members.discard(member)
    if members:
        return False
    del index[key]
    return True


# One hub per event loop (the tests run one loop after another) and channel layer.
_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def current() -> Hub | None:
    """The running loop's hub, or None when no channel layer is configured."""
    layer = get_channel_layer()
    if layer is None:
        return None
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None or hub.layer is not layer:
        hub = _hubs[loop] = Hub(layer)
    return hub
