"""Bot levels against each other: seeded 4-player games, seats rotated.

    .venv/bin/python bench/bots.py --level strong --against baseline --games 400
    .venv/bin/python bench/bots.py --level normal --against normal --games 100   # all one level
    .venv/bin/python bench/bots.py --level strong --against normal,easy,normal --games 100  # a mix
    nice -n 10 .venv/bin/python bench/bots.py --level expert --against strong --rulesets bga --games 400

One seat (game g: seat g % players) plays ``--level``, the others ``--against`` (``baseline`` is
the frozen heuristic that was the site's only bot, ``games/engine/bots/baseline.py``; a comma
list gives the other seats their levels in turn, clockwise from the tested seat). For
each ruleset it prints one JSON line: the tested seat's win share (a shared first place counts
as a win; parity is 1/players), its mean total against the others' mean, the share of rounds
nobody went out of, and the time the tested seat's bot took per turn (every decision of one
turn of its own, summed) and per answer in a buy window: median, p99 and max, in ms of wall
time, and the turn's process CPU time (``turn_cpu_ms``: what a shared, loaded machine distorts
least); ``decision_cpu_ms`` is the CPU time of each single decision of the tested seat (every
call of its bot: a draw, a discard, a lay-off, an answer), the figure the expert's 200 ms
budget is about. ``--games-from`` starts at another game number, so that a long run can be
made in parts (``--json-games`` writes each game's result, for merging them). ``--tuning``
plays the tested seat (the strong bot or the expert) with some of its weights changed
(``games/engine/bots/tuning.py``'s fields, ``name=value`` separated by commas: tuples as
``a/b/c``, ``none`` for a weight that may be unset), to measure a change on the same deals
before making it:

    .venv/bin/python bench/bots.py --level strong --tuning mayi_first=true --against strong --rulesets bga
    .venv/bin/python bench/bots.py --level expert --tuning w_pen_last=none --against strong --rulesets bga
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import fields, replace
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import IllegalMove, apply  # noqa: E402
from games.engine.bots import choose_action, fallback_action  # noqa: E402
from games.engine.bots.expert import expert_action  # noqa: E402
from games.engine.bots.strong import strong_action  # noqa: E402
from games.engine.bots.tuning import Tuning, expert_tuning, tuning_for  # noqa: E402
from games.engine.legal import answerers  # noqa: E402
from games.engine.rulesets import get_ruleset  # noqa: E402
from games.engine.state import new_game  # noqa: E402

MAX_ACTIONS = 20000


def parse_tuning(text: str) -> dict[str, Any]:
    """``--tuning``'s ``name=value,...`` as ``Tuning`` field values.

    >>> parse_tuning("mayi_first=true,mayi_stock=50,urgency_left=0.8/0.1/0")
    {'mayi_first': True, 'mayi_stock': 50, 'urgency_left': (0.8, 0.1, 0.0)}
    >>> parse_tuning("w_pen_last=0.6"), parse_tuning("w_pen_last=none")
    ({'w_pen_last': 0.6}, {'w_pen_last': None})
    """
    kinds = {f.name: type(getattr(Tuning(), f.name)) for f in fields(Tuning)}
    out: dict[str, Any] = {}
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        kind = kinds.get(name)
        if kind is None:
            raise SystemExit(f"--tuning: no weight {name!r} (one of {', '.join(kinds)})")
        if kind is bool:
            out[name] = value.lower() in ("1", "true", "yes")
        elif kind is type(None):  # a weight unset by default: a number when set
            out[name] = None if value.lower() == "none" else float(value)
        elif kind is tuple:
            out[name] = tuple(float(x) for x in value.split("/"))
        else:
            out[name] = kind(value)
    return out


TUNED_LEVELS = ("strong", "expert")


def bench_step(state: dict, seat: int, action: dict | None, waiting: bool) -> tuple[dict, bool]:
    """``state`` after ``seat`` plays ``action`` as the bench plays every bot: no action is "no
    thanks" to an open window (``waiting``) or the fallback's move, and an illegal one is
    replaced by the fallback's; with whether it was illegal. bench/rounds.py and
    bench/expert_cpu.py play their games through it too, so that all three play alike."""
    if action is None:
        action = {"type": "no_thanks"} if waiting else fallback_action(state, seat)
    try:
        return apply(state, seat, action)[0], False
    except IllegalMove:
        return apply(state, seat, fallback_action(state, seat))[0], True


def tuned_weights(ruleset: str, level: str, tuned: str) -> Tuning:
    """The weights of ``level`` (strong or expert) in ``ruleset``, changed by ``tuned``."""
    rules = get_ruleset(ruleset)
    own = expert_tuning(rules) if level == "expert" else tuning_for(rules)
    return replace(own, **parse_tuning(tuned))


def tuned_action(state: dict, seat: int, level: str, weights: Tuning) -> dict | None:
    """The tested seat's action at ``level`` with ``weights``."""
    if level == "expert":
        return expert_action(state, seat, tuning=weights)
    return strong_action(state, seat, weights)


def play(task: tuple[str, int, str, str, int, str, str]) -> dict:
    ruleset, g, level, against, players, seed, tuned = task
    weights = tuned_weights(ruleset, level, tuned) if tuned else None
    tested = g % players
    others = against.split(",")
    levels = [
        level if s == tested else others[((s - tested) % players - 1) % len(others)]
        for s in range(players)
    ]
    state = new_game(players, f"{seed}:{ruleset}:{g}", ruleset)
    turn_ms: list[float] = []
    turn_cpu_ms: list[float] = []
    answer_ms: list[float] = []
    decision_cpu_ms: list[float] = []
    current = current_cpu = 0.0
    turn_key: bool | None = None
    illegal = 0
    actions = 0
    while not state["game_over"] and actions < MAX_ACTIONS:
        waiting = answerers(state)
        seat = waiting[0] if waiting else state["active"]
        started = time.perf_counter()
        cpu = time.process_time()
        if weights is not None and seat == tested:
            action = tuned_action(state, seat, level, weights)
        else:
            action = choose_action(state, seat, levels[seat])
        spent = (time.perf_counter() - started) * 1000
        spent_cpu = (time.process_time() - cpu) * 1000
        if seat == tested:
            decision_cpu_ms.append(spent_cpu)
            if waiting:
                answer_ms.append(spent)
            else:
                turn_key = True
                current += spent
                current_cpu += spent_cpu
        state, refused = bench_step(state, seat, action, bool(waiting))
        illegal += refused
        actions += 1
        # A turn of the tested seat ends when another seat becomes active (or the round ends).
        if turn_key is not None and (state["active"] != tested or state["game_over"]):
            turn_ms.append(current)
            turn_cpu_ms.append(current_cpu)
            current = current_cpu = 0.0
            turn_key = None
    rules = get_ruleset(ruleset)
    places = state["places"] or [0] * players
    return {
        "win": places[tested] == 1,
        "tested_total": state["totals"][tested],
        "others_total": statistics.mean(state["totals"][s] for s in range(players) if s != tested),
        "rounds": rules.rounds,
        "rounds_nobody_out": rules.rounds - sum(state["rounds_out"]),
        "turn_ms": turn_ms,
        "turn_cpu_ms": turn_cpu_ms,
        "answer_ms": answer_ms,
        "decision_cpu_ms": decision_cpu_ms,
        "illegal": illegal,
        "finished": state["game_over"],
    }


def percentile(values: list[float], q: float) -> float:
    """The value at quantile ``q`` of ``values`` (the nearest rank below; 0.0 for none)."""
    if not values:
        return 0.0
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 2)


def summarise(ruleset: str, level: str, against: str, players: int, games: list[dict]) -> dict:
    n = len(games)
    turns = [t for g in games for t in g["turn_ms"]]
    turns_cpu = [t for g in games for t in g["turn_cpu_ms"]]
    answers = [t for g in games for t in g["answer_ms"]]
    decisions = [t for g in games for t in g["decision_cpu_ms"]]
    return {
        "ruleset": ruleset,
        "level": level,
        "against": against,
        "players": players,
        "games": n,
        "wins": sum(g["win"] for g in games),
        "win_share": round(sum(g["win"] for g in games) / n, 3),
        "parity": round(1 / players, 3),
        "mean_total": round(statistics.mean(g["tested_total"] for g in games), 1),
        "others_mean_total": round(statistics.mean(g["others_total"] for g in games), 1),
        "rounds_nobody_out_share": round(
            sum(g["rounds_nobody_out"] for g in games) / sum(g["rounds"] for g in games), 3
        ),
        "turn_ms": {
            "p50": percentile(turns, 0.5),
            "p99": percentile(turns, 0.99),
            "max": percentile(turns, 1.0),
        },
        "turn_cpu_ms": {
            "p50": percentile(turns_cpu, 0.5),
            "p99": percentile(turns_cpu, 0.99),
            "max": percentile(turns_cpu, 1.0),
        },
        "answer_ms": {
            "p50": percentile(answers, 0.5),
            "p99": percentile(answers, 0.99),
            "max": percentile(answers, 1.0),
        },
        "decision_cpu_ms": {
            "p50": percentile(decisions, 0.5),
            "p99": percentile(decisions, 0.99),
            "max": percentile(decisions, 1.0),
            "count": len(decisions),
        },
        "illegal_actions": sum(g["illegal"] for g in games),
        "unfinished": sum(not g["finished"] for g in games),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="strong")
    parser.add_argument("--against", default="baseline")
    parser.add_argument("--games", type=int, default=400, help="games per ruleset")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rulesets", default="bga,petras,classic,rook")
    parser.add_argument("--seed", default="bench-bots")
    parser.add_argument("--processes", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--games-from", type=int, default=0, help="the first game's number")
    parser.add_argument("--json-games", help="write every game's result to this file")
    parser.add_argument(
        "--tuning",
        default="",
        help="the tested seat (strong or expert) with these weights (name=value,...)",
    )
    args = parser.parse_args(argv)
    if args.tuning:
        if args.level not in TUNED_LEVELS:
            parser.error("--tuning changes the weights of --level strong or expert only")
        parse_tuning(args.tuning)  # a bad name stops here, not in every worker
    for ruleset in args.rulesets.split(","):
        tasks = [
            (ruleset, g, args.level, args.against, args.players, args.seed, args.tuning)
            for g in range(args.games_from, args.games_from + args.games)
        ]
        started = time.perf_counter()
        if args.processes > 1:
            with Pool(args.processes) as pool:
                games = pool.map(play, tasks, chunksize=4)
        else:
            games = [play(t) for t in tasks]
        if args.json_games:
            with open(f"{args.json_games}.{ruleset}", "w") as f:
                json.dump(games, f)
        out = summarise(ruleset, args.level, args.against, args.players, games)
        if args.tuning:
            out["tuning"] = args.tuning
        out["seconds"] = round(time.perf_counter() - started, 1)
        print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
