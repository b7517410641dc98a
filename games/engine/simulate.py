"""Bots play whole games; the invariants are checked after every action.

    python -m games.engine.simulate --games 20 --players 4 --seed 1 [--ruleset bga]
        [--policies normal,strong,easy,baseline,random,...] [--no-checks] [--timeouts 0.05]

Prints one JSON object: games, actions, seconds, games_per_second, invariant_violations, and
per-seat results (wins, mean total) so bot strength can be compared.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

from .actions import apply
from .bots import choose_action, fallback_action
from .errors import IllegalMove
from .invariants import check_invariants
from .legal import answerers
from .rng import SeededStream
from .state import State, new_game

MAX_ACTIONS_PER_GAME = 20000


def play_game(
    players: int,
    seed: str,
    ruleset: str = "bga",
    policies: Sequence[str] = ("normal",),
    checks: bool = True,
    timeouts: float = 0.0,
    record: list | None = None,
) -> tuple[State, int, list[str]]:
    """Play one game to the end. Returns the final state, the number of actions, problems."""
    state = new_game(players, seed, ruleset)
    chaos = SeededStream(f"{seed}:platform", 0)
    problems: list[str] = []
    actions = 0

    def policy(seat: int) -> str:
        return policies[seat % len(policies)]

    def step(seat: int | None, action: dict) -> None:
        nonlocal state, actions
        state, _ = apply(state, seat, action)
        actions += 1
        if record is not None:
            record.append((seat, action))
        if checks:
            found = check_invariants(state)
            if found:
                problems.extend(f"after {action} by {seat}: {p}" for p in found)

    while not state["game_over"]:
        if actions > MAX_ACTIONS_PER_GAME:
            problems.append("game did not finish")
            break
        waiting = answerers(state)
        # While a window is open the active player may go on first half the time, so held
        # discards and passes get played too.
        if (
            waiting
            and state["window"] is not None
            and state["phase"] == "play"
            and chaos.below(2) == 0
        ):
            waiting = []
        if waiting:
            if state["window"] is not None and timeouts and chaos.below(10_000) < timeouts * 10_000:
                step(None, {"type": "close_window"})
                continue
            seat = waiting[0]
            step(seat, choose_action(state, seat, policy(seat)) or {"type": "no_thanks"})
            continue
        seat = state["active"]
        if state["phase"] not in ("draw", "play"):
            problems.append(f"stuck in phase {state['phase']} with nobody to answer")
            break
        if timeouts and chaos.below(10_000) < timeouts * 10_000:
            step(None, {"type": "timeout"})
            continue
        action = choose_action(state, seat, policy(seat)) or fallback_action(state, seat)
        try:
            step(seat, action)
        except IllegalMove as exc:
            problems.append(f"bot chose an illegal action {action}: {exc}")
            step(seat, fallback_action(state, seat))
    return state, actions, problems


def run(args: argparse.Namespace) -> dict:
    policies = args.policies.split(",")
    totals_by_seat = [0] * args.players
    wins = [0] * args.players
    violations: list[str] = []
    actions = 0
    started = time.perf_counter()
    for g in range(args.games):
        final, n, problems = play_game(
            args.players,
            f"{args.seed}:{g}",
            args.ruleset,
            policies,
            checks=not args.no_checks,
            timeouts=args.timeouts,
        )
        actions += n
        violations.extend(f"game {g}: {p}" for p in problems)
        for seat in range(args.players):
            totals_by_seat[seat] += final["totals"][seat]
            if final["places"] and final["places"][seat] == 1:
                wins[seat] += 1
    seconds = time.perf_counter() - started
    return {
        "games": args.games,
        "players": args.players,
        "ruleset": args.ruleset,
        "policies": [policies[s % len(policies)] for s in range(args.players)],
        "checks": not args.no_checks,
        "actions": actions,
        "seconds": round(seconds, 3),
        "games_per_second": round(args.games / seconds, 2) if seconds else None,
        "actions_per_second": round(actions / seconds, 1) if seconds else None,
        "invariant_violations": len(violations),
        "violations": violations[:20],
        "wins": wins,
        "mean_total": [round(t / max(args.games, 1), 1) for t in totals_by_seat],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--ruleset", default="bga")
    parser.add_argument("--policies", default="normal", help="bot levels, one per seat in turn")
    parser.add_argument("--no-checks", action="store_true", help="skip invariant checks (timing)")
    parser.add_argument("--timeouts", type=float, default=0.0, help="share of turns timed out")
    args = parser.parse_args(argv)
    result = run(args)
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 1 if result["invariant_violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
