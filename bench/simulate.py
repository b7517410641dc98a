"""Benchmark the engine: simulator speed, state size, and the heuristic bot's strength.

    python bench/simulate.py [--games 40] [--repeats 5] [--duel-games 200] [--ruleset bga]
        [--players 4]

Every figure is for one ruleset (``--ruleset``, default bga) and table size (``--players``).
Speed: whole games with heuristic bots, invariant checks off, on one core (this
process), repeated to give a median and spread. Size: the largest JSON state seen at any step.
Strength: the heuristic bot in the even seats against the random bot in the odd ones.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import apply, new_game  # noqa: E402
from games.engine.bots import choose_action  # noqa: E402
from games.engine.legal import can_answer  # noqa: E402
from games.engine.rulesets import RULESETS  # noqa: E402
from games.engine.simulate import play_game  # noqa: E402


def speed(games: int, repeats: int, seed: str, ruleset: str = "bga", players: int = 4) -> dict:
    rates = []
    actions = 0
    for r in range(repeats):
        actions = 0
        started = time.perf_counter()
        for g in range(games):
            _, n, _ = play_game(players, f"{seed}:{r}:{g}", ruleset, checks=False)
            actions += n
        rates.append(games / (time.perf_counter() - started))
    return {
        "games_per_run": games,
        "runs": repeats,
        "games_per_second_median": round(statistics.median(rates), 2),
        "games_per_second_min": round(min(rates), 2),
        "games_per_second_max": round(max(rates), 2),
        "actions_per_game_last_run": round(actions / games, 1),
    }


def state_size(games: int, seed: str, players: int, ruleset: str = "bga") -> dict:
    largest = 0
    for g in range(games):
        st = new_game(players, f"{seed}:size:{g}", ruleset)
        while not st["game_over"]:
            answering = [s for s in range(players) if s != st["active"] and can_answer(st, s)]
            seat = answering[0] if answering else st["active"]
            st, _ = apply(st, seat, choose_action(st, seat))
            largest = max(largest, len(json.dumps(st, separators=(",", ":"))))
    return {"players": players, "games": games, "max_state_json_bytes": largest}


def duel(games: int, seed: str, ruleset: str = "bga", players: int = 4) -> dict:
    policies = ["heuristic", "random"] * (players // 2) + ["heuristic"] * (players % 2)
    wins = {"heuristic": 0, "random": 0}
    totals: dict[str, list[int]] = {"heuristic": [], "random": []}
    for g in range(games):
        final, _, problems = play_game(
            players, f"{seed}:duel:{g}", ruleset, policies=policies, checks=False
        )
        assert not problems, problems
        for seat, policy in enumerate(policies):
            totals[policy].append(final["totals"][seat])
            if final["places"][seat] == 1:
                wins[policy] += 1
    return {
        "ruleset": ruleset,
        "games": games,
        "seats": policies,
        "wins": wins,
        "mean_total": {k: round(statistics.mean(v), 1) for k, v in totals.items()},
        "median_total": {k: statistics.median(v) for k, v in totals.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--duel-games", type=int, default=200)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--ruleset", default="bga")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rules = RULESETS[args.ruleset]
    result = {
        "ruleset": args.ruleset,
        "speed": speed(args.games, args.repeats, args.seed, args.ruleset, args.players),
        "state_size_small": state_size(5, args.seed, max(4, rules.min_players), args.ruleset),
        "state_size_largest": state_size(3, args.seed, rules.max_players, args.ruleset),
        "duel": duel(args.duel_games, args.seed, args.ruleset, args.players),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
