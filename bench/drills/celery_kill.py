"""Drill: SIGKILL the Celery timer worker while "May I?" windows are open, twice.

    .venv/bin/python bench/drills/celery_kill.py [--tables 12] [--seconds 40] [--kills 2]
        [--window-seconds 3] [--turn-seconds 6] [--port 8210] [--redis-port 8279]

Bot clients play --tables tables of 4 through daphne (HTTP moves, websocket frames), never
answering the windows, so every window closes by its timer; a few turns are sat out, so turn
clocks run out too. During play the worker (its whole process group: the prefork pool too) is
killed with SIGKILL with its tasks reserved, and started again 3 s later. Tasks are
acknowledged late, so Redis gives them back; the beat's sweep fires whatever was overdue.

The check (bench/harness.py check_run): no acknowledged move lost, none applied twice, every
window closed exactly once, no deadline left overdue, every table replays from its seed.
Exit status 0 when it holds. Bounded: about --seconds + 40 s in all.
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
    step = args.seconds / (args.kills + 1)
    for k in range(args.kills):
        await asyncio.sleep(step if k == 0 else step - 3)
        log(f"SIGKILL worker0 (kill {k + 1} of {args.kills})")
        stack.stop("worker0", signal.SIGKILL)
        await asyncio.sleep(3)
        log("worker0 started again")
        await asyncio.to_thread(stack.start, "worker0")


def main() -> int:
    parser = drill_parser(__doc__, port=8210)
    parser.add_argument("--kills", type=int, default=2)
    return run_drill("celery-kill", parser.parse_args(), fault)


if __name__ == "__main__":
    sys.exit(main())
