"""Hash every bot decision of seeded games, to prove a speed change altered none of them.

    python bench/decisions.py [--quick]

Plays seeded games (3 per ruleset per level with four seats of that level; a mixed table with
timed-out turns; 3-, 5- and 6-seat tables; the simulator benchmark's own 20 games; one bga game
of an expert among three strong bots, for the expert's search) and prints
one SHA-256 per group and one over all of them. Each covers every (seat, action) pair, the
final totals and the final state. Run it on the code before a change and save the last line;
re-run after the change: every hash must match, or the change altered a decision (revert it).
``--quick`` plays one game per group (a smoke test while iterating, not a proof).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.simulate import play_game  # noqa: E402

RULESETS = ("bga", "petras", "classic", "rook")
LEVELS = ("easy", "normal", "strong", "baseline")
MIXED = ("normal", "strong", "easy", "baseline")


def groups() -> list[tuple[str, int, str, tuple[str, ...], int, float, str]]:
    """(name, players, ruleset, policies, games, timeouts, seed prefix) of every group."""
    out = []
    for ruleset in RULESETS:
        for level in LEVELS:
            out.append((f"{ruleset}/{level}", 4, ruleset, (level,), 3, 0.0, "dec"))
        out.append((f"{ruleset}/mixed+timeouts", 4, ruleset, MIXED, 3, 0.05, "dec-t"))
        for players in (3, 5, 6):
            out.append((f"{ruleset}/{players} seats", players, ruleset, MIXED, 1, 0.0, "dec-n"))
    out.append(("benchmark 20 games", 4, "bga", ("normal",), 20, 0.0, "1"))
    # The expert's search (its fast playouts): one seat of it among three strong bots, in bga,
    # where it searches (elsewhere it plays as the strong bot).
    out.append(
        ("bga/expert+3 strong", 4, "bga", ("expert", "strong", "strong", "strong"), 1, 0.0, "dec-x")
    )
    return out


def group_hash(players, ruleset, policies, games, timeouts, prefix, quick) -> str:
    digest = hashlib.sha256()
    for g in range(1 if quick else games):
        record: list = []
        final, _, problems = play_game(
            players, f"{prefix}:{g}", ruleset, policies, False, timeouts, record
        )
        for seat, action in record:
            digest.update(json.dumps([seat, action], sort_keys=True).encode())
        digest.update(json.dumps([final["totals"], problems], sort_keys=True).encode())
        digest.update(json.dumps(final, sort_keys=True).encode())
    return digest.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one game per group")
    args = parser.parse_args()
    whole = hashlib.sha256()
    started = time.process_time()
    for name, *spec in groups():
        h = group_hash(*spec, quick=args.quick)
        whole.update(h.encode())
        print(f"{h[:16]}  {name}", flush=True)
    print(f"# {time.process_time() - started:.1f} CPU s")
    print(f"all {whole.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
