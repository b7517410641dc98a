"""The user of a session key, for the websockets (a socket has no request to ask)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.crypto import constant_time_compare


def session_user(session_key: str | None, known: dict[Any, User] | None = None) -> User | None:
    """The signed-in user of a session, read afresh (None when logged out, expired or stale).

    The checks of Django's ``auth.get_user``: the session exists and has not expired, its
    backend is configured, the user exists and may log in (is active), and the session hash
    still matches (a password change signs other sessions out). ``known`` users, just read
    from the database (a table's seated players), spare the user query; the session row is
    always read. Read-only: unlike a request, a socket neither flushes nor cycles the session.
    """
    if not session_key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    try:
        user_id = get_user_model()._meta.pk.to_python(store[auth.SESSION_KEY])
        backend_path = store[auth.BACKEND_SESSION_KEY]
    except (KeyError, ValidationError):
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    backend = auth.load_backend(backend_path)
    found = (known or {}).get(user_id) if isinstance(backend, ModelBackend) else None
    if found is not None:
        if not (isinstance(backend, ModelBackend) and backend.user_can_authenticate(found)):
            return None
        user: User = found
    else:
        loaded = backend.get_user(user_id)
        if not isinstance(loaded, User):
            return None
        user = loaded
    session_hash = store.get(auth.HASH_SESSION_KEY)
    if not session_hash:
        return None
    if constant_time_compare(session_hash, user.get_session_auth_hash()):
        return user
    if any(
        constant_time_compare(session_hash, fallback)
        for fallback in user.get_session_auth_fallback_hash()
    ):
        return user
    return None
