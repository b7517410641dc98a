#!/usr/bin/env python3
"""Back up the site's PostgreSQL database, restore it, and prove the restore is whole.

    .venv/bin/python scripts/backup_restore.py backup  --database-url URL --out FILE
    .venv/bin/python scripts/backup_restore.py restore --file FILE --into URL     (a fresh db)
    .venv/bin/python scripts/backup_restore.py verify  --database-url URL --restored URL
    .venv/bin/python scripts/backup_restore.py drill   --database-url URL [--keep FILE]

``backup`` is ``pg_dump --format=custom`` (compressed, restorable table by table, in parallel
with ``pg_restore -j``); ``restore`` makes the target database afresh and runs ``pg_restore``
into it (``--exit-on-error``, no owners or privileges, so it restores under another role);
``verify`` compares the row count of every table of the two databases, then runs
``manage.py verify_game --all`` on the restored one: every finished game is dealt again from its
seed and its move log replayed, card for card. ``drill`` does all three into a scratch database
(``<name>_restore_drill``) and drops it: the CI's check (tests/site/test_backup_restore.py, on
PostgreSQL) and an operator's monthly one. Exit status 0 when everything holds.

The client tools must not be older than the server (pg_dump refuses a newer server): the
script asks the server its major version and uses ``/usr/lib/postgresql/<major>/bin`` (Debian's
layout) when it exists, else the first ``pg_dump`` on PATH, and stops if its major version is
older. Procedure and the reasons for this method (against WAL archiving): docs/OPERATIONS.md.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent


def server_major(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SHOW server_version_num").fetchone()
    assert row is not None
    return int(row[0]) // 10000


def tool(name: str, url: str) -> str:
    """``name`` (pg_dump, pg_restore) of the server's major version, or refuse."""
    major = server_major(url)
    debian = Path(f"/usr/lib/postgresql/{major}/bin/{name}")
    path = str(debian) if debian.exists() else shutil.which(name)
    if path is None:
        sys.exit(f"error: {name} not found (apt-get install postgresql-client-{major})")
    version = subprocess.run([path, "--version"], capture_output=True, text=True, check=True)
    found = re.search(r"(\d+)(?:\.\d+)?", version.stdout)
    if found is None or int(found.group(1)) < major:
        sys.exit(f"error: {path} is {version.stdout.strip()}, older than the server ({major})")
    return path


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def database_of(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


def backup(url: str, out: Path) -> None:
    subprocess.run(
        [tool("pg_dump", url), "--format=custom", "--no-owner", "--file", str(out), url],
        check=True,
    )
    print(f"backup: {out} ({out.stat().st_size} bytes)")


def recreate(url: str) -> None:
    """Drop and create the database of ``url`` (through the server's ``postgres`` database)."""
    name = database_of(url)
    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop(url: str) -> None:
    name = database_of(url)
    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def restore(file: Path, into: str) -> None:
    recreate(into)
    subprocess.run(
        [
            tool("pg_restore", into),
            "--exit-on-error",
            "--no-owner",
            "--no-privileges",
            "--dbname",
            into,
            str(file),
        ],
        check=True,
    )
    print(f"restore: {file} into {database_of(into)}")


def row_counts(url: str) -> dict[str, int]:
    with psycopg.connect(url, autocommit=True) as conn:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            )
        ]
        counts = {}
        for table in tables:
            row = conn.execute(
                sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))
            ).fetchone()
            counts[table] = int(row[0]) if row else 0
    return counts


def verify(source: str, restored: str) -> bool:
    before, after = row_counts(source), row_counts(restored)
    ok = True
    if set(before) != set(after):
        print(f"verify: tables differ: {sorted(set(before) ^ set(after))}")
        ok = False
    for table in sorted(set(before) & set(after)):
        if before[table] != after[table]:
            print(f"verify: {table}: {before[table]} rows, {after[table]} restored")
            ok = False
    print(f"verify: {len(after)} tables, {sum(after.values())} rows compared")
    games = subprocess.run(
        [sys.executable, "manage.py", "verify_game", "--all"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": restored, "REDIS_URL": ""},
        capture_output=True,
        text=True,
    )
    summary = games.stdout.strip().splitlines()[-1:] or [games.stderr.strip()]
    print(f"verify_game --all: {summary[0]}")
    if games.returncode != 0:
        print(games.stdout[-2000:], games.stderr[-2000:], sep="\n")
        ok = False
    print("verify: OK" if ok else "verify: FAILED")
    return ok


def drill(url: str, keep: Path | None) -> bool:
    scratch = with_database(url, f"{database_of(url)}_restore_drill")
    with tempfile.TemporaryDirectory() as tmp:
        file = keep or Path(tmp) / "mayi.dump"
        backup(url, file)
        try:
            restore(file, scratch)
            return verify(url, scratch)
        finally:
            drop(scratch)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    default_url = os.environ.get("DATABASE_URL", "")
    one = commands.add_parser("backup")
    one.add_argument("--database-url", default=default_url)
    one.add_argument("--out", type=Path, required=True)
    two = commands.add_parser("restore")
    two.add_argument("--file", type=Path, required=True)
    two.add_argument("--into", required=True, help="a database URL; made afresh")
    three = commands.add_parser("verify")
    three.add_argument("--database-url", default=default_url)
    three.add_argument("--restored", required=True)
    four = commands.add_parser("drill")
    four.add_argument("--database-url", default=default_url)
    four.add_argument("--keep", type=Path, help="keep the backup file here")
    args = parser.parse_args(argv)
    if args.command == "backup":
        backup(args.database_url, args.out)
        return 0
    if args.command == "restore":
        restore(args.file, args.into)
        return 0
    if args.command == "verify":
        return 0 if verify(args.database_url, args.restored) else 1
    return 0 if drill(args.database_url, args.keep) else 1


if __name__ == "__main__":
    sys.exit(main())
