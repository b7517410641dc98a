"""A Redis cache that degrades instead of failing when Redis is unreachable.

The cache holds nothing the site cannot do without (presence marks, rate-limit counters): Redis
carries messages and timers, never state. So with Redis down a read is a miss, a write is
dropped and a counter reads as zero, with a warning in the log at most every few seconds,
instead of a ``ConnectionError`` that turned the first request of every signed-in user into a
500 (issue 14). The connect and socket timeouts in ``settings.CACHES`` keep each attempt short.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("mayi_site.cache")

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
WARN_EVERY = 10.0
_last_warning = 0.0

T = TypeVar("T")


def _degraded(operation: str, exc: BaseException) -> None:
    global _last_warning
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
                return default(*args, **kwargs)  # type: ignore[no-any-return]

        return wrapper

    return decorate


class FailSoftRedisCache(RedisCache):
    """Django's RedisCache; each operation answers as if the key were absent when Redis is down."""

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
