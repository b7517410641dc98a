"""Issuing and checking API tokens (``Authorization: Bearer <token>``)."""

from __future__ import annotations

import functools
import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction

from .models import ApiToken

TOKEN_PREFIX = "mayi_"


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def token_issue(*, user: AbstractBaseUser) -> str:
    """Give ``user`` a new token, revoking any previous one; returns the plain token."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        ApiToken.objects.filter(user=user).delete()
        ApiToken.objects.create(user=user, key_hash=_hash(raw), prefix=raw[: len(TOKEN_PREFIX) + 6])
    return raw


@functools.cache
def _user_by_token_sql() -> str:
    User = get_user_model()
    quote = connection.ops.quote_name
    user_pk = quote(User._meta.pk.column)
    return (
        f"SELECT u.* FROM {quote(User._meta.db_table)} u "
        f"JOIN {quote(ApiToken._meta.db_table)} t "
        f"ON t.{quote(ApiToken._meta.get_field('user').column)} = u.{user_pk} "
        f"WHERE t.{quote(ApiToken._meta.get_field('key_hash').column)} = %s "
        f"AND u.{quote(User._meta.get_field('is_active').column)}"
    )


def token_user(raw: str) -> AbstractBaseUser | None:
    """The active user a plain token belongs to, or None (one query).

    Every API request of a bot or script runs this. A raw query, because compiling the
    equivalent ``select_related`` queryset took 0.6 ms of Python on each request, three times
    the database round trip (bench/api_moves.py profile); the SQL is built from the models'
    metadata, and PostgreSQL keeps it prepared."""
    if not raw or not raw.startswith(TOKEN_PREFIX) or len(raw) > 200:
        return None
    User = get_user_model()
    return next(iter(User.objects.raw(_user_by_token_sql(), [_hash(raw)])), None)
