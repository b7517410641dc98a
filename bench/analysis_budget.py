"""What a finished game's analysis costs, through the site's own task (issue 33).

    .venv/bin/python bench/analysis_budget.py [--games 3] [--people 1] [--bots 3]
        [--samples 32] [--budget 60] [--seed bench-analysis]

It makes a fresh SQLite database in a temporary folder, migrates it, plays ``--games`` whole
bga games through the services (``--people`` people, whose moves the normal bot chooses, and
``--bots`` normal bots), then analyses each with the task's own code (``analysis/run.py``, one
slice after another in this process, as a worker would) at ``--samples`` samples a decision
within ``--budget`` CPU seconds a game. Prints one JSON object: per game, the decisions to
weigh and weighed, complete or not, the CPU seconds the task spent (its own count) and the
wall seconds, the samples a decision got (min, median, max) and the labels; and the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--people", type=int, default=1)
    parser.add_argument("--bots", type=int, default=3)
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--budget", type=float, default=60.0, help="CPU seconds a game")
    parser.add_argument("--seed", default="bench-analysis")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="mayi-analysis-bench-"))
    try:
        os.environ.update(
            DJANGO_SETTINGS_MODULE="mayi_site.settings",
            DATABASE_URL=f"sqlite:///{folder / 'bench.sqlite3'}",
            MAYI_ANALYSIS_AUTO_QUEUE="0",  # nothing queued: this process runs the task itself
            MAYI_ANALYSIS_SAMPLES=str(args.samples),
            MAYI_ANALYSIS_BUDGET_SECONDS=str(args.budget),
            MAYI_ANALYSIS_SLICE_SECONDS="2",
        )
        os.environ.pop("REDIS_URL", None)
        print(json.dumps(run(args), indent=1))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(args: argparse.Namespace) -> dict[str, Any]:
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from analysis import run as analysis_run
    from analysis.models import Decision, GameAnalysis
    from tests.site.stats_play import play_game

    call_command("migrate", verbosity=0)
    people = [
        User.objects.create_user(f"p{n}", f"p{n}@example.com", "pw") for n in range(args.people)
    ]
    games = []
    for g in range(args.games):
        table = play_game(people[0], people[1:], bots=args.bots, seed=f"{args.seed}-{g}")
        wall = time.perf_counter()
        slices = 0
        while analysis_run.analysis_run_slice(table_id=table.pk) == "continues":
            slices += 1
        wall = time.perf_counter() - wall
        analysis = GameAnalysis.objects.get(pk=table.pk)
        decisions = list(Decision.objects.filter(analysis=analysis))
        samples = sorted(d.samples for d in decisions) or [0]
        games.append(
            {
                "table": table.pk,
                "decisions": analysis.decisions_total,
                "weighed": len(decisions),
                "complete": analysis.complete,
                "cpu_seconds": round(analysis.cpu_seconds, 2),
                "wall_seconds": round(wall, 2),
                "slices": slices + 1,
                "samples": {
                    "min": samples[0],
                    "median": statistics.median(samples),
                    "max": samples[-1],
                },
                "labels": dict(Counter(d.label for d in decisions)),
            }
        )
    return {
        "games": len(games),
        "people": args.people,
        "bots": args.bots,
        "samples": args.samples,
        "budget": args.budget,
        "per_game": games,
        "median_cpu_seconds": statistics.median(g["cpu_seconds"] for g in games),
        "median_decisions": statistics.median(g["decisions"] for g in games),
        "median_weighed": statistics.median(g["weighed"] for g in games),
    }


if __name__ == "__main__":
    main()
