"""CPU of the expert's decisions on recorded states, and a hash of what it decided: to measure a
speed change of its search, and to prove it changed no decision.

    .venv/bin/python bench/expert_cpu.py --games 3 [--games-from 0] [--save F | --load F]
        [--slice 300:420] [--runs 1]

It plays games ``--games-from`` .. of ``bench/bots.py``'s deals (seed ``bench-bots``, bga, the
expert in seat g % 4 against three strong bots) and records every state where the expert
decides (``--save F`` pickles them; ``--load F`` takes them instead of playing), then decides
each state again (``--slice A:B``: only states A to B-1), ``--runs`` times, and prints one JSON
object: the decisions, CPU seconds (``time.process_time``) of each run, the p50 and p99 of a
decision's CPU in the last run, and a SHA-256 of the actions decided (the same in every run and
on every tree that plays the same). Time decisions from ``--load``, in a fresh process: when
the states were just played, the caches of the bots' hand measures already hold most of their
answers (the JSON says ``"warm": true`` then). Between two trees (a worktree of the commit before), run
both side by side, one per core, so that the host's speed moves both alike; or count
instructions, which do not depend on it::

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python bench/expert_cpu.py --load F --slice 300:420
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import bench_step, percentile  # noqa: E402
from games.engine import new_game  # noqa: E402
from games.engine.bots import choose_action  # noqa: E402
from games.engine.bots.expert import expert_action  # noqa: E402
from games.engine.legal import answerers  # noqa: E402

PLAYERS = 4
MAX_ACTIONS = 5000


def recorded(first: int, games: int, seed: str) -> list[tuple[dict, int]]:
    """The (state, seat) of every decision of the expert in the games, as bench/bots.py plays
    them (the same deals, the same seats, the same fallbacks)."""
    out: list[tuple[dict, int]] = []
    for g in range(first, first + games):
        tested = g % PLAYERS
        state = new_game(PLAYERS, f"{seed}:bga:{g}", "bga")
        for _ in range(MAX_ACTIONS):
            if state["game_over"]:
                break
            waiting = answerers(state)
            seat = waiting[0] if waiting else state["active"]
            if seat == tested:
                out.append((state, seat))
            action = choose_action(state, seat, "expert" if seat == tested else "strong")
            state, _ = bench_step(state, seat, action, bool(waiting))
    return out


def decide(states: list[tuple[dict, int]]) -> tuple[float, list[float], str]:
    """CPU seconds in all, each decision's CPU ms, and the hash of the actions."""
    digest = hashlib.sha256()
    each = []
    for state, seat in states:
        started = time.process_time()
        action = expert_action(state, seat)
        each.append((time.process_time() - started) * 1000)
        digest.update(json.dumps(action, sort_keys=True).encode())
    return sum(each) / 1000, each, digest.hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games to record")
    parser.add_argument("--games-from", type=int, default=0, help="the first game's number")
    parser.add_argument("--seed", default="bench-bots")
    parser.add_argument("--save", help="pickle the recorded states to this file")
    parser.add_argument("--load", help="decide the states pickled in this file (no games)")
    parser.add_argument("--slice", default="", help="A:B, only states A to B-1")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    if args.load:
        with open(args.load, "rb") as f:
            states = pickle.load(f)  # noqa: S301 (a file this script wrote)
    else:
        states = recorded(args.games_from, args.games, args.seed)
    if args.save:
        with open(args.save, "wb") as f:
            pickle.dump(states, f)
    if args.slice:
        low, high = (int(x) if x else None for x in args.slice.split(":"))
        states = states[low:high]
    runs = []
    hashes = set()
    each: list[float] = []
    for _ in range(args.runs):
        seconds, each, digest = decide(states)
        runs.append(round(seconds, 2))
        hashes.add(digest)
    out = {
        "decisions": len(states),
        "cpu_seconds": runs,
        "p50_ms": percentile(each, 0.5),
        "p99_ms": percentile(each, 0.99),
        "hash": hashes.pop()[:16] if len(hashes) == 1 else "differs between runs",
        "warm": not args.load,
    }
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
