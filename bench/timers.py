"""How late timers fire: short buy windows closed by a real Celery worker and beat, on
PostgreSQL + Redis.

    .venv/bin/python bench/timers.py [--windows 200] [--rate 10] [--min 2] [--max 5]
        [--database-url postgres://postgres@127.0.0.1:5432/mayi_bench]
        [--redis-url redis://127.0.0.1:6379/0]

It migrates the database, makes one table of three people per window, then starts the
production processes (as ``scripts/start`` does with REDIS_URL): the timers' ``celery worker``
(prefork, concurrency 2), the mail worker and ONE ``celery beat`` (sweep every 2 s), on queues
of their own. It then
opens ``--windows`` buy windows, ``--rate`` per second, each with a timer drawn from
``--min``..``--max`` seconds (nobody answers, so each closes by its timer), waits for all to
close, and prints one JSON object: how late each window closed past its deadline (the
timestamp of the closing move, written in the closing transaction), p50/p99/max in ms, and
how many closed more than once (must be 0).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_moves import ensure_database  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--windows", type=int, default=200)
    parser.add_argument("--rate", type=float, default=10.0, help="windows opened per second")
    parser.add_argument("--min", type=int, default=2, help="shortest window timer (s)")
    parser.add_argument("--max", type=int, default=5, help="longest window timer (s)")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/mayi_bench")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()

    queue = f"mayi-bench-{uuid.uuid4().hex[:6]}"
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "MAYI_CELERY_QUEUE": queue,
        # The reminder emails of these tables' offline players are sent, by the mail worker,
        # into memory: no mail server here.
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "MAYI_MIN_CLOCK_SECONDS": "1",
        # One host opens every table of the run: past the cap on games at once.
        "MAYI_MAX_OPEN_GAMES": "1000000",
        "DJANGO_SETTINGS_MODULE": "mayi_site.settings",
        "LOG_LEVEL": "WARNING",
        "GAMES_LOG_LEVEL": "WARNING",
    }
    env.pop("MAYI_EMBEDDED_WORKER", None)
    os.environ.update(env)
    ensure_database(args.database_url)

    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from games import engine, services
    from games.models import Move

    call_command("migrate", verbosity=0)
    tag = uuid.uuid4().hex[:6]
    users = [
        User.objects.create_user(f"timer-{tag}-{i}", f"t{i}@example.com", None) for i in range(3)
    ]
    rng = random.Random(7)
    tables = []
    for i in range(args.windows):
        timer = rng.randint(args.min, args.max)
        table = services.table_create(
            host=users[0], seats=3, window_seconds=timer, turn_seconds=3600
        )
        for user in users[1:]:
            services.table_join(user=user, table_id=table.pk)
        services.table_start(user=users[0], table_id=table.pk, seed=f"timers-{i}")
        table.refresh_from_db()
        tables.append(table)

    workdir = Path("/tmp") / f"mayi-bench-timers-{tag}"
    workdir.mkdir(exist_ok=True)
    celery = [sys.executable, "-m", "celery", "-A", "mayi_site"]
    procs = [
        subprocess.Popen(
            [*celery, "worker", "-Q", queue, "--concurrency", "2", "-n", "timers@%h"],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=open(workdir / "worker.log", "wb"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        ),
        subprocess.Popen(
            [*celery, "worker", "-Q", f"{queue}-mail", "--concurrency", "1", "-n", "mail@%h"],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=open(workdir / "mail-worker.log", "wb"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        ),
        subprocess.Popen(
            [*celery, "beat", "--schedule", str(workdir / "beat"), "--loglevel", "WARNING"],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=open(workdir / "beat.log", "wb"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        ),
    ]
    try:
        time.sleep(4)  # the worker's processes up and consuming
        opened: dict[int, Any] = {}
        start = time.monotonic()
        for i, table in enumerate(tables):
            time.sleep(max(0.0, start + i / args.rate - time.monotonic()))
            active = engine.seats_to_act(table.state)[0]
            seat_user = {s.position: s.user for s in table.seats.select_related("user")}
            services.table_submit_action(
                table_id=table.pk,
                user=seat_user[active],
                action={"type": "draw", "source": "stock"},
                expect_version=table.version,
            )
            table.refresh_from_db()
            if table.window_deadline is not None:
                opened[table.pk] = table.window_deadline
        deadline = time.monotonic() + args.max + 30
        ids = list(opened)
        while time.monotonic() < deadline:
            done = (
                Move.objects.filter(table_id__in=ids, action={"type": "close_window"})
                .values("table_id")
                .distinct()
                .count()
            )
            if done == len(ids):
                break
            time.sleep(0.5)
        time.sleep(3)  # room for a duplicate to show up
        closes = list(
            Move.objects.filter(table_id__in=ids, action={"type": "close_window"}).values_list(
                "table_id", "created"
            )
        )
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        import redis

        redis.Redis.from_url(args.redis_url).delete(queue, f"{queue}-mail")

    per_table: dict[int, list[Any]] = {}
    for table_id, created in closes:
        per_table.setdefault(table_id, []).append(created)
    late_ms = [
        (min(created) - opened[table_id]).total_seconds() * 1000
        for table_id, created in per_table.items()
    ]
    result = {
        "windows_opened": len(opened),
        "closed": len(per_table),
        "closed_more_than_once": sum(1 for c in per_table.values() if len(c) > 1),
        "never_closed": len(opened) - len(per_table),
        "timer_seconds": [args.min, args.max],
        "rate_per_second": args.rate,
        "late_ms": {
            "p50": round(statistics.median(late_ms), 1) if late_ms else None,
            "p99": round(percentile(late_ms, 99), 1) if late_ms else None,
            "max": round(max(late_ms), 1) if late_ms else None,
            "min": round(min(late_ms), 1) if late_ms else None,
        },
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
