"""A player's aggregates as plain counters, and folding one finished game into them.

Everything here is arithmetic on dicts (no database), so the service that finishes a game, the
back-fill and the tests share it. A ``data`` dict holds sums and counts only; the page divides
(:func:`summary`). Overall figures are the rulesets' dicts added together (:func:`merge`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from statistics import median
from typing import Any

Data = dict[str, Any]

ROUNDS = 7
# Upper bounds of the penalty-per-round buckets (the last is open): 0, 1-9, 10-24, ...
PENALTY_BUCKETS = (0, 9, 24, 49, 99)
PENALTY_LABELS = ("0", "1–9", "10–24", "25–49", "50–99", "100+")
# The think times kept for the median: the most recent ones (a median needs the values).
THINK_KEPT = 1000

COUNTERS = (
    "games",
    "rounds",
    "total_sum",
    "score_sum",
    "penalty_sum",
    "rounds_out",
    "win_points",
    "wins",
    "windows",
    "calls",
    "buys",
    "bought_used",
    "rounds_with_buy",
    "rounds_with_buy_made",
    "rounds_without_buy",
    "rounds_without_buy_made",
    "mayi_melds",
    "lay_offs",
    "lay_offs_others",
    "draws_pile",
    "draws_stock",
    "turns",
    "timeouts",
    "clock_seconds",
)


def empty() -> Data:
    """Counters of a player with no finished game.

    >>> empty()["games"], len(empty()["per_round"])
    (0, 7)
    """
    data: Data = dict.fromkeys(COUNTERS, 0)
    data["clock_seconds"] = 0.0
    data["win_points"] = 0.0
    data["places"] = {}  # str(table size) -> [count of place 1, 2, ...]
    data["per_round"] = [
        {"played": 0, "made": 0, "down_turn_sum": 0, "penalty_sum": 0, "hist": [0] * 6}
        for _ in range(ROUNDS)
    ]
    data["think"] = []
    data["best"] = None
    data["worst"] = None
    data["streak"] = {"current": 0, "best": 0}
    data["h2h"] = {}  # str(opponent user id) -> [games together, finished above, below]
    return data


def penalty_bucket(penalty: int) -> int:
    """Index of the bucket a round's penalty falls in.

    >>> [penalty_bucket(p) for p in (0, 5, 10, 49, 50, 120)]
    [0, 1, 2, 3, 4, 5]
    """
    for i, top in enumerate(PENALTY_BUCKETS):
        if penalty <= top:
            return i
    return len(PENALTY_BUCKETS)


@dataclass(frozen=True)
class SeatGame:
    """What one seat did in one finished game: its rounds' records and its result."""

    table_id: int
    players: int
    total: int
    place: int
    winners: int  # seats sharing first place
    finished: str  # ISO time
    rounds: list[dict[str, Any]]  # RoundRecord fields, one per round, in order
    opponents: list[tuple[int, int]]  # (user id, place) of the other people at the table


def counted_place(place: int, players: int, expelled: bool) -> int:
    """The place a player's statistics count for a game: the seat's place, but last for a
    player the clock expelled [D]. The bot that finished their seat may have won it; the win
    is not theirs (their rating ranks them after every person who stayed, stats/ratings.py)."""
    return players if expelled else place


def fold(data: Data, game: SeatGame) -> Data:
    """``data`` with ``game`` added (changes ``data`` in place and returns it). Games are
    folded in the order they finished: the streaks depend on it."""
    data["games"] += 1
    data["total_sum"] += game.total
    size = str(game.players)
    places = data["places"].setdefault(size, [0] * game.players)
    places[game.place - 1] += 1
    won = game.place == 1
    if won:
        data["wins"] += 1
        # A win at N seats is worth N (the expected share of wins is 1/N); shared, divided.
        data["win_points"] += game.players / game.winners
    streak = data["streak"]
    streak["current"] = streak["current"] + 1 if won else 0
    streak["best"] = max(streak["best"], streak["current"])
    entry = {
        "table": game.table_id,
        "total": game.total,
        "place": game.place,
        "players": game.players,
        "finished": game.finished,
    }
    if data["best"] is None or (game.place, game.total) < (
        data["best"]["place"],
        data["best"]["total"],
    ):
        data["best"] = entry
    if data["worst"] is None or (game.place / game.players, game.total) > (
        data["worst"]["place"] / data["worst"]["players"],
        data["worst"]["total"],
    ):
        data["worst"] = entry
    for rec in game.rounds:
        _fold_round(data, rec)
    for user_id, their_place in game.opponents:
        h2h = data["h2h"].setdefault(str(user_id), [0, 0, 0])
        h2h[0] += 1
        h2h[1] += game.place < their_place
        h2h[2] += game.place > their_place
    return data


def _fold_round(data: Data, rec: dict[str, Any]) -> None:
    data["rounds"] += 1
    data["score_sum"] += rec["score"]
    data["penalty_sum"] += rec["penalty"]
    data["rounds_out"] += rec["went_out"]
    for key in (
        "windows",
        "calls",
        "buys",
        "bought_used",
        "mayi_melds",
        "lay_offs",
        "lay_offs_others",
        "draws_pile",
        "draws_stock",
        "turns",
        "timeouts",
    ):
        data[key] += rec[key]
    data["clock_seconds"] = round(data["clock_seconds"] + rec["clock_seconds"], 3)
    made = rec["down_turn"] is not None
    side = "rounds_with_buy" if rec["buys"] else "rounds_without_buy"
    data[side] += 1
    data[side + "_made"] += made
    n = rec["round_no"]
    if 1 <= n <= ROUNDS:
        per = data["per_round"][n - 1]
        per["played"] += 1
        per["penalty_sum"] += rec["penalty"]
        per["hist"][penalty_bucket(rec["penalty"])] += 1
        if made:
            per["made"] += 1
            per["down_turn_sum"] += rec["down_turn"]
    think = data["think"]
    think.extend(rec["think_seconds"])
    if len(think) > THINK_KEPT:
        del think[: len(think) - THINK_KEPT]


def merge(datas: Iterable[Data]) -> Data:
    """The rulesets' aggregates added together (the "overall" column).

    >>> a = empty(); a["games"] = 2; b = empty(); b["games"] = 3
    >>> merge([a, b])["games"]
    5
    """
    out = empty()
    for d in datas:
        for key in COUNTERS:
            out[key] += d.get(key, 0)
        out["clock_seconds"] = round(out["clock_seconds"], 3)
        for size, counts in d["places"].items():
            mine = out["places"].setdefault(size, [0] * len(counts))
            for i, c in enumerate(counts):
                mine[i] += c
        for mine, theirs in zip(out["per_round"], d["per_round"], strict=True):
            for key in ("played", "made", "down_turn_sum", "penalty_sum"):
                mine[key] += theirs[key]
            mine["hist"] = [x + y for x, y in zip(mine["hist"], theirs["hist"], strict=True)]
        out["think"] = out["think"] + d["think"]
        for key, better in (("best", min), ("worst", max)):
            if d[key] is not None:
                candidates = [x for x in (out[key], d[key]) if x is not None]
                if key == "best":
                    out[key] = better(candidates, key=lambda e: (e["place"], e["total"]))
                else:
                    out[key] = better(
                        candidates, key=lambda e: (e["place"] / e["players"], e["total"])
                    )
        out["streak"]["best"] = max(out["streak"]["best"], d["streak"]["best"])
        for uid, (games, above, below) in d["h2h"].items():
            mine_h = out["h2h"].setdefault(uid, [0, 0, 0])
            mine_h[0] += games
            mine_h[1] += above
            mine_h[2] += below
    # The current streak across rulesets needs the order of games: the page takes it from the
    # game history instead (None here).
    out["streak"]["current"] = None
    return out


def ratio(a: float, b: float) -> float | None:
    return None if not b else a / b


def summary(data: Data) -> dict[str, Any]:
    """The figures the page shows, divided out from the counters (None where undefined)."""
    rounds = data["rounds"]
    per_round = []
    for n, per in enumerate(data["per_round"], start=1):
        per_round.append(
            {
                "round": n,
                "played": per["played"],
                "made": per["made"],
                "made_rate": ratio(per["made"], per["played"]),
                "avg_down_turn": ratio(per["down_turn_sum"], per["made"]),
                "avg_penalty": ratio(per["penalty_sum"], per["played"]),
                "hist": list(per["hist"]),
            }
        )
    return {
        "games": data["games"],
        "wins": data["wins"],
        "places": {int(k): v for k, v in sorted(data["places"].items(), key=lambda i: int(i[0]))},
        "win_rate": ratio(data["wins"], data["games"]),
        "normalised_win_rate": ratio(data["win_points"], data["games"]),
        "avg_total": ratio(data["total_sum"], data["games"]),
        "avg_penalty_per_round": ratio(data["penalty_sum"], rounds),
        "avg_score_per_round": ratio(data["score_sum"], rounds),
        "rounds": rounds,
        "rounds_out": data["rounds_out"],
        "per_round": per_round,
        "funnel": {
            "windows": data["windows"],
            "calls": data["calls"],
            "buys": data["buys"],
            "bought_used": data["bought_used"],
            "rounds_with_buy": data["rounds_with_buy"],
            "rounds_with_buy_made": data["rounds_with_buy_made"],
            "rounds_without_buy": data["rounds_without_buy"],
            "rounds_without_buy_made": data["rounds_without_buy_made"],
        },
        "mayi_melds": data["mayi_melds"],
        "lay_offs": data["lay_offs"],
        "lay_offs_others": data["lay_offs_others"],
        "draws_pile": data["draws_pile"],
        "draws_stock": data["draws_stock"],
        "pace": {
            "median_think_seconds": median(data["think"]) if data["think"] else None,
            "turns": data["turns"],
            "clock_seconds": data["clock_seconds"],
            "avg_clock_per_turn": ratio(data["clock_seconds"], data["turns"]),
            "timeouts": data["timeouts"],
        },
        "best": data["best"],
        "worst": data["worst"],
        "streak": dict(data["streak"]),
        "h2h": data["h2h"],
    }
