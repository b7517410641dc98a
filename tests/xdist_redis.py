"""Each pytest-xdist worker on a Redis database of its own (``-p tests.xdist_redis``).

Loaded with ``-p`` so that it runs before pytest-django reads the settings: the worker's
REDIS_URL names database N + 1 + its index (gw0 -> N + 1, ...), so its cache, its Celery broker
(and the worker processes it starts, which inherit the variable) and, through the channel
prefix (mayi_site/settings.py), its pub/sub never meet another worker's, as PostgreSQL's test
database per worker (pytest-django's ``_gw<N>`` suffix) keeps their rows apart. Outside xdist,
or without REDIS_URL, it changes nothing.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16  # redis-server's default number of databases


def worker_redis_url(url: str, worker: str) -> str:
    """``url`` moved to the database of xdist worker ``worker`` ("gw0", "gw1", ...)."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    database = base + 1 + int(worker.removeprefix("gw"))
    if database >= REDIS_DATABASES:
        raise RuntimeError(f"xdist worker {worker} would need Redis database {database}")
    return urlunsplit(parts._replace(path=f"/{database}"))


_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], _worker)
