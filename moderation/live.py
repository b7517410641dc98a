"""Closing a user's websockets at once: a suspension or a ban sends "user.closed", naming the
user, to the group every process's sockets hear (games/hub.py) after the commit."""

from __future__ import annotations

from django.db import transaction

from chat.live import group_send
from games.broadcast import SOCKETS_GROUP, user_closed_message


def close_user_sockets_on_commit(user_id: int, reason: str) -> None:
    transaction.on_commit(lambda: group_send(SOCKETS_GROUP, user_closed_message(user_id, reason)))
