"""Websocket routes (mayi_site/asgi.py mounts them behind the origin check and the session)."""

from __future__ import annotations

from django.urls import path

from games.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
