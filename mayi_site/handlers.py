"""An ASGI handler that serves each request in one hop to a worker thread.

Django's ASGIHandler builds an async middleware chain: every sync-style middleware in it
(``MiddlewareMixin``: security, sessions, CSRF, auth, messages, axes...) runs its
``process_request`` and ``process_response`` through ``sync_to_async``, and the
``request_started`` signal, the view and ``response.close()`` cross into a thread once more
each: about 16 thread hops per request here, measured at 3.5 ms of a 5.4 ms trivial request.
All our views and middleware are synchronous, so this handler builds the sync chain and runs
the signal, the middleware, the view and the close in one hop.

Where that hop lands is the second choice. Django runs each request's sync code in a
``ThreadSensitiveContext`` of its own: a new thread for every request, as many at once as there
are requests in flight (thread start-up alone was ~9% of a request in a profile). With
``MAYI_HTTP_THREADS`` > 1 (the default on PostgreSQL) requests run in a fixed pool of that many
threads instead, as under a threaded WSGI server: one request's database waits overlap
another's work, the threads and their pooled connections stay warm, and a burst queues instead
of starting a thread per request. With 1 (the default on SQLite) it keeps Django's way. Async
views still work (Django wraps them with ``async_to_sync``).
"""

from __future__ import annotations

import functools
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, closing, nullcontext
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.urls import set_script_prefix

from games.services import collecting


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        threads = int(getattr(settings, "MAYI_HTTP_THREADS", 1))
        self._executor = (
            ThreadPoolExecutor(threads, thread_name_prefix="http") if threads > 1 else None
        )
        self._timing = bool(getattr(settings, "MAYI_SERVER_TIMING", False))

    def _in_thread(self, func: Any, *args: Any) -> Any:
        if self._executor is None:
            return sync_to_async(functools.partial(func, *args), thread_sensitive=True)()
        return sync_to_async(
            functools.partial(func, *args), thread_sensitive=False, executor=self._executor
        )()

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        if self._executor is None:
            async with ThreadSensitiveContext():
                await self.handle(scope, receive, send)
        else:
            await self.handle(scope, receive, send)

    async def handle(self, scope: dict, receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        with closing(body_file):
            queued = time.perf_counter()
            response = await self._in_thread(self._serve, scope, body_file, queued)
            try:
                await self.send_response(response, send)
            finally:
                if response.streaming:
                    # Streamed content is read while sending: close only afterwards.
                    await self._in_thread(response.close)

    def _serve(self, scope: dict, body_file: Any, queued: float = 0.0) -> HttpResponseBase:
        """Everything Django does for one request, in the worker thread (``queued``: when the
        request was handed to it, for the Server-Timing header)."""
        started = time.perf_counter()
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        # The parts are timed only for the header: with it off, ``measured`` records nothing.
        timed: AbstractContextManager[dict[str, float]] = (
            collecting() if self._timing else nullcontext({})
        )
        with timed as parts:
            request, response = self.create_request(scope, body_file)
            if request is not None:
                response = self.get_response(request)
                # As Django's handle() does; django-stubs does not declare the attribute.
                response._handler_class = self.__class__  # type: ignore[attr-defined]
                if isinstance(response, FileResponse):
                    response.block_size = self.chunk_size
        assert response is not None  # create_request gives a request or an error response
        if self._timing and queued:
            # Waiting for a request thread (and the GIL) before Django began, Django's own
            # time, and the named parts of it (the row lock's wait): where a slow answer's
            # time went, as the client cannot see.
            metrics = [
                f"queue;dur={(started - queued) * 1000:.1f}",
                f"app;dur={(time.perf_counter() - started) * 1000:.1f}",
                *(f"{name};dur={ms:.1f}" for name, ms in parts.items()),
            ]
            response["Server-Timing"] = ", ".join(metrics)
        if not response.streaming:
            # The content is in memory: close now, in this thread, so request_finished returns
            # this thread's database connection to the pool before the next request.
            response.close()
            release(request)
        return response

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await self._in_thread(self.get_response, request)


def release(request: HttpRequest | None) -> None:
    """Drop what a finished request holds, so that reference counting frees it at once.

    The middleware ties each request into reference cycles (the lazy ``request.user`` closes
    over the request, the message storage and ``request.auser`` point back at it), so without
    this every request's objects, a few hundred of them, wait for the cyclic garbage collector,
    whose collections then cost ~4 ms of CPU several times a second per process under load and
    showed up in the p99 of bench/api_moves.py. Called after ``response.close()``, when
    Django's own request_finished receivers have run.
    """
    if request is not None:
        request.__dict__.clear()
