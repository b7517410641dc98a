"""Named durations of one request's work, for its Server-Timing header (MAYI_SERVER_TIMING).

The request's handler opens a collection (``collecting``) in the thread that serves the
request; services time their parts with ``measured("lock")``. Outside a collection (the
setting off, a Celery task, a test calling a service) ``measured`` costs one context-variable
read and records nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_durations: ContextVar[dict[str, float] | None] = ContextVar("server_timing", default=None)


@contextmanager
def collecting() -> Iterator[dict[str, float]]:
    """Collect the durations (ms by name, summed) measured inside this block."""
    found: dict[str, float] = {}
    token = _durations.set(found)
    try:
        yield found
    finally:
        _durations.reset(token)


@contextmanager
def measured(name: str) -> Iterator[None]:
    found = _durations.get()
    if found is None:
        yield
        return
    started = time.perf_counter()
    try:
        yield
    finally:
        found[name] = found.get(name, 0.0) + (time.perf_counter() - started) * 1000
