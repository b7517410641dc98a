"""Log lines an operator can use: who, which request, which table, once, and no noise.

- Production (``DEBUG=0``, or ``LOG_FORMAT=json``): one JSON object a line (python-json-logger)
  with ``time``, ``level``, ``logger``, ``message``, ``request_id``, ``user_id``, ``table_id``
  (null where there is none). DEBUG (or ``LOG_FORMAT=text``): the same as a readable line.
- The request id is the client's ``X-Request-ID`` when it is a sane one (a proxy's), else made
  here; every answer carries it back in ``X-Request-ID``, and a task queued while answering
  carries it in its message headers, so the worker's lines name it too (mayi_site/celery.py).
- Refusals we expect (403, 404, 405, 413, 429, a request for another host, a body over the
  limit) are one WARNING line each, never a traceback: anyone can send them, and a traceback
  per request would let anyone fill the log (``ContextFilter``).
- Each line is printed once: Django's own console handler on the ``django`` logger is dropped
  (settings.LOGGING); everything propagates to the root's one handler.
"""

from __future__ import annotations

import contextvars
import logging
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from pythonjsonlogger.json import JsonFormatter

from mayi_site import metrics

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
# The request being answered (user and table are read from it lazily, when a line is logged)
# or, in a Celery task, a dict of what the task knows.
current: contextvars.ContextVar[Any] = contextvars.ContextVar("log_current", default=None)

REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
EXPECTED_STATUSES = frozenset({403, 404, 405, 413, 429})
# django.security.<exception>: DisallowedHost, RequestDataTooBig, TooManyFieldsSent...
# SuspiciousOperations any client can cause; each is one line, the exception's text.
SECURITY_PREFIX = "django.security."


def new_request_id() -> str:
    return uuid.uuid4().hex


def accept_request_id(value: str | None) -> str:
    """The client's (a proxy's) id when it is short and plain, else a new one: an id goes into
    every line of the request, so it must not carry a line break or a kilobyte."""
    if value and REQUEST_ID.fullmatch(value):
        return value
    return new_request_id()


def _user_id(obj: Any) -> int | None:
    if isinstance(obj, dict):
        return obj.get("user_id")
    if obj is None:
        return None
    # Only a user already loaded: logging must never run a query (nor recurse into one).
    user = getattr(obj, "auth", None) or obj.__dict__.get("_cached_user")
    if user is not None and getattr(user, "is_authenticated", False):
        return user.pk
    return None


def _table_id(obj: Any) -> int | None:
    if isinstance(obj, dict):
        return obj.get("table_id")
    match = getattr(obj, "resolver_match", None)
    value = match.kwargs.get("table_id") if match is not None else None
    return value if isinstance(value, int) else None


class ContextFilter(logging.Filter):
    """Adds ``request_id``, ``user_id`` and ``table_id``; turns expected refusals into one
    warning line without a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        obj = current.get()
        rid = request_id.get()
        # Django logs a request's 4xx/5xx line after the middleware is done, passing the
        # request along: its id and user are read from it.
        logged = getattr(record, "request", None)
        if rid is None and isinstance(logged, HttpRequest):
            obj, rid = logged, getattr(logged, "request_id", None)
        record.request_id = rid
        record.user_id = _user_id(obj)
        record.table_id = _table_id(obj)
        status = getattr(record, "status_code", None)
        if record.name.startswith(SECURITY_PREFIX) or (
            record.name == "django.request" and status in EXPECTED_STATUSES
        ):
            record.exc_info = None
            record.exc_text = None
            record.stack_info = None
            if record.levelno > logging.WARNING:
                record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class JsonLineFormatter(JsonFormatter):
    """One JSON object a line, fields named for people: time, level, logger, message."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "fmt",
            "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(user_id)s %(table_id)s",
        )
        kwargs.setdefault(
            "rename_fields", {"asctime": "time", "levelname": "level", "name": "logger"}
        )
        kwargs.setdefault("datefmt", "%Y-%m-%dT%H:%M:%S%z")
        # The request object Django passes as ``extra`` is not JSON: leave it out.
        kwargs.setdefault("reserved_attrs", [*_RESERVED, "request", "server_time"])
        super().__init__(*args, **kwargs)


_RESERVED = [
    "args", "created", "exc_info", "exc_text", "filename", "funcName", "levelno", "lineno",
    "module", "msecs", "msg", "pathname", "process", "processName", "relativeCreated",
    "stack_info", "thread", "threadName", "taskName", "color_message",
]  # fmt: skip


class RequestContextMiddleware:
    """First of the middleware: the request id, the log context and the HTTP metrics."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        rid = accept_request_id(request.META.get("HTTP_X_REQUEST_ID"))
        # Django's requests carry per-request attributes (as auth's ``user``); the stubs' class
        # does not declare this one, read by the views and the error pages.
        request.request_id = rid  # type: ignore[attr-defined]
        rid_token = request_id.set(rid)
        current_token = current.set(request)
        start = time.perf_counter()
        try:
            if request.path_info == "/metrics":
                # Before the host check of the middleware below: Prometheus on the host scrapes
                # http://127.0.0.1:8001/metrics, a Host that ALLOWED_HOSTS (rightly) does not
                # list. The view reads no host; it answers loopback or the bearer token alone.
                response = metrics.metrics_view(request)
            else:
                response = self.get_response(request)
        finally:
            request_id.reset(rid_token)
            current.reset(current_token)
        response["X-Request-ID"] = rid
        match = getattr(request, "resolver_match", None)
        # The route's pattern, never the path: labels must stay few (ids are in the path).
        route = (match.route or match.view_name) if match is not None else "unmatched"
        metrics.count_http(
            route or "unmatched", request.method or "", response.status_code,
            time.perf_counter() - start,
        )  # fmt: skip
        return response


def task_context(
    *, rid: str | None, table_id: int | None
) -> tuple[contextvars.Token, contextvars.Token]:
    """Set a Celery task's log context: the id of the request that queued it, its table."""
    return request_id.set(rid), current.set({"table_id": table_id, "user_id": None})


def reset_task_context(tokens: tuple[contextvars.Token, contextvars.Token]) -> None:
    request_id.reset(tokens[0])
    current.reset(tokens[1])
