"""Settings from the environment, checked in fresh processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, transaction

ROOT = Path(__file__).resolve().parents[2]


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deploy_check_passes_with_debug_off():
    result = run(
        {
            "DEBUG": "0",
            "SECRET_KEY": "x" * 64 + "-a-real-looking-secret",
            "ALLOWED_HOSTS": "mayi.example.com",
        },
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_debug_off_needs_a_secret_key():
    result = run({"DEBUG": "0"}, "manage.py", "check")
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


PRINT_DB = (
    "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'mayi_site.settings');"
    "from django.conf import settings as s; d = s.DATABASES['default'];"
    "print(d['ENGINE'], d.get('CONN_MAX_AGE'), d['OPTIONS'], s.CACHES['default']['BACKEND'],"
    " s.CHANNEL_LAYERS['default']['BACKEND'])"
)


def test_database_and_redis_urls_switch_the_services():
    result = run(
        {
            "DATABASE_URL": "postgres://u:p@db.example:5432/mayi",
            "REDIS_URL": "redis://cache:6379/1",
        },
        "-c",
        PRINT_DB,
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "django.db.backends.postgresql 0 {'pool': {" in out
    assert "'prepare_threshold': 2" in out
    assert "RedisCache" in out and "RedisPubSubChannelLayer" in out


def test_prepared_statements_can_be_turned_off_for_a_pooler():
    result = run(
        {"DATABASE_URL": "postgres://u:p@db.example:5432/mayi", "DB_PREPARE_THRESHOLD": "none"},
        "-c",
        PRINT_DB,
    )
    assert "'prepare_threshold': None" in result.stdout, result.stderr


def test_embedded_default_is_sqlite_with_immediate_transactions():
    result = run({}, "-c", PRINT_DB)
    assert "django.db.backends.sqlite3" in result.stdout, result.stderr
    assert "'transaction_mode': 'IMMEDIATE'" in result.stdout
    assert "LocMemCache" in result.stdout and "InMemoryChannelLayer" in result.stdout


def test_this_run_uses_the_database_it_was_given(db):
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        assert connection.vendor == "postgresql"
        assert settings.DATABASES["default"]["OPTIONS"]["pool"]
    else:
        assert connection.vendor == "sqlite"


def test_a_moves_statements_are_prepared_on_postgresql(three_player_game):
    """Planning the statements of a move anew each time was 3/4 of PostgreSQL's work per move:
    a connection that has run them twice holds them prepared."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    from games.services.selectors import read_table_with_seats

    with transaction.atomic():  # one connection from the pool throughout
        for _ in range(3):
            read_table_with_seats(three_player_game.pk, lock=True)
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            prepared = [row[0] for row in cursor.fetchall()]
    assert any("FOR UPDATE" in sql for sql in prepared), prepared  # the lock
    assert any('JOIN "games_seat"' in sql for sql in prepared), prepared  # the read after it


BENCH_APP = (
    "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'mayi_site.settings');"
    "django.setup(); from django.apps import apps; from django.urls import resolve;"
    "print(apps.is_installed('benchapp'), resolve('/api/bench/write').url_name == 'bench_write')"
)


@pytest.mark.parametrize("value, installed", [("1", "True True"), ("0", "False False")])
def test_the_bench_app_is_installed_only_when_the_setting_turns_it_on(value, installed):
    """The bench's table and endpoint (benchapp/) are no part of the product: off, the app is
    not installed (no table migrated) and /api/bench/write is no route."""
    result = run({"MAYI_BENCH_ENDPOINTS": value}, "-c", BENCH_APP)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == installed
