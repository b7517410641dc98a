"""Closing a user's websockets at once: every table socket joins its user's group, and a
suspension or a ban sends that group "user.closed" after the commit."""

from __future__ import annotations

from django.db import transaction

from accounts.sessions import session_user
from chat.live import group_send


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def user_group_for_session(session_key: str | None) -> str | None:
    """The group of the signed-in user of a socket's session (None when signed out)."""
    user = session_user(session_key)
    return user_group(user.pk) if user is not None else None


def close_user_sockets_on_commit(user_id: int, reason: str) -> None:
    transaction.on_commit(
        lambda: group_send(user_group(user_id), {"type": "user.closed", "reason": reason})
    )
