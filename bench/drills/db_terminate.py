"""Drill: terminate every PostgreSQL backend of the site, again and again, during moves.

    .venv/bin/python bench/drills/db_terminate.py [--tables 12] [--seconds 40]
        [--every 2] [--port 8240] [--redis-port 8276]

Bot clients play through daphne while, over the middle half of the run, every --every
seconds each backend of the drill's database (daphne's pool, the Celery worker's and beat's
connections) is ended with pg_terminate_backend, as a restart or a failover would. A
request caught in the middle answers 503 ``unavailable`` with Retry-After and the client
retries once; a request between kills must not notice (the pool checks its connections).

The check (bench/harness.py check_run): no acknowledged move lost, none applied twice, every
window closed exactly once, no deadline left overdue, every table replays from its seed; no
HTTP 500, and no request needed more than one retry. Exit status 0 when it holds.
Bounded: about --seconds + 40 s.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from bench.harness import drill_parser, log, run_drill, terminate_backends  # noqa: E402


async def fault(stack: Any, redis: Any, args: Any) -> None:
    await asyncio.sleep(args.seconds / 4)
    until = time.monotonic() + args.seconds / 2
    kills = ended = 0
    while time.monotonic() < until:
        ended += await asyncio.to_thread(terminate_backends, args.database_url)
        kills += 1
        await asyncio.sleep(args.every)
    log(f"{kills} rounds of pg_terminate_backend, {ended} backends ended")


def main() -> int:
    parser = drill_parser(__doc__, port=8240, redis_port=8276)
    parser.add_argument("--every", type=float, default=2.0, help="seconds between kills")
    return run_drill("db-terminate", parser.parse_args(), fault)


if __name__ == "__main__":
    sys.exit(main())
