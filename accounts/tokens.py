"""Issuing and checking API tokens (``Authorization: Bearer <token>``)."""

from __future__ import annotations

import functools
import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Field, Model

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
def _user_by_token_sql() -> str:
    users = get_user_model()
    quote = connection.ops.quote_name

    def col(model: type[Model], name: str) -> str:
        field = model._meta.get_field(name)
        assert isinstance(field, Field) and field.column
        return quote(field.column)

    return (
        f"SELECT u.* FROM {quote(users._meta.db_table)} u "
        f"JOIN {quote(ApiToken._meta.db_table)} t "
        f"ON t.{col(ApiToken, 'user')} = u.{col(users, 'id')} "
        f"WHERE t.{col(ApiToken, 'key_hash')} = %s "
        f"AND u.{col(users, 'is_active')}"
    )


def token_user(raw: str) -> User | None:
    """The active user a plain token belongs to, or None (one query).

    Every API request of a bot or script runs this. A raw query, because compiling the
    equivalent ``select_related`` queryset took 0.6 ms of Python on each request, three times
    the database round trip (bench/api_moves.py profile); the SQL is built from the models'
    metadata, and PostgreSQL keeps it prepared."""
    if not _shaped_like_a_token(raw):
        return None
    return next(iter(User.objects.raw(_user_by_token_sql(), [_hash(raw)])), None)


def token_of_inactive_user(raw: str) -> bool:
    """Whether a token ``token_user`` refused belongs to an account that may not sign in now
    (suspended or banned): the token itself is still good, and works again once that ends."""
    if not _shaped_like_a_token(raw):
        return False
    return ApiToken.objects.filter(key_hash=_hash(raw), user__is_active=False).exists()
