"""channels_redis' pub/sub layer, degrading instead of failing when Redis is unreachable.

With Redis down a socket could not even open (``new_channel`` subscribes at once, and its
ConnectionError killed the consumer), and a publish raised. Here a subscription that fails is
kept and retried every second in the background until Redis is back (so the socket gets live
pushes again without reconnecting), and a publish that fails is logged and dropped: frames
carry versions and clients re-sync by them, so a lost "table changed" costs freshness only.
Each Redis operation is bounded by ``OPERATION_TIMEOUT``, so a hung Redis cannot hold a socket.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import redis
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close

logger = logging.getLogger("mayi_site.channel_layer")

OPERATION_TIMEOUT = 2.0
RETRY_SECONDS = 1.0
WARN_EVERY = 10.0


class FailSoftShard(RedisSingleShardConnection):
    def __init__(self, host: Any, channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._pending: set[str] = set()
        self._retry_task: asyncio.Task | None = None
        self._last_warning = 0.0

    def _warn(self, what: str, exc: BaseException) -> None:
        now = time.monotonic()
        if now - self._last_warning >= WARN_EVERY:
            self._last_warning = now
            logger.warning("channel layer unreachable (%s): %r; going on without it", what, exc)

    async def publish(self, channel: str, message: Any) -> None:
        try:
            await asyncio.wait_for(super().publish(channel, message), OPERATION_TIMEOUT)
        except Exception as exc:  # redis' errors, OSError, TimeoutError
            self._warn("publish", exc)

    async def subscribe(self, channel: str) -> None:
        try:
            await asyncio.wait_for(super().subscribe(channel), OPERATION_TIMEOUT)
        except Exception as exc:
            self._warn("subscribe", exc)
            self._pending.add(channel)
            self._reset_connection()
            if self._retry_task is None or self._retry_task.done():
                self._retry_task = asyncio.ensure_future(self._retry_pending())
        else:
            self._pending.discard(channel)

    async def unsubscribe(self, channel: str) -> None:
        self._pending.discard(channel)
        try:
            await asyncio.wait_for(super().unsubscribe(channel), OPERATION_TIMEOUT)
        except Exception as exc:
            self._warn("unsubscribe", exc)

    def _reset_connection(self) -> None:
        """Drop a client whose connection failed, so the next attempt builds a fresh one."""
        task: Any = self._receive_task
        if task is not None:
            task.cancel()
        self._receive_task: Any = None
        self._redis: Any = None
        self._pubsub: Any = None
        self._subscribed_to: set[str] = set()

    async def _retry_pending(self) -> None:
        while self._pending:
            await asyncio.sleep(RETRY_SECONDS)
            for channel in list(self._pending):
                try:
                    await asyncio.wait_for(
                        RedisSingleShardConnection.subscribe(self, channel), OPERATION_TIMEOUT
                    )
                except Exception:
                    self._reset_connection()
                    break
                self._pending.discard(channel)
            else:
                # Everything pending is subscribed: what was subscribed before the failure was
                # dropped with the old connection, so subscribe those again too.
                for group_channel in list(self.channel_layer.groups):
                    if group_channel not in self._subscribed_to:
                        self._pending.add(group_channel)
                for channel in list(self.channel_layer.channels):
                    if channel not in self._subscribed_to:
                        self._pending.add(channel)


class FailSoftLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        shards: list[Any] = self._shards
        self._shards: list[Any] = [FailSoftShard(shard.host, self) for shard in shards]


class FailSoftRedisPubSubChannelLayer(RedisPubSubChannelLayer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._blocking_clients: dict[int, redis.Redis] = {}
        self._blocking_names: RedisPubSubLoopLayer | None = None
        self._last_warning = 0.0

    def group_send_blocking(self, group: str, message: dict[str, Any]) -> None:
        """``group_send`` from a thread that is not an event loop's (a request's after its
        commit, a Celery task's): the same PUBLISH, of the same bytes to the same channel, with
        a blocking Redis client. A failure is logged and dropped, as ``publish`` does.

        games/broadcast.py uses it where no server's event loop runs (a Celery task), which
        otherwise made a new event loop, and so a new Redis connection, for each broadcast
        (async_to_sync). In daphne the request thread hands the send to the loop instead, so
        that a slow Redis never holds an answer. Bounded by short timeouts (below).
        """
        names = self._blocking_names
        if names is None:
            # The loop layer only to name the channel and pick its shard as group_send does.
            names = self._blocking_names = RedisPubSubLoopLayer(
                *self._args, **self._kwargs, channel_layer=self
            )
        channel = names._get_group_channel_name(group)
        shard = names._get_shard(channel)
        try:
            client = self._blocking_clients.get(id(shard))
            if client is None:
                client = self._blocking_clients[id(shard)] = _blocking_client(shard.host)
            client.publish(channel, self.serialize(message))
        except Exception as exc:  # redis' errors, OSError
            now = time.monotonic()
            if now - self._last_warning >= WARN_EVERY:
                self._last_warning = now
                logger.warning("channel layer unreachable (publish): %r; going on without it", exc)

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        try:
            layer = self._layers[loop]
        except KeyError:
            layer = FailSoftLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer


def _blocking_client(host: dict[str, Any]) -> redis.Redis:
    """A blocking client of one of the layer's hosts (``{"address": url}`` or Redis' keyword
    arguments), with short timeouts: a broadcast is never worth holding a request for."""
    options = {"socket_connect_timeout": 0.5, "socket_timeout": 1.0}
    if "address" in host:
        return redis.Redis.from_url(host["address"], **options)
    return redis.Redis(**{**host, **options})
