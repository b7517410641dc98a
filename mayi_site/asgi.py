"""ASGI entry point, served by daphne.

Only HTTP is routed today; the websocket route for live tables is added here (issue 4) with
``"websocket": ...`` beside ``"http"``.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mayi_site.settings")

# Django must be set up before anything imports models (consumers will).
django.setup(set_prefix=False)

from mayi_site.handlers import SyncChainASGIHandler  # noqa: E402

django_asgi_app = SyncChainASGIHandler()

from channels.routing import ProtocolTypeRouter  # noqa: E402

application = ProtocolTypeRouter({"http": django_asgi_app})
