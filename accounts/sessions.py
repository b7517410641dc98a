"""The user of a session key, for the websockets (a socket has no request to ask)."""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from importlib import import_module
from typing import Any, cast

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.core.exceptions import ValidationError
from django.db import connection, connections, router
from django.db.models import Field
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from mayi_site.rows import Columns

DATABASE_ENGINE = "django.contrib.sessions.backends.db"


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
    if settings.SESSION_ENGINE == DATABASE_ENGINE:
        # The raw statements below rather than SessionStore.load's and ModelBackend.get_user's
        # querysets, compiled anew each time: a quarter of a socket's opening (py-spy).
        return _database_session_users({session_key}, known).get(session_key)
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return _user_of(store, known)


def session_users(
    session_keys: Iterable[str | None],
    known: dict[Any, User] | None = None,
    *,
    read_within: float = 0.0,
) -> dict[str, User | None]:
    """:func:`session_user` of each key (the sockets of one table in a process), with the
    database's sessions in one query for all their rows instead of one query each.

    ``read_within`` (seconds): a session row this process read that recently, not deleted
    here since (:func:`forget`) and not expired, is taken as read then, without the query; the
    user is still checked afresh against ``known`` (active, the password's hash), and an answer
    of "signed out" from such a row is read again before it is given."""
    keys = {key for key in session_keys if key}
    if settings.SESSION_ENGINE != DATABASE_ENGINE or not keys:
        return {key: session_user(key, known) for key in keys}
    if read_within <= 0:
        return _database_session_users(keys, known)
    found: dict[str, User | None] = {}
    now = time.monotonic()
    wall = timezone.now()
    for key in keys:
        held = _rows_read.get(key)
        if held is None or now - held[0] > read_within or held[2] <= wall:
            continue
        user = _user_of(_decoded(key, held[1]), known)
        if user is not None:
            found[key] = user
    if len(found) < len(keys):
        found.update(_database_session_users(keys - found.keys(), known))
    return found


def forget(session_key: str) -> None:
    """This session's row is gone or changed: the next check reads it, whatever
    ``read_within`` allows."""
    _forgets[0] += 1
    _rows_read.pop(session_key, None)


def on_session_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """``post_delete`` and ``post_save`` of the session model (connected in accounts/apps.py)."""
    forget(instance.session_key)


def _database_session_users(
    keys: set[str], known: dict[Any, User] | None
) -> dict[str, User | None]:
    # What SessionStore.load reads for one key: the row, unless it has expired. A raw
    # statement, as the token's (accounts/tokens.py): compiling the queryset was half of this
    # function's CPU, which ran after every change of every table with sockets (py-spy).
    model = DatabaseSessionStore.get_model_class()
    ordered = sorted(keys)
    db = connections[router.db_for_read(model)]
    read_at = time.monotonic()
    forgets = _forgets[0]
    now = timezone.now()
    with db.cursor() as cursor:
        cursor.execute(
            _sessions_sql(len(ordered)), [*ordered, db.ops.adapt_datetimefield_value(now)]
        )
        rows = {key: (data, expires) for key, data, expires in cursor.fetchall()}
    for key in keys - rows.keys():
        _rows_read.pop(key, None)
    # A row deleted while this read was on its way (another thread's forget) must not be
    # remembered as read after it: then none of this read is.
    if forgets == _forgets[0]:
        for key, (data, expires) in rows.items():
            if len(_rows_read) >= _DECODED_MAX:
                _rows_read.clear()  # a bound, not a policy
            _rows_read[key] = (read_at, data, _aware(expires))
    return {
        key: _user_of(_decoded(key, rows[key][0]), known) if key in rows else None for key in keys
    }


# {session key: (when this process read its row, time.monotonic(); its data; its expiry)}:
# what session_users(read_within=...) may take instead of reading the row again.
_rows_read: dict[str, tuple[float, str, datetime]] = {}
_forgets = [0]


def _aware(value: datetime) -> datetime:
    # SQLite's rows give naive datetimes (UTC, USE_TZ), PostgreSQL's aware ones.
    return value if timezone.is_aware(value) else timezone.make_aware(value, UTC)


# {session key: (its stored data, that data decoded)}: the sockets of a table have their
# sessions checked again after every change, and a session's data changes seldom; decoding it
# (a signature's HMAC and the JSON) each time was a quarter of that check's CPU (py-spy under
# bench/load.py). Keyed by the stored text, so any change of the row is decoded afresh; made
# again when the secret key changes (a signature checked with another key).
_DECODED_MAX = 50_000
_decoded_memo: dict[str, tuple[str, dict[str, Any]]] = {}
_decoded_secret: list[str] = [""]


def _decoded(session_key: str, data: str) -> Mapping[str, Any]:
    if _decoded_secret[0] != settings.SECRET_KEY:
        _decoded_memo.clear()
        _decoded_secret[0] = settings.SECRET_KEY
    held = _decoded_memo.get(session_key)
    if held is not None and held[0] == data:
        return held[1]
    decoded = DatabaseSessionStore().decode(data)
    if len(_decoded_memo) >= _DECODED_MAX:
        _decoded_memo.clear()  # a bound, not a policy
    _decoded_memo[session_key] = (data, decoded)
    return decoded


@functools.lru_cache(maxsize=64)
def _sessions_sql(count: int) -> str:
    """The session rows of ``count`` keys that have not expired, from the model's metadata."""
    model = DatabaseSessionStore.get_model_class()
    quote = connection.ops.quote_name

    def col(name: str) -> str:
        field = model._meta.get_field(name)
        assert isinstance(field, Field) and field.column
        return quote(field.column)

    marks = ", ".join(["%s"] * count)
    return (
        f"SELECT {col('session_key')}, {col('session_data')}, {col('expire_date')} "
        f"FROM {quote(model._meta.db_table)} "
        f"WHERE {col('session_key')} IN ({marks}) AND {col('expire_date')} > %s"
    )


def _user_of(session: Mapping[str, Any], known: dict[Any, User] | None) -> User | None:
    try:
        user_id = get_user_model()._meta.pk.to_python(session[auth.SESSION_KEY])
        backend_path = session[auth.BACKEND_SESSION_KEY]
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
        loaded = (
            _active_user(user_id) if type(backend) is ModelBackend else backend.get_user(user_id)
        )
        if not isinstance(loaded, User):
            return None
        user = loaded
    session_hash = session.get(auth.HASH_SESSION_KEY)
    if not session_hash:
        return None
    if constant_time_compare(session_hash, _auth_hash(user)):
        return user
    if any(
        constant_time_compare(session_hash, fallback)
        for fallback in user.get_session_auth_fallback_hash()
    ):
        return user
    return None


def _active_user(user_id: Any) -> User | None:
    """``ModelBackend.get_user``: the user, if it exists and may log in, by one prepared
    statement instead of a queryset compiled on every call."""
    sql, columns = _user_by_id()
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id])
        row = cursor.fetchone()
    user = cast(User, columns.load(row, 0)) if row is not None else None
    return user if user is not None and ModelBackend().user_can_authenticate(user) else None


@functools.cache
def _user_by_id() -> tuple[str, Columns]:
    users = get_user_model()
    columns = Columns(users, "u")
    pk = users._meta.pk
    assert pk is not None and pk.column
    quote = connection.ops.quote_name
    sql = (
        f"SELECT {columns.sql} FROM {quote(users._meta.db_table)} u WHERE u.{quote(pk.column)} = %s"
    )
    return sql, columns


# {(user class, password hash, secret key): the session auth hash}: an HMAC of the password's
# hash, computed again for every socket after every change (a sixth of the sessions' check);
# the password's hash is the key, so a changed password is hashed afresh.
_auth_hashes: dict[tuple[type, str, str], str] = {}


def _auth_hash(user: User) -> str:
    key = (type(user), user.password, settings.SECRET_KEY)
    found = _auth_hashes.get(key)
    if found is None:
        found = user.get_session_auth_hash()
        if len(_auth_hashes) >= _DECODED_MAX:
            _auth_hashes.clear()  # a bound, not a policy
        _auth_hashes[key] = found
    return found
