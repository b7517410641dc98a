"""The backup drill (scripts/backup_restore.py) on PostgreSQL, and ``verify_game --all``.

The drill runs in CI's PostgreSQL pass: it backs the test database up with pg_dump (custom
format), restores it into a fresh database, compares every table's row count and replays every
finished game from its seed there."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import Move
from tests.site.stats_play import play_game

ROOT = Path(__file__).resolve().parents[2]
on_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="the backup drill needs PostgreSQL (scripts/test's second pass)",
)


def test_verify_game_all_replays_every_finished_game(alice, bob):
    first = play_game(alice, [bob], bots=1, seed="verify-all-1")
    play_game(bob, [alice], bots=1, seed="verify-all-2")
    out = io.StringIO()
    call_command("verify_game", "--all", stdout=out)
    assert "2 of 2 finished games verified" in out.getvalue()
    assert f"table {first.pk}: OK" in out.getvalue()
    # A move log that no longer replays is named, and the command fails.
    last = Move.objects.filter(table=first).order_by("-seq").first()
    Move.objects.filter(pk=last.pk).update(action={"type": "pass"})  # the model refuses save()
    out = io.StringIO()
    try:
        with pytest.raises(CommandError, match="1 game"):
            call_command("verify_game", "--all", stdout=out)
    finally:
        # Put it back: every test's finished games are replayed after it (tests/site/conftest.py).
        Move.objects.filter(pk=last.pk).update(action=last.action)
    assert f"table {first.pk}: FAILED" in out.getvalue()


def _test_database_url() -> str:
    s = connection.settings_dict
    auth = quote(s["USER"] or "postgres")
    if s.get("PASSWORD"):
        auth += ":" + quote(s["PASSWORD"])
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def _script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "scripts/backup_restore.py", *args],
        cwd=ROOT,
        env={**os.environ, "REDIS_URL": ""},
        capture_output=True,
        text=True,
        timeout=600,
    )


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_the_backup_drill_restores_every_row_and_every_game_replays(alice, bob, tmp_path):
    play_game(alice, [bob], bots=1, seed="backup-drill-1")
    play_game(bob, [alice], bots=2, seed="backup-drill-2")
    url = _test_database_url()
    keep = tmp_path / "mayi.dump"
    done = _script("drill", "--database-url", url, "--keep", str(keep))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 of 2 finished games verified" in done.stdout
    assert "verify: OK" in done.stdout
    assert keep.read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format

    # A restore that lost a move is caught by both checks.
    restored = url + "_restore_check"
    assert _script("restore", "--file", str(keep), "--into", restored).returncode == 0
    import psycopg

    try:
        with psycopg.connect(restored, autocommit=True) as conn:
            conn.execute(
                "DELETE FROM games_move WHERE id = (SELECT max(id) FROM games_move WHERE "
                "table_id = (SELECT min(id) FROM games_table WHERE status = 'finished'))"
            )
        broken = _script("verify", "--database-url", url, "--restored", restored)
        assert broken.returncode == 1
        assert "games_move:" in broken.stdout and "FAILED" in broken.stdout
    finally:
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{restored.rsplit("/", 1)[1]}" WITH (FORCE)')
