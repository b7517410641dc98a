"""Issuing and checking API tokens (``Authorization: Bearer <token>``)."""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

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


def token_user(raw: str) -> AbstractBaseUser | None:
    """The active user a plain token belongs to, or None (one query)."""
    if not raw or not raw.startswith(TOKEN_PREFIX) or len(raw) > 200:
        return None
    token = ApiToken.objects.select_related("user").filter(key_hash=_hash(raw)).first()
    if token is None or not token.user.is_active:
        return None
    return token.user
