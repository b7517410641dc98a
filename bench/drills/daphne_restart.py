"""Drill: restart daphne with every client connected, twice.

    .venv/bin/python bench/drills/daphne_restart.py [--tables 12] [--seconds 40]
        [--restarts 2] [--signal TERM|KILL] [--port 8230] [--redis-port 8277]

Bot clients play through one daphne process (HTTP moves, one websocket per seat). It is
stopped (SIGTERM by default, or SIGKILL) and started again on the same port; the clients
reconnect with backoff and re-sync by version. A move whose answer was lost in the restart
is counted as "answers_lost": the check accepts it applied once or not at all, never twice.

The check (bench/harness.py check_run): no acknowledged move lost, none applied twice, every
window closed exactly once, no deadline left overdue, every table replays from its seed.
Exit status 0 when it holds. Bounded: about --seconds + 40 s.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from bench.harness import drill_parser, log, run_drill  # noqa: E402


async def fault(stack: Any, redis: Any, args: Any) -> None:
    sig = signal.SIGKILL if args.signal == "KILL" else signal.SIGTERM
    step = args.seconds / (args.restarts + 1)
    for k in range(args.restarts):
        await asyncio.sleep(step)
        log(f"daphne0: SIG{args.signal} (restart {k + 1} of {args.restarts})")
        await asyncio.to_thread(stack.stop, "daphne0", sig)
        await asyncio.to_thread(stack.start, "daphne0")
        log("daphne0 serving again")


def main() -> int:
    parser = drill_parser(__doc__, port=8230, redis_port=8277)
    parser.add_argument("--restarts", type=int, default=2)
    parser.add_argument("--signal", choices=["TERM", "KILL"], default="TERM")
    return run_drill("daphne-restart", parser.parse_args(), fault)


if __name__ == "__main__":
    sys.exit(main())
