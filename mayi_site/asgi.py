"""ASGI entry point, served by daphne: HTTP through Django, websockets through Channels.

Websockets pass the origin check first (the Origin header must name one of ALLOWED_HOSTS, so
another site's page cannot open a socket with our visitor's cookie), then the session and user
middleware, then the routes in games/routing.py.
"""

import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mayi_site.settings")

# Django must be set up before anything imports models (the consumers do).
django.setup(set_prefix=False)

from mayi_site.handlers import SyncChainASGIHandler  # noqa: E402

django_asgi_app = SyncChainASGIHandler()

# Request threads spend their time in short database round trips; each one back from the
# database waits for the GIL until the thread holding it is forced to switch (5 ms by
# default). 1 ms cut the p99 of a game action at 200 actions/s from 47 to 25 ms
# (bench/api_moves.py), at no cost in throughput.
sys.setswitchinterval(float(os.environ.get("MAYI_SWITCH_INTERVAL", "0.001")))

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
