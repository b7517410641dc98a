"""One round of many games played twice on the same deals: the expert with its own weights and
with others (``--tuning``), each time one expert against three strong bots (bga, 4 players).

    .venv/bin/python bench/rounds.py --round 7 --tuning w_pen_last=none --games 400

A change of the expert's play in one round only (a weight of the last round, say) is measured
on that round alone, at a seventh of the cost of ``bench/bots.py``'s whole games, and paired:
both plays of a deal meet the same cards. Round R of game g is dealt as the engine deals any
round, from the seed ``{seed}:bga:{g}`` with no earlier round played (no bot reads the totals),
and the expert sits in seat g % 4. It prints one JSON line: for the expert's own weights and
for the tuned ones, its mean score for the round and that score less the strong seats' mean
(``relative``: what wins games); then the paired differences, tuned less own, with their 95%
intervals, and how many deals came out the same. ``--tuning`` takes ``bench/bots.py``'s form
(``tuning.py``'s fields, ``name=value`` separated by commas).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import bench_step, parse_tuning, tuned_action, tuned_weights  # noqa: E402
from games.engine.bots.strong import strong_action  # noqa: E402
from games.engine.legal import answerers  # noqa: E402
from games.engine.state import new_game, start_round  # noqa: E402

PLAYERS = 4
MAX_ACTIONS = 5000


def deal(seed: str, g: int, round_no: int) -> dict:
    """Round ``round_no`` of game ``g``, dealt, nothing played (the earlier rounds scored 0)."""
    state = new_game(PLAYERS, f"{seed}:bga:{g}", "bga")
    if round_no > 1:
        state["round"] = round_no - 1
        state["scores"] = [[0] * PLAYERS for _ in range(round_no - 1)]
        start_round(state, [])
    return state


def play(task: tuple[str, int, int, str]) -> list[int]:
    """Every seat's score for the round, the expert in seat g % 4 with the weights ``tuned``
    (``bench/bots.py``'s form; empty: its own)."""
    seed, g, round_no, tuned = task
    state = deal(seed, g, round_no)
    tested = g % PLAYERS
    weights = tuned_weights("bga", "expert", tuned)
    for _ in range(MAX_ACTIONS):
        if state["game_over"] or state["round"] != round_no:
            break
        waiting = answerers(state)
        seat = waiting[0] if waiting else state["active"]
        if seat == tested:
            action = tuned_action(state, seat, "expert", weights)
        else:
            action = strong_action(state, seat)
        state, _ = bench_step(state, seat, action, bool(waiting))
    return list(state["scores"][round_no - 1])


def relative(scores: list[int], tested: int) -> float:
    """The tested seat's score less the others' mean."""
    return scores[tested] - statistics.fmean(s for i, s in enumerate(scores) if i != tested)


def interval(diffs: list[float]) -> list[float]:
    """The mean of ``diffs`` and its 95% interval (normal: the runs are hundreds of deals)."""
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    return [round(mean, 2), round(mean - half, 2), round(mean + half, 2)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--round", type=int, required=True, help="the round played (1..7)")
    parser.add_argument("--tuning", required=True, help="the expert's changed weights")
    parser.add_argument("--games", type=int, default=400, help="deals (one per game number)")
    parser.add_argument("--games-from", type=int, default=0, help="the first game number")
    parser.add_argument("--seed", default="bench-rounds")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    if not 1 <= args.round <= 7:
        parser.error("--round: bga has rounds 1 to 7")
    parse_tuning(args.tuning)  # a bad name stops here, not in every worker
    games = range(args.games_from, args.games_from + args.games)
    tasks = [(args.seed, g, args.round, t) for t in ("", args.tuning) for g in games]
    with Pool(args.processes) as pool:
        found = pool.map(play, tasks, chunksize=2)
    own, tuned = found[: len(games)], found[len(games) :]
    seats = [g % PLAYERS for g in games]
    out: dict = {"round": args.round, "rounds": len(games), "tuning": args.tuning}
    for name, plays in (("own", own), ("tuned", tuned)):
        out[name] = {
            "expert_mean": round(
                statistics.fmean(p[s] for p, s in zip(plays, seats, strict=True)), 2
            ),
            "relative_mean": round(
                statistics.fmean(relative(p, s) for p, s in zip(plays, seats, strict=True)), 2
            ),
        }
    pairs = list(zip(own, tuned, seats, strict=True))
    out["tuned_less_own"] = {
        "expert": interval([float(b[s] - a[s]) for a, b, s in pairs]),
        "relative": interval([relative(b, s) - relative(a, s) for a, b, s in pairs]),
        "same": sum(1 for a, b, _ in pairs if a == b),
    }
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
