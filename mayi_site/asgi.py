"""ASGI entry point, served by daphne: HTTP through Django, websockets through Channels.

Websockets pass the origin check first (the Origin header must name one of ALLOWED_HOSTS, so
another site's page cannot open a socket with our visitor's cookie), then the cookie and
session middleware, then the routes in games/routing.py. No ``scope["user"]``: the consumer
checks the session's user itself on every read (accounts/sessions.py), so Channels'
AuthMiddleware only cost each handshake a thread hop and two queries whose answer went unused.
"""

import functools
import gc
import os
import pprint
import sys
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mayi_site.settings")

# Django must be set up before anything imports models (the consumers do).
django.setup(set_prefix=False)

from django.conf import settings  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402

from mayi_site.handlers import SyncChainASGIHandler  # noqa: E402


def http_application() -> ASGIHandler:
    """Our one-hop handler (mayi_site/handlers.py), or Django's own with
    MAYI_STOCK_ASGI_HANDLER=1."""
    return ASGIHandler() if settings.MAYI_STOCK_ASGI_HANDLER else SyncChainASGIHandler()


django_asgi_app = http_application()

# Request threads spend their time in short database round trips; each one back from the
# database waits for the GIL until the thread holding it is forced to switch (5 ms by
# default). 1 ms cut the p99 of a game action at 200 actions/s from 47 to 25 ms
# (bench/api_moves.py), at no cost in throughput.
sys.setswitchinterval(float(os.environ.get("MAYI_SWITCH_INTERVAL", "0.001")))

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            SessionMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)


def _serve_lean() -> None:
    """Settle the process for serving, once everything is imported.

    - Twisted parses the Content-Type of every POST (building an email message and a new header
      class each time) and decodes form bodies into ``request.args``, which daphne never reads:
      Django parses the body itself. Turned off for daphne's requests (not with
      MAYI_STOCK_ASGI_HANDLER=1).
    - The tens of thousands of objects made at start-up (modules, classes, URL patterns, the API
      schema) live as long as the process: ``gc.freeze`` takes them out of the cyclic collector's
      full collections, which scanned them all each time (~100 ms pauses under load, every
      request in flight waiting).
    - The cyclic collector's young generation runs every ``MAYI_GC_YOUNG`` (50,000) objects
      made and not freed, not Python's 2,000: a move's request and frames make thousands that
      live until it is answered, and the young collections walked them some 280 times in 30 s
      of bench/load.py, 1.8% of daphne's CPU, for garbage that reference counting frees anyway.
      At 50,000 none ran in such a run past start-up, and the peak memory stayed within 1 MB.
    - Twisted formats an access-log line for every request into its legacy log, which daphne
      drops (verbosity 0 and 1) or copies beside its own access log (2 and more): not written.
      daphne's own access log (``--access-log``, or verbosity 1) is untouched.
    - autobahn formats its whole configuration with ``pprint`` on every websocket handshake
      for a debug line that is off, and colours three values with ``click.style`` for another
      on every frame it sends (``sendData``: 1% of daphne's CPU under bench/load.py): both
      formatted only if the line is written.
    """
    if not settings.MAYI_STOCK_ASGI_HANDLER:
        _lean_twisted_requests()
        _no_twisted_access_line()
        _lazy_autobahn_pformat()
        _lazy_autobahn_highlights()
    _freeze()


def _no_twisted_access_line() -> None:
    try:
        from daphne.http_protocol import HTTPFactory
    except ImportError:
        return
    HTTPFactory.log = lambda self, request: None


class _LazyPformat:
    """``pformat(obj)``, done when the log line is formatted (txaio formats with str.format)."""

    __slots__ = ("args", "kwargs")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs

    def __str__(self) -> str:
        return pprint.pformat(*self.args, **self.kwargs)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _lazy_autobahn_pformat() -> None:
    """autobahn.websocket.protocol's ``pformat`` (its debug lines' arguments) made lazy; its
    one other use, ``Timings.__str__``, keeps the real one."""
    try:
        from autobahn.websocket import protocol
    except ImportError:
        return
    if protocol.pformat is not _LazyPformat:
        # Both replace what autobahn's own types declare (a function, a method) with a
        # stand-in of the same use: mypy sees the declared types only.
        protocol.pformat = _LazyPformat  # type: ignore[assignment]
        protocol.Timings.__str__ = lambda self: pprint.pformat(self._timings)  # type: ignore[method-assign]


class _LazyCall:
    """``func(*args)``, called when the log line is formatted (as _LazyPformat)."""

    __slots__ = ("args", "func")

    def __init__(self, func: Any, *args: Any) -> None:
        self.func, self.args = func, args

    def __str__(self) -> str:
        return str(self.func(*self.args))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _lazy_autobahn_highlights() -> None:
    """autobahn.websocket.protocol's ``hltype`` and ``hlval`` (used only as arguments of its
    log lines) made lazy."""
    try:
        from autobahn.websocket import protocol
    except ImportError:
        return
    for name in ("hltype", "hlval"):
        real = getattr(protocol, name)
        if not (isinstance(real, functools.partial) and real.func is _LazyCall):
            setattr(protocol, name, functools.partial(_LazyCall, real))


def _lean_twisted_requests() -> None:
    """Set Twisted's private ``Request._parsePOSTFormSubmission`` off for daphne's requests
    (tests/site/test_framework_guard.py fails when Twisted changes the code that reads it)."""
    try:
        from daphne.http_protocol import WebRequest
    except ImportError:  # not served by daphne (tests, other servers)
        return
    init = WebRequest.__init__

    def lean_init(self: WebRequest, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)
        self._parsePOSTFormSubmission = False

    if not getattr(init, "lean", False):
        # A mark on the function (not set twice on a reload): functions take attributes, which
        # mypy's Callable type does not declare.
        lean_init.lean = True  # type: ignore[attr-defined]
        WebRequest.__init__ = lean_init


def _freeze() -> None:
    # Import what the first request would (URL patterns, views, the API and its schema).
    get_resolver().url_patterns  # noqa: B018
    gc.collect()
    gc.freeze()
    young = int(os.environ.get("MAYI_GC_YOUNG", "50000"))
    if young > 0:
        gc.set_threshold(young, *gc.get_threshold()[1:])


_serve_lean()
