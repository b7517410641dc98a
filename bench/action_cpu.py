"""CPU of one game action's server path, in one process, on PostgreSQL: the action's HTTP
request and the frames daphne builds for the table's sockets after the commit.

    .venv/bin/python bench/action_cpu.py [--tables 10] [--actions 300] [--seats 4] [--runs 3]
        [--moves http|socket] [--profile out.prof] [--database-url postgres://postgres@127.0.0.1:5432/mayi_bench]
        [--redis-url redis://127.0.0.1:6379/N]

It makes ``--tables`` started tables of ``--seats`` people (a database of its own, dropped and
made afresh), then plays ``--actions`` actions round-robin over the tables, as the bot clients
of bench/load.py do (``bench.harness.decide`` on each seat's last frame), each one:

- ``request``: ``POST /api/tables/<id>/actions`` with the seat's bearer token through Django's
  test client (the middleware, the view, the service, the commit; the broadcast goes to the
  in-memory channel layer, or to Redis with ``--redis-url``). With ``--moves socket``, what
  the table's socket does with the action instead, as the page sends it while its socket is
  open (games/consumers.py ``act``): the action's validation, ``games.live.table_act`` (the
  session as the sockets hold it, the user, the service, the commit, the broadcast) and the
  answer's encoding;
- ``frames``: what daphne does for the table's sockets after the commit: the frames of all of
  them built together (``games.live.changed_frames``, as games/consumers.py does: one table
  read, one log read, one sessions query), each encoded as the socket sends it; with
  ``--moves socket``, of all of them but the acting one's, which its answer brought.

A window answer ("no thanks") is an action too, as under load. Prints one JSON object: CPU ms
(``time.process_time``) per action for each part, per run, and the median and spread over the
runs; ``--profile`` writes a cProfile of the last run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_moves import fresh_database, server_env  # noqa: E402


def setup(database_url: str, redis_url: str) -> None:
    os.environ.update(
        {
            **server_env(database_url),
            "REDIS_URL": redis_url,
            "MAYI_MIN_CLOCK_SECONDS": "1",
            "MAYI_RATE_LIMITS_ENABLED": "0",
            "MAYI_CELERY_QUEUE": "mayi-action-cpu",
        }
    )
    fresh_database(database_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env={**os.environ, "REDIS_URL": ""},
        check=True,
    )
    import django

    django.setup()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--actions", type=int, default=300, help="per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", default="")
    parser.add_argument(
        "--moves",
        choices=("http", "socket"),
        default="http",
        help="each action by POST (as API clients send them) or as its socket takes it",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mayi_bench"
        ),
    )
    parser.add_argument("--redis-url", default="", help="default: no Redis (in-memory layer)")
    parser.add_argument(
        "--window-seconds",
        type=int,
        default=3600,
        help="under MAYI_TIMER_HORIZON (300) a draw queues the window's timer task (Celery)",
    )
    args = parser.parse_args()
    setup(args.database_url, args.redis_url)

    import asyncio
    import threading

    from django.test import Client
    from pydantic import TypeAdapter

    from bench.harness import decide, make_tables
    from games import broadcast, live
    from games.api_schemas import ActionIn

    parse_action = TypeAdapter(ActionIn).validate_python

    # As in daphne: the broadcast after a commit goes to a running event loop (the server's),
    # whose Redis connection stays open, instead of a new loop per commit.
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    broadcast.server_loop = lambda: loop  # type: ignore[assignment]

    tag = f"cpu{random.randrange(10**6)}"
    tables = make_tables(
        args.tables, args.seats, window_seconds=args.window_seconds, turn_seconds=3600, tag=tag
    )
    client = Client(HTTP_HOST="127.0.0.1")
    rng = random.Random(7)
    encode = json.JSONEncoder(ensure_ascii=False).encode  # what channels' send_json does

    def frames(table_id: int, creds: list[Any], since: int) -> list[dict[str, Any]]:
        # As the consumer builds them: all of the table's sockets in one go.
        if not creds:
            return []
        out = live.changed_frames(table_id, [(seat.session, since) for seat in creds])
        for frame in out:
            if not isinstance(frame, dict):
                raise SystemExit(f"a socket refused: {frame}")
            encode(frame)
        return out  # type: ignore[return-value]

    # Every seat's current view (its first frame, as a socket opening gets it).
    views: dict[int, list[dict[str, Any]]] = {
        creds[0].table_id: frames(creds[0].table_id, creds, -1) for creds in tables
    }

    def one_run(count: int) -> dict[str, float]:
        spent = {"request": 0.0, "frames": 0.0}
        done = 0
        skipped = 0
        while done < count:
            for creds in tables:
                if done >= count:
                    break
                table_id = creds[0].table_id
                mine = views[table_id]
                choice = next(
                    (
                        (seat, action)
                        for seat, view in zip(creds, mine, strict=True)
                        if (action := decide(view["view"], rng)) is not None
                    ),
                    None,
                )
                if choice is None:
                    skipped += 1
                    continue
                seat, action = choice
                version = mine[0]["version"]
                began = time.process_time()
                if args.moves == "socket":
                    parsed = parse_action({**action, "expect_version": version})
                    frame = live.table_act(
                        table_id=table_id,
                        session_key=seat.session,
                        action=parsed.model_dump(exclude={"expect_version"}, exclude_none=True),
                        expect_version=parsed.expect_version,
                    )
                    encode(frame)
                    middle = time.process_time()
                    others = [s for s in creds if s is not seat]
                    built = iter(frames(table_id, others, version))
                    views[table_id] = [frame if s is seat else next(built) for s in creds]
                else:
                    answer = client.post(
                        f"/api/tables/{table_id}/actions",
                        data=json.dumps({**action, "expect_version": version}),
                        content_type="application/json",
                        HTTP_AUTHORIZATION=f"Bearer {seat.token}",
                    )
                    middle = time.process_time()
                    if answer.status_code != 200:
                        raise SystemExit(f"{answer.status_code}: {answer.content[:300]!r}")
                    views[table_id] = frames(table_id, creds, version)
                spent["request"] += middle - began
                spent["frames"] += time.process_time() - middle
                done += 1
            if skipped > 10 * count:
                raise SystemExit("no table has a move to make")
        return {k: round(v * 1000 / count, 2) for k, v in spent.items()}

    one_run(min(50, args.actions))  # warm up: imports, caches, the pool's connections
    runs = []
    profiler = None
    for i in range(args.runs):
        if args.profile and i == args.runs - 1:
            import cProfile

            profiler = cProfile.Profile(time.process_time)
            profiler.enable()
        runs.append(one_run(args.actions))
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)
    summary: dict[str, Any] = {}
    for part in ("request", "frames"):
        values = [r[part] for r in runs]
        summary[part] = {
            "median": statistics.median(values),
            "min": min(values),
            "max": max(values),
        }
    totals = [r["request"] + r["frames"] for r in runs]
    summary["total"] = {
        "median": round(statistics.median(totals), 2),
        "min": round(min(totals), 2),
        "max": round(max(totals), 2),
    }
    print(
        json.dumps(
            {
                "tables": args.tables,
                "seats": args.seats,
                "actions_per_run": args.actions,
                "moves": args.moves,
                "cpu_ms_per_action": summary,
                "runs": runs,
                "load_average": os.getloadavg()[0],
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
