"""Drill: stop Redis for 10 s in the middle of play, then start it again (empty).

    .venv/bin/python bench/drills/redis_outage.py [--tables 12] [--seconds 45] [--outage 10]
        [--window-seconds 3] [--turn-seconds 6] [--port 8220] [--redis-port 8278]

The site, its Celery worker and beat run on a redis-server of the drill's own (--redis-port;
the machine's Redis is never touched). Bot clients play through daphne while it is stopped:
moves must still answer 200 (Redis carries messages and timers, never state); frames stop,
so the clients fall back to reading the table over HTTP, as the page does. Redis comes back
empty (no persistence): every queued timer task is gone, and the beat's sweep must find the
deadlines in the table rows.

The check (bench/harness.py check_run): no acknowledged move lost, none applied twice, every
window closed exactly once, no deadline left overdue, every table replays from its seed; no
HTTP 500. Exit status 0 when it holds. Bounded: about --seconds + 40 s.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from bench.harness import drill_parser, log, run_drill  # noqa: E402


async def fault(stack: Any, redis: Any, args: Any) -> None:
    await asyncio.sleep(args.seconds / 3)
    log(f"stopping redis-server :{redis.port} for {args.outage:g} s")
    await asyncio.to_thread(redis.stop)
    await asyncio.sleep(args.outage)
    await asyncio.to_thread(redis.start)
    log("redis-server started again (empty)")


def main() -> int:
    parser = drill_parser(__doc__, port=8220, redis_port=8278, seconds=45.0)
    parser.add_argument("--outage", type=float, default=10.0, help="seconds Redis is down")
    return run_drill("redis-outage", parser.parse_args(), fault)


if __name__ == "__main__":
    sys.exit(main())
