"""Benchmark ``find_contract`` over seeded random and adversarial hands (run by hand).

    python bench/find_contract.py --per-round 10000 --seed 1

For every round's contract it times ``find_contract`` on ``--per-round`` inputs, a quarter of
each kind:

- ``random``: a random hand from a 2- or 3-deck pool, from the contract's minimum size up to
  24 cards, with 0..6 wilds (more wilds than the physical decks hold, to stress the solver);
- ``dense``: the same but with the naturals drawn from a narrow window (1-2 letters, 4-8
  numbers), where books and runs compete for the same cards and the search must backtrack;
- ``valid``: a hand built as a valid contract (books of 2+ naturals, runs of 4..13 with wilds
  in random places, at most 24 cards and 6 wilds), shuffled;
- ``near``: a valid hand perturbed by one card (one dropped, one added, or one changed to a
  neighbour: number +-1, another letter, natural <-> wild), mostly infeasible by a hair.

It prints one JSON object (per round, per kind and overall: count, feasible share, median,
p90, p99 and max in microseconds, plus the slowest input) and then a readable table. Targets
from issue 2: p99 under 1 ms and max under 10 ms. ``--check`` also validates every partition.

Each input is timed once, wall clock. On a shared machine one call now and then also pays for
another process's time slice (milliseconds), so the 100 slowest inputs are timed again (best
of 5) and both maxima are reported, with the run's CPU share (CPU time / wall time).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine.contract import find_contract  # noqa: E402
from games.engine.melds import is_book, is_run  # noqa: E402
from games.engine.rulesets import BGA  # noqa: E402

SUITS = "MAYI"
MAX_CARDS = 24
MAX_WILDS = 6
KINDS = ("random", "dense", "valid", "near")
RETIMED = 100


def _pool(rng: random.Random, suits: str = SUITS, ranks: range = range(1, 14)) -> list[str]:
    decks = rng.choice((2, 3))
    return [f"{r}{s}" for s in suits for r in ranks for _ in range(decks)]


def random_hand(rng: random.Random, min_size: int) -> list[str]:
    size = rng.randint(min_size, MAX_CARDS)
    wilds = rng.randint(0, min(MAX_WILDS, size))
    return rng.sample(_pool(rng), size - wilds) + ["?"] * wilds


def dense_hand(rng: random.Random, min_size: int) -> list[str]:
    suits = "".join(rng.sample(SUITS, rng.choice((1, 2, 2))))
    width = rng.randint(4, 8)
    low = rng.randint(1, 14 - width)
    pool = _pool(rng, suits, range(low, low + width))
    size = rng.randint(min_size, min(MAX_CARDS, len(pool) + MAX_WILDS))
    wilds = rng.randint(max(0, size - len(pool)), min(MAX_WILDS, size))
    return rng.sample(pool, size - wilds) + ["?"] * wilds


def _try_valid_hand(rng: random.Random, books: int, runs: int) -> list[str] | None:
    decks = rng.choice((2, 3))
    hand: list[str] = []
    for _ in range(books):
        rank = rng.randint(1, 13)
        naturals = rng.choice((2, 3, 3, 3, 4, 5))
        w = rng.randint(0, min(naturals, 2)) if rng.random() < 0.5 else 0
        hand += [f"{rank}{rng.choice(SUITS)}" for _ in range(naturals)]
        hand += ["?"] * max(w, 3 - naturals)
    for _ in range(runs):
        suit = rng.choice(SUITS)
        length = rng.choice((4, 4, 4, 5, 5, 6, 7, 8, 10, 13))
        start = rng.randint(1, 14 - length)
        w = rng.randint(0, min(length // 2, 3)) if rng.random() < 0.6 else 0
        holes = set(rng.sample(range(length), w))
        hand += ["?" if i in holes else f"{start + i}{suit}" for i in range(length)]
    copies = Counter(hand)
    wilds = copies.pop("?", 0)
    if len(hand) > MAX_CARDS or wilds > MAX_WILDS or max(copies.values()) > decks:
        return None
    rng.shuffle(hand)
    return hand


def valid_hand(rng: random.Random, books: int, runs: int) -> list[str]:
    """A shuffled hand that is exactly a valid contract (retries until it fits the limits)."""
    while True:
        hand = _try_valid_hand(rng, books, runs)
        if hand is not None:
            return hand


def near_miss(rng: random.Random, books: int, runs: int) -> list[str]:
    hand = valid_hand(rng, books, runs)
    how = rng.choice(("drop", "add", "change", "change"))
    if how == "drop" or (how == "add" and len(hand) >= MAX_CARDS):
        hand.pop(rng.randrange(len(hand)))
    elif how == "add":
        hand.append(rng.choice(_pool(rng) + ["?"] * 4))
    else:
        i = rng.randrange(len(hand))
        face = hand[i]
        if face == "?":
            hand[i] = f"{rng.randint(1, 13)}{rng.choice(SUITS)}"
        else:
            rank, suit = int(face[:-1]), face[-1]
            choice = rng.choice(("up", "down", "suit", "wild"))
            if choice == "up" and rank < 13:
                rank += 1
            elif choice == "down" and rank > 1:
                rank -= 1
            elif choice == "wild":
                hand[i] = "?"
                rng.shuffle(hand)
                return hand
            else:
                suit = rng.choice(SUITS.replace(suit, ""))
            hand[i] = f"{rank}{suit}"
    rng.shuffle(hand)
    return hand


def make_input(rng: random.Random, kind: str, round_no: int) -> list[str]:
    contract = BGA.contract(round_no)
    min_size = 3 * contract.books + 4 * contract.runs
    if kind == "random":
        return random_hand(rng, min_size)
    if kind == "dense":
        return dense_hand(rng, min_size)
    if kind == "valid":
        return valid_hand(rng, contract.books, contract.runs)
    return near_miss(rng, contract.books, contract.runs)


def _check(hand: list[str], result: list[list[str]] | None, round_no: int) -> None:
    if result is None:
        return
    contract = BGA.contract(round_no)
    assert sorted(f for g in result for f in g) == sorted(hand), (hand, result)
    assert len(result) == contract.books + contract.runs, (hand, result)
    assert all(is_book(g) for g in result[: contract.books]), (hand, result)
    assert all(is_run(g) for g in result[contract.books :]), (hand, result)


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    index = max(0, min(len(sorted_values) - 1, round(q * len(sorted_values) + 0.5) - 1))
    return sorted_values[index]


Sample = tuple[float, bool, list[str], int]  # microseconds, feasible, hand, round


def summarise(samples: list[Sample]) -> dict:
    times = sorted(s[0] for s in samples)
    slowest = max(samples, key=lambda s: s[0])
    return {
        "count": len(samples),
        "feasible_share": round(sum(1 for s in samples if s[1]) / len(samples), 4),
        "median_us": round(percentile(times, 0.50), 1),
        "p90_us": round(percentile(times, 0.90), 1),
        "p99_us": round(percentile(times, 0.99), 1),
        "max_us": round(times[-1], 1),
        "slowest": f"round {slowest[3]}: " + " ".join(sorted(slowest[2], key=_face_key)),
    }


def _face_key(face: str) -> tuple[int, int]:
    return (99, 0) if face == "?" else (SUITS.index(face[-1]), int(face[:-1]))


def retime(samples: list[Sample], worst: int = RETIMED, repeat: int = 5) -> list[dict]:
    """Time the slowest inputs again (best of ``repeat``): a one-off spike that vanishes is
    the machine (scheduler, page faults), one that stays is the solver."""
    clock = time.perf_counter_ns
    out = []
    for elapsed, _, hand, round_no in sorted(samples, key=lambda s: -s[0])[:worst]:
        best = min(_timed(clock, hand, round_no) for _ in range(repeat))
        out.append(
            {
                "round": round_no,
                "hand": " ".join(sorted(hand, key=_face_key)),
                "first_us": round(elapsed, 1),
                "best_of_5_us": round(best, 1),
            }
        )
    return out


def _timed(clock, hand: list[str], round_no: int) -> float:
    t0 = clock()
    find_contract(hand, round_no)
    return (clock() - t0) / 1000


def run(per_round: int, seed: int, check: bool) -> dict:
    rng = random.Random(seed)
    inputs = {
        round_no: [make_input(rng, KINDS[i % len(KINDS)], round_no) for i in range(per_round)]
        for round_no in range(1, BGA.rounds + 1)
    }
    for round_no in inputs:  # warm caches (face parsing) outside the timed calls
        for hand in inputs[round_no][:50]:
            find_contract(hand, round_no)
    # The inputs (hundreds of thousands of objects) are the benchmark's, not the solver's:
    # keep the garbage collector from rescanning them during the timed calls. It stays on
    # for everything the solver allocates.
    gc.collect()
    gc.freeze()
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    rounds = {}
    everything: list[Sample] = []
    by_kind: dict[str, list[Sample]] = {k: [] for k in KINDS}
    clock = time.perf_counter_ns
    for round_no, hands in inputs.items():
        samples = []
        for i, hand in enumerate(hands):
            t0 = clock()
            result = find_contract(hand, round_no)
            elapsed = (clock() - t0) / 1000
            if check:
                _check(hand, result, round_no)
            sample = (elapsed, result is not None, hand, round_no)
            samples.append(sample)
            by_kind[KINDS[i % len(KINDS)]].append(sample)
        rounds[str(round_no)] = {
            "contract": BGA.contract(round_no).describe(),
            **summarise(samples),
        }
        everything += samples
    again = retime(everything)
    cpu_seconds = time.process_time() - cpu_start
    wall_seconds = time.perf_counter() - wall_start
    return {
        "per_round": per_round,
        "seed": seed,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "rounds": rounds,
        "kinds": {k: summarise(v) for k, v in by_kind.items()},
        "overall": summarise(everything),
        "slowest_retimed": again[:10],
        "max_retimed_us": max(s["best_of_5_us"] for s in again),
        # Below 1.0 the process waited for the CPU: single-shot maxima then include other
        # processes' time slices.
        "cpu_share": round(cpu_seconds / wall_seconds, 3),
        "targets": {"p99_us": 1000, "max_us": 10000},
    }


def table(report: dict) -> str:
    head = f"{'':>8} {'contract':<16} {'count':>7} {'feasible':>8} {'p50 us':>8} {'p90 us':>8} {'p99 us':>8} {'max us':>9}"
    lines = [head, "-" * len(head)]

    def row(label: str, contract: str, s: dict) -> str:
        return (
            f"{label:>8} {contract:<16} {s['count']:>7} {s['feasible_share']:>8.1%} "
            f"{s['median_us']:>8.1f} {s['p90_us']:>8.1f} {s['p99_us']:>8.1f} {s['max_us']:>9.1f}"
        )

    for round_no, s in report["rounds"].items():
        lines.append(row(f"round {round_no}", s["contract"], s))
    lines.append("-" * len(head))
    for kind, s in report["kinds"].items():
        lines.append(row(kind, "(all rounds)", s))
    lines.append("-" * len(head))
    overall = report["overall"]
    lines.append(row("overall", "", overall))
    lines.append(f"slowest input: {overall['slowest']}")
    lines.append(
        f"the {RETIMED} slowest inputs timed again (best of 5): max "
        f"{report['max_retimed_us']:.1f} us; CPU share of the run {report['cpu_share']:.0%}"
    )
    p99_ok = overall["p99_us"] < 1000
    lines.append(
        f"targets: p99 < 1000 us {'met' if p99_ok else 'NOT met'}; max < 10000 us "
        f"{'met' if overall['max_us'] < 10000 else 'NOT met'} as measured, "
        f"{'met' if report['max_retimed_us'] < 10000 else 'NOT met'} re-timed"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-round", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="validate every partition found")
    args = parser.parse_args(argv)
    report = run(args.per_round, args.seed, args.check)
    print(json.dumps(report, indent=2))
    print()
    print(table(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
