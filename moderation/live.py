"""Closing a user's websockets at once: every table socket joins its user's group, and a
suspension or a ban sends that group "user.closed" after the commit."""

from __future__ import annotations

from django.db import transaction

from chat.live import group_send
from games.broadcast import user_group


def close_user_sockets_on_commit(user_id: int, reason: str) -> None:
    transaction.on_commit(
        lambda: group_send(user_group(user_id), {"type": "user.closed", "reason": reason})
    )
