"""Issuing and checking API tokens (``Authorization: Bearer <token>``)."""

from __future__ import annotations

import functools
import hashlib
import secrets
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Field, Model

from mayi_site.rows import Columns

from .models import ApiToken

TOKEN_PREFIX = "mayi_"


def _shaped_like_a_token(raw: str) -> bool:
    # Anything else is refused without a query.
    return bool(raw) and raw.startswith(TOKEN_PREFIX) and len(raw) <= 200


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def token_issue(*, user: User) -> str:
    """Give ``user`` a new token, revoking any previous one; returns the plain token."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        # The user's row lock orders two issues at once (a double click): without it both
        # deleted nothing, both inserted, and the second broke the one-token-per-user rule.
        get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
        ApiToken.objects.filter(user=user).delete()
        ApiToken.objects.create(user=user, key_hash=_hash(raw), prefix=raw[: len(TOKEN_PREFIX) + 6])
    return raw


@functools.cache
def _user_by_token() -> tuple[str, Columns]:
    """The statement of ``token_user`` and the user's columns in it, built once."""
    users = get_user_model()
    quote = connection.ops.quote_name
    columns = Columns(users, "u")

    def col(model: type[Model], name: str) -> str:
        field = model._meta.get_field(name)
        assert isinstance(field, Field) and field.column
        return quote(field.column)

    return (
        f"SELECT {columns.sql} FROM {quote(users._meta.db_table)} u "
        f"JOIN {quote(ApiToken._meta.db_table)} t "
        f"ON t.{col(ApiToken, 'user')} = u.{col(users, 'id')} "
        f"WHERE t.{col(ApiToken, 'key_hash')} = %s "
        f"AND u.{col(users, 'is_active')}"
    ), columns


def token_user(raw: str) -> User | None:
    """The active user a plain token belongs to, or None (one query).

    Every API request of a bot or script runs this. A hand-compiled statement, because
    compiling the equivalent ``select_related`` queryset took 0.6 ms of Python on each request,
    three times the database round trip (bench/api_moves.py profile), and ``raw()``, which
    maps the columns to the fields on every call, still took a third of it (py-spy under
    bench/load.py); the SQL is built from the models' metadata, and PostgreSQL keeps it
    prepared."""
    if not _shaped_like_a_token(raw):
        return None
    sql, columns = _user_by_token()
    with connection.cursor() as cursor:
        cursor.execute(sql, [_hash(raw)])
        row = cursor.fetchone()
    return cast(User, columns.load(row, 0)) if row is not None else None


def token_owner(raw: str) -> Any:
    """The user a good token belongs to, even one who may not sign in now (suspended or
    banned), or None: for the one thing such a member may still do with it, appeal."""
    if not _shaped_like_a_token(raw):
        return None
    found = ApiToken.objects.filter(key_hash=_hash(raw)).select_related("user").first()
    return found.user if found is not None else None


def token_of_inactive_user(raw: str) -> bool:
    """Whether a token ``token_user`` refused belongs to an account that may not sign in now
    (suspended or banned): the token itself is still good, and works again once that ends."""
    if not _shaped_like_a_token(raw):
        return False
    return ApiToken.objects.filter(key_hash=_hash(raw), user__is_active=False).exists()
