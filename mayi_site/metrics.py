"""Prometheus metrics of this process, and ``GET /metrics`` to read them.

Every process exposes its own: each daphne process at ``/metrics`` (served only to loopback, or
to ``Authorization: Bearer $MAYI_METRICS_TOKEN``); a Celery worker, whose prefork children each
count for themselves, on ``MAYI_WORKER_METRICS_PORT`` with prometheus-client's multiprocess mode
(``PROMETHEUS_MULTIPROC_DIR``: mayi_site/celery.py). Prometheus scrapes each process and sums
(docs/OPERATIONS.md, "Metrics"; deploy/grafana-dashboard.json).

The helpers below are what the rest of the code calls (``count_email``, ``count_push``...), so
call sites stay one line and never touch prometheus-client's API. They are cheap: a labelled
counter's ``inc`` is a dict lookup and a lock (bench/action_cpu.py before/after in the note).
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from functools import wraps
from typing import Any, TypeVar, cast

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.views.decorators.cache import never_cache
from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

F = TypeVar("F", bound=Callable[..., Any])

# Seconds: from a fast read to a request that waited on a locked table.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# A timer should fire within a second of its deadline; the sweep catches lost ones in a few.
LATENESS_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0)

http_requests = Counter(
    "mayi_http_requests",
    "HTTP requests answered, by route and status",
    ["route", "method", "status"],
)
http_seconds = Histogram(
    "mayi_http_request_seconds",
    "Time to answer an HTTP request",
    ["route"],
    buckets=LATENCY_BUCKETS,
)
actions = Counter(
    "mayi_actions",
    "Game actions submitted, by type and outcome (ok or the error code)",
    ["type", "outcome"],
)
action_seconds = Histogram(
    "mayi_action_seconds",
    "Time to apply a game action (service, under the table lock)",
    ["type"],
    buckets=LATENCY_BUCKETS,
)
websockets_open = Gauge(
    "mayi_websockets_open", "Table websockets open in this process", multiprocess_mode="livesum"
)
frames_sent = Counter("mayi_ws_frames_sent", "Websocket frames sent")
deadline_lateness = Histogram(
    "mayi_deadline_lateness_seconds",
    "How late a deadline fired (fired - due), by kind (window, turn) and by what fired it",
    ["kind", "via"],
    buckets=LATENESS_BUCKETS,
)
sweeps = Counter("mayi_sweeps", "Beat sweeps run, by kind", ["kind"])
sweep_fired = Counter("mayi_sweep_fired", "Overdue deadlines the sweep fired (a timer was lost)")
emails = Counter("mayi_emails", "Emails, by kind and outcome (sent, failed)", ["kind", "outcome"])
pushes = Counter(
    "mayi_pushes", "Web pushes, by kind and outcome (sent, failed)", ["kind", "outcome"]
)
rate_limited = Counter("mayi_rate_limited", "Requests refused 429 by a rate limit", ["scope"])
unavailable = Counter(
    "mayi_unavailable",
    "Backend errors: database ones answered 503, Redis ones degraded to a miss or a drop",
    ["backend"],
)

ACTION_TYPES = frozenset(
    {
        "draw", "lay_down", "lay_off", "mayi_meld", "discard", "pass", "may_i", "no_thanks",
        "swap_wild", "close_window", "timeout",
    }
)  # fmt: skip


def action_type(action: Any) -> str:
    """The label of an action: its type when it is one of ours (labels must stay few)."""
    kind = action.get("type") if isinstance(action, dict) else None
    return kind if kind in ACTION_TYPES else "other"


@contextmanager
def timed_action(kind: str) -> Iterator[None]:
    """Count one action of ``kind`` and its time; the outcome is ``ok`` or the refusal's code."""
    start = time.perf_counter()
    outcome = "ok"
    try:
        yield
    except BaseException as exc:
        outcome = str(getattr(exc, "code", None) or type(exc).__name__)
        raise
    finally:
        action_seconds.labels(kind).observe(time.perf_counter() - start)
        actions.labels(kind, outcome).inc()


def observe_action(func: F) -> F:
    """Decorate a service that takes ``action=`` to count and time it."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with timed_action(action_type(kwargs.get("action"))):
            return func(*args, **kwargs)

    # functools.wraps keeps the service's name and signature: the same callable to callers.
    return cast(F, wrapper)


def deadline_fired(kind: str, late: timedelta, *, via: str) -> None:
    deadline_lateness.labels(kind, via).observe(max(0.0, late.total_seconds()))


def count_sweep(kind: str, fired: int = 0) -> None:
    sweeps.labels(kind).inc()
    if fired:
        sweep_fired.inc(fired)


def count_email(kind: str, *, ok: bool) -> None:
    emails.labels(kind, "sent" if ok else "failed").inc()


def count_push(kind: str, *, ok: bool) -> None:
    pushes.labels(kind, "sent" if ok else "failed").inc()


def count_rate_limited(scope: str) -> None:
    rate_limited.labels(scope).inc()


def count_unavailable(backend: str) -> None:
    unavailable.labels(backend).inc()


def count_http(route: str, method: str, status: int, seconds: float) -> None:
    http_requests.labels(route, method, str(status)).inc()
    http_seconds.labels(route).observe(seconds)


def exposition() -> bytes:
    """This process's metrics; with ``PROMETHEUS_MULTIPROC_DIR``, those of every process
    writing there (a Celery worker's children)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest(REGISTRY)


def _loopback(request: HttpRequest) -> bool:
    try:
        return ipaddress.ip_address(str(request.META.get("REMOTE_ADDR", ""))).is_loopback
    except ValueError:
        return False


def _token_ok(request: HttpRequest) -> bool:
    token = settings.MAYI_METRICS_TOKEN
    given = str(request.headers.get("Authorization", ""))
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


@never_cache
def metrics_view(request: HttpRequest) -> HttpResponseBase:
    """``GET /metrics``: to loopback (Prometheus on the host) or the bearer token; 404 to others,
    so the address does not even say there is something to guess."""
    if not (_loopback(request) or _token_ok(request)):
        return HttpResponse("Not found.", status=404, content_type="text/plain")
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_PLAIN_0_0_4)
