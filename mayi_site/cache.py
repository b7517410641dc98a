"""A Redis cache that degrades instead of failing when Redis is unreachable.

The cache holds nothing the site cannot do without (presence marks, rate-limit counters): Redis
carries messages and timers, never state. So with Redis down a read is a miss, a write is
dropped and a counter reads as zero, with a warning in the log at most every few seconds,
instead of a ``ConnectionError`` that turned the first request of every signed-in user into a
500 (issue 14). The connect and socket timeouts in ``settings.CACHES`` keep each attempt short.

One Redis client (and so one connection pool) per process and location, shared by every
thread and request: Django keeps a cache object per thread and async context, and daphne gives
every request and every socket's read a context of its own, so Django's RedisCache made a new
client for nearly every operation. Each new client opened a new TCP connection to Redis and
read redis-py's package metadata from disk (its ``DriverInfo``): 5% of daphne's CPU under
bench/load.py (py-spy, docs/PERFORMANCE.md). redis-py's pool and clients are thread-safe (a
command takes a connection from the pool for its own time), and the pool reconnects after a
fork.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from mayi_site import metrics

logger = logging.getLogger("mayi_site.cache")

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
WARN_EVERY = 10.0
_last_warning = 0.0

T = TypeVar("T")


def _degraded(operation: str, exc: BaseException) -> None:
    global _last_warning
    metrics.count_unavailable("redis")
    now = time.monotonic()
    if now - _last_warning >= WARN_EVERY:
        _last_warning = now
        logger.warning("cache unreachable (%s): %s; going on without it", operation, exc)


def _soft(default: Callable[..., Any]) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Run the cache operation; on an unreachable Redis, log and return ``default(*args)``."""

    def decorate(method: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(method)
        def wrapper(self: Any, *args: Any, **kwargs: Any) -> T:
            try:
                return method(self, *args, **kwargs)
            except UNREACHABLE as exc:
                _degraded(method.__name__, exc)
                # The fallback answers what the operation would have (T).
                return cast(T, default(*args, **kwargs))

        return wrapper

    return decorate


class SharedRedisCacheClient(RedisCacheClient):
    """Django's client, keeping one ``redis.Redis`` per connection pool instead of making one
    per operation (each made its table of response callbacks afresh: 4% of daphne's CPU)."""

    # Set by RedisCacheClient (not in django-stubs).
    _client: type[Redis]
    _get_connection_pool: Callable[[bool], Any]

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._redis: dict[int, Redis] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Redis:
        pool = self._get_connection_pool(write)
        client = self._redis.get(id(pool))
        if client is None:
            # A race makes two, and one is dropped: harmless (a client holds no connection).
            client = self._redis[id(pool)] = self._client(connection_pool=pool)
        return client


_clients: dict[str, RedisCacheClient] = {}
_clients_lock = threading.Lock()


def shared_client(servers: list[str], options: dict[str, Any]) -> RedisCacheClient:
    """The process's one client of ``servers`` with ``options`` (made on first use)."""
    key = repr((servers, sorted(options.items())))
    client = _clients.get(key)
    if client is None:
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = SharedRedisCacheClient(servers, **options)
    return client


class FailSoftRedisCache(RedisCache):
    """Django's RedisCache; each operation answers as if the key were absent when Redis is down."""

    # Set by RedisCache.__init__ (not in django-stubs).
    _servers: list[str]
    _options: dict[str, Any]

    @property
    def _cache(self) -> RedisCacheClient:
        # Django's is a cached_property of this object, which lives one request or one read.
        return shared_client(self._servers, self._options)

    @_soft(lambda *a, **k: False)
    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        return super().add(key, value, timeout, version)

    @_soft(lambda key, default=None, *a, **k: default)
    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return super().get(key, default, version)

    @_soft(lambda *a, **k: None)
    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        super().set(key, value, timeout, version)

    @_soft(lambda *a, **k: False)
    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return super().touch(key, timeout, version)

    @_soft(lambda *a, **k: False)
    def delete(self, key: Any, version: Any = None) -> bool:
        return super().delete(key, version)

    @_soft(lambda *a, **k: {})
    def get_many(self, keys: Any, version: Any = None) -> dict[str, Any]:
        return super().get_many(keys, version)

    @_soft(lambda *a, **k: False)
    def has_key(self, key: Any, version: Any = None) -> bool:
        return super().has_key(key, version)

    @_soft(lambda key, delta=1, *a, **k: 0)
    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        return super().incr(key, delta, version)

    @_soft(lambda *a, **k: [])
    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list:
        return super().set_many(data, timeout, version)

    @_soft(lambda *a, **k: None)
    def delete_many(self, keys: Any, version: Any = None) -> None:
        super().delete_many(keys, version)

    @_soft(lambda *a, **k: None)
    def clear(self) -> None:
        super().clear()
