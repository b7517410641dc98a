"""Fixtures for the site and browser tests: named users and API clients.

alice hosts, bob and carol play, charlie is always refused (not seated, not host).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from moderation.services import moderator_grant

# Redis of a test's own, or none (tests/redis_down.py): fixtures for any test.
from tests.redis_down import own_redis, redis_down  # noqa: F401

PASSWORD = "a long enough password 42"

# The tests that drive a browser, a Celery worker or whole stacks depend on timing they do not
# control (in CI two passes run side by side on 2 cores): like Playwright Test's CI default,
# a failure of theirs is run again, at most twice, and the summary counts every rerun ("R",
# "rerun"), so a flaky test stays in sight. The rules, the services and the pages' HTML get no
# second try.
RERUN_FOLDERS = {"browser", "live", "drills"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.hasplugin("rerunfailures"):
        return
    tests = config.rootpath / "tests"
    for item in items:
        folder = item.path.relative_to(tests).parts[0] if item.path.is_relative_to(tests) else ""
        if folder in RERUN_FOLDERS:
            item.add_marker(pytest.mark.flaky(reruns=2, reruns_delay=1))


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

    from games import presence
    from games.services import recent
    from mayi_site import ratelimits

    ratelimits.reset()
    # What a process remembers of the online marks and of its last commits outlives the test
    # too (games/presence.py, games/services/recent.py), and SQLite gives ids out again.
    presence.forget_local()
    recent.forget()
    if isinstance(caches["default"], LocMemCache):
        # Other counters are keyed by user id, which
        # SQLite gives out again after a rollback. Redis is never flushed: it may carry a broker.
        caches["default"].clear()


@pytest.fixture(autouse=True)
def _no_analysis_by_default(request: pytest.FixtureRequest) -> None:
    # A finished game's analysis is queued by default only where a test asks for it (issue 33:
    # tests/site/test_analysis.py, the Celery workers' tests): otherwise every game a test
    # finishes would count a broker's queue and send a task nothing consumes, and the queue's
    # length, what earlier runs left in Redis, would change what a test sees.
    if "tests/engine" in str(request.node.path):
        return
    from django.conf import settings

    settings.MAYI_ANALYSIS_AUTO_QUEUE = 0


@pytest.fixture(autouse=True)
def _no_dns_for_push_endpoints(request: pytest.FixtureRequest, monkeypatch: Any) -> None:
    # The push endpoints' SSRF guard resolves names (notify/guard.py): in the suite no name is
    # ever looked up (a test that needs one patches guard.resolve itself), so nothing reaches
    # a resolver off this machine, whatever a fuzzer sends.
    if "tests/engine" in str(request.node.path):
        return
    from notify import guard

    def resolve(host: str, port: int) -> list[str]:
        raise OSError(f"no name resolution in the tests ({host})")

    monkeypatch.setattr(guard, "resolve", resolve)


def _make_user(django_user_model: Any, name: str) -> Any:
    return django_user_model.objects.create_user(name, f"{name}@example.com", PASSWORD)


def make_moderator(name: str, role: str = "senior", user: Any = None) -> Any:
    """A moderator of ``role`` (chat, game, senior, admin: docs/MODERATION.md), a new user
    ``name`` unless ``user`` is given."""
    if user is None:
        user = _make_user(get_user_model(), name)
    moderator_grant(user=user, role=role)
    return type(user).objects.get(pk=user.pk)  # a fresh object: no permission cache


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


def signed_in_client(user: Any) -> Any:
    """A Django test client with ``user`` signed in, as a browser's session."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


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


@pytest.fixture(scope="session", autouse=True)
def _a_cheaper_flush() -> None:
    """A transactional test ends with Django's flush of every table, then the post_migrate
    signal that makes the content types and permissions again. Two changes, each measured on
    tests/live/test_websocket.py (15 tests):

    - On PostgreSQL the flush is one TRUNCATE of every table: new files for each, 0.43 s a
      test. Deleting the rows leaves the same empty tables (the sequences go on, as after
      TRUNCATE without RESTART IDENTITY) in 0.04 s. Django makes PostgreSQL's foreign keys
      DEFERRABLE INITIALLY DEFERRED, so the DELETEs' order does not matter in the flush's
      transaction.
    - The content types and permissions follow from the models alone and no test changes
      them: kept, post_migrate finds them all there and only reads (it made them again
      otherwise, 0.2 s a test on either database). What tests change (users, groups and their
      permissions) is flushed as before."""
    # Each backend's base module imports its operations (importing those alone is a cycle).
    from django.db.backends.postgresql.base import DatabaseOperations as PostgreSQL
    from django.db.backends.sqlite3.base import DatabaseOperations as SQLite

    kept = {"django_content_type", "auth_permission"}

    def keeping(original: Any, *, by_delete: bool) -> Any:
        def sql_flush(
            self: Any,
            style: Any,
            tables: Any,
            *,
            reset_sequences: bool = False,
            allow_cascade: bool = False,
        ) -> list[str]:
            tables = [t for t in tables if t not in kept]
            if by_delete and not (reset_sequences or allow_cascade):
                return [f"DELETE FROM {self.quote_name(table)};" for table in tables]
            return original(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )

        return sql_flush

    # SQLite's flush deletes already; PostgreSQL's truncates unless told otherwise.
    PostgreSQL.sql_flush = keeping(PostgreSQL.sql_flush, by_delete=True)  # type: ignore[method-assign]
    SQLite.sql_flush = keeping(SQLite.sql_flush, by_delete=False)  # type: ignore[method-assign]
