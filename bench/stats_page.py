"""The statistics page of a player with many finished games: time to render it.

    .venv/bin/python bench/stats_page.py [--games 1000] [--runs 40]
        [--database-url postgres://postgres@127.0.0.1:5432/mayi_stats_bench]

It makes a fresh database (a temporary SQLite file by default; with ``--database-url`` that
PostgreSQL database is dropped and created anew), migrates it, and gives one player
``--games`` finished games (three seats: the player, a second person, a bot; every round's
record set, so the aggregates and the ratings go through the real finish hook,
``stats.services.stats_game_finished``, as when a game ends). Then another signed-in user asks
for ``/players/<name>/`` ``--runs`` times through Django's test client, in process, DEBUG off
(the view, its queries, the template and the charts; no HTTP server), after 3 warm-up runs.
Prints one JSON object: the games, the queries per page, and the median, p90, min and max in
milliseconds.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def fresh_database(url: str | None) -> str:
    if url is None:
        folder = Path(tempfile.mkdtemp(prefix="mayi-stats-bench-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        return f"sqlite:///{folder / 'bench.sqlite3'}"
    parts = urlparse(url)
    name = parts.path.lstrip("/")
    common = ["-h", parts.hostname or "127.0.0.1", "-U", parts.username or "postgres"]
    subprocess.run(["dropdb", "--if-exists", *common, name], check=True)
    subprocess.run(["createdb", *common, name], check=True)
    return url


def add_game(k: int, player: Any, rival: Any) -> None:
    """The k-th finished game: the player, a rival and a bot; numbers that vary with k."""
    from tests.site.stats_helpers import finished_game, rounds

    mine = [(k * 7 + r * 3) % 40 for r in range(7)]
    finished_game(
        [player, rival, None],
        [
            rounds(
                mine,
                down_turn=[1 + (k + r) % 4 if (k + r) % 5 else None for r in range(7)],
                windows=3,
                calls=1,
                buys=[1 if r == k % 7 else 0 for r in range(7)],
                draws_pile=1,
                draws_stock=3,
                turns=4,
                clock_seconds=120.0,
                think_seconds=[[10.0 + k % 50, 4.0], [], [], [], [], [], []],
            ),
            rounds([(k * 5 + r * 11) % 45 for r in range(7)]),
            rounds([(k * 3 + r * 13) % 50 for r in range(7)]),
        ],
        ruleset="petras" if k % 10 == 0 else "bga",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--database-url")
    parser.add_argument("--profile", action="store_true", help="print a profile of one page")
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = fresh_database(args.database_url)
    os.environ.update(
        DEBUG="0", SECRET_KEY="bench-only", ALLOWED_HOSTS="testserver", SECURE_SSL_REDIRECT="0"
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mayi_site.settings")
    import django

    django.setup()
    from django.conf import settings

    # DEBUG off serves hashed static names from a manifest that collectstatic would write:
    # plain names will do for timing the page.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client

    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    player = users.create_user("player", "player@example.com", "x")
    rival = users.create_user("rival", "rival@example.com", "x")
    viewer = users.create_user("viewer", "viewer@example.com", "x")
    started = time.perf_counter()
    with transaction.atomic():  # one commit: SQLite would sync the file after every statement
        for k in range(args.games):
            add_game(k, player, rival)
    setup_seconds = time.perf_counter() - started

    client = Client()
    client.force_login(viewer)
    path = "/players/player/"
    for _ in range(3):
        assert client.get(path, secure=True).status_code == 200
    seen: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        client.get(path, secure=True)
    queries = len(seen)
    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(client.get, path, secure=True)
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    # Wall time, and this process's CPU time: on a shared machine the wall time also counts
    # the waits for a core, the CPU time (the view, SQLite in process, the template) does not.
    times, cpu = [], []
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        response = client.get(path, secure=True)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        assert response.status_code == 200
    times.sort()
    cpu.sort()
    print(
        json.dumps(
            {
                "games": args.games,
                "database": connection.vendor,
                "queries_per_page": queries,
                "runs": args.runs,
                "median_ms": round(statistics.median(times), 1),
                "p90_ms": round(times[int(0.9 * (len(times) - 1))], 1),
                "min_ms": round(times[0], 1),
                "max_ms": round(times[-1], 1),
                "cpu_median_ms": round(statistics.median(cpu), 1),
                "cpu_min_ms": round(cpu[0], 1),
                "cpu_max_ms": round(cpu[-1], 1),
                "setup_seconds": round(setup_seconds, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
