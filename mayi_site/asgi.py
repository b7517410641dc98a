"""ASGI entry point, served by daphne: HTTP through Django, websockets through Channels.

Websockets pass the origin check first (the Origin header must name one of ALLOWED_HOSTS, so
another site's page cannot open a socket with our visitor's cookie), then the cookie and
session middleware, then the routes in games/routing.py. No ``scope["user"]``: the consumer
checks the session's user itself on every read (accounts/sessions.py), so Channels'
AuthMiddleware only cost each handshake a thread hop and two queries whose answer went unused.
"""

import gc
import os
import sys

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
    """
    if not settings.MAYI_STOCK_ASGI_HANDLER:
        _lean_twisted_requests()
    _freeze()


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
        lean_init.lean = True  # type: ignore[attr-defined]
        WebRequest.__init__ = lean_init  # type: ignore[method-assign]


def _freeze() -> None:
    # Import what the first request would (URL patterns, views, the API and its schema).
    get_resolver().url_patterns  # noqa: B018
    gc.collect()
    gc.freeze()


_serve_lean()
