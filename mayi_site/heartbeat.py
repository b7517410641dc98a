"""A Celery worker's sign of life, read by ``GET /readyz`` (mayi_site/health.py).

Each worker's main process writes the time into the cache (Redis, shared by every process)
every ``EVERY`` seconds from a thread started when the worker is ready (mayi_site/celery.py);
readiness wants one seen within ``STALE`` seconds.
"""

from __future__ import annotations

import contextlib
import threading
import time

from django.core.cache import cache

KEY = "mayi:worker-heartbeat"
EVERY = 30.0
STALE = 120.0


def beat() -> None:
    cache.set(KEY, time.time(), timeout=int(STALE * 5))


def last_seen() -> float | None:
    value = cache.get(KEY)
    return None if value is None else float(value)


def start(stop: threading.Event | None = None) -> threading.Thread:
    """Beat now and then every EVERY seconds until ``stop`` is set (or the process ends)."""
    stop = stop or threading.Event()

    def run() -> None:
        while True:
            # The cache degrades by itself; nothing may kill the thread.
            with contextlib.suppress(Exception):
                beat()
            if stop.wait(EVERY):
                return

    thread = threading.Thread(target=run, name="mayi-heartbeat", daemon=True)
    thread.start()
    return thread
