"""Fixtures for the site and browser tests: named users and API clients.

alice hosts, bob and carol play, charlie is always refused (not seated, not host).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

# Redis of a test's own, or none (tests/redis_down.py): fixtures for any test.
from tests.redis_down import own_redis, redis_down  # noqa: F401

PASSWORD = "a long enough password 42"


class ApiClient:
    """A Django test client that speaks JSON with a bearer token."""

    def __init__(self, user: Any, token: str) -> None:
        from django.test import Client

        self.user = user
        self.token = token
        self.client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")

    def get(self, path: str) -> Any:
        return self.client.get(path)

    def post(self, path: str, data: Any = None, *, raw: bytes | str | None = None) -> Any:
        body = raw if raw is not None else json.dumps({} if data is None else data)
        return self.client.post(path, body, content_type="application/json")

    def act(self, table_id: int, version: int, **action: Any) -> Any:
        return self.post(f"/api/tables/{table_id}/actions", {**action, "expect_version": version})


@pytest.fixture(autouse=True)
def _fast_passwords(request: pytest.FixtureRequest) -> None:
    # Hashing with the real PBKDF2 would dominate the suite's time; only site tests need Django.
    if "tests/engine" in str(request.node.path):
        return
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_rate_limits(request: pytest.FixtureRequest) -> None:
    # Counters live in the cache, which outlives a test: each test starts with none used.
    if "tests/engine" in str(request.node.path):
        return
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    from games import presence, ratelimits
    from games.services import recent

    ratelimits.reset()
    # What a process remembers of the online marks and of its last commits outlives the test
    # too (games/presence.py, games/services/recent.py), and SQLite gives ids out again.
    presence.forget_local()
    recent.forget()
    if isinstance(caches["default"], LocMemCache):
        # Other counters (django-ratelimit's, chat and reports) are keyed by user id, which
        # SQLite gives out again after a rollback. Redis is never flushed: it may carry a broker.
        caches["default"].clear()


def _make_user(django_user_model: Any, name: str) -> Any:
    return django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)


@pytest.fixture
def alice(db: None, django_user_model: Any) -> Any:
    return _make_user(django_user_model, "alice")


@pytest.fixture
def bob(db: None, django_user_model: Any) -> Any:
    return _make_user(django_user_model, "bob")


@pytest.fixture
def carol(db: None, django_user_model: Any) -> Any:
    return _make_user(django_user_model, "carol")


@pytest.fixture
def charlie(db: None, django_user_model: Any) -> Any:
    return _make_user(django_user_model, "charlie")


@pytest.fixture
def api_for(db: None) -> Any:
    """``api_for(user)``: an ApiClient authenticated with a fresh token for ``user``."""
    from accounts.tokens import token_issue

    clients: dict[int, ApiClient] = {}

    def make(user: Any) -> ApiClient:
        if user.pk not in clients:
            clients[user.pk] = ApiClient(user, token_issue(user=user))
        return clients[user.pk]

    return make


def verified_client(user: Any) -> Any:
    """A test client signed in as ``user`` whose session passed the second factor (a TOTP
    device of theirs, confirmed): the admin requires it (moderation/admin_site.py)."""
    from django.test import Client
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device, _ = TOTPDevice.objects.get_or_create(
        user=user, name="test authenticator", defaults={"confirmed": True}
    )
    client = Client()
    client.force_login(user)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return client


@pytest.fixture
def admin_client(db: None, admin_user: Any) -> Any:
    """pytest-django's admin_client, with the second factor the admin requires."""
    return verified_client(admin_user)
