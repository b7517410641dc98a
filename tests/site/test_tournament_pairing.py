"""Swiss pairing (pure): table sizes for odd counts, no repeated opponents where avoidable,
seats by standings, withdrawals."""

from __future__ import annotations

import random

import pytest

from tournaments.pairing import Plan, pairs_met, plan_sizes, repeats, seat_tables


@pytest.mark.parametrize(
    ("players", "size", "sizes"),
    [
        (9, 3, (3, 3, 3)),
        (10, 3, (4, 3, 3)),
        (11, 3, (4, 4, 3)),
        (7, 4, (4, 3)),
        (9, 4, (5, 4)),
        (13, 6, (7, 6)),
        (4, 3, (4,)),
        (12, 5, (6, 6)),
    ],
)
def test_tables_of_the_size_or_one_more_or_fewer(players, size, sizes):
    plan = plan_sizes(players, size, 3, 8)
    assert plan == Plan(sizes) and sum(plan.sizes) == players
    assert all(abs(s - size) <= 1 for s in plan.sizes)


def test_bots_only_where_no_split_exists():
    # 5 players at tables of 3 when a game needs 3 players: a bot fills one seat.
    assert plan_sizes(5, 3, 3, 8) == Plan((3, 3), bots=1)
    # Where games of 2 are allowed (rook) no bot is needed.
    assert plan_sizes(5, 3, 2, 8) == Plan((3, 2))
    # Withdrawals leave 2 players at tables of 4: one table of 3 with a bot.
    assert plan_sizes(2, 4, 3, 8) == Plan((3,), bots=1)


def test_seated_by_standings_when_nobody_met():
    ranked = list("ABCDEFGHI")
    assert seat_tables(ranked, [3, 3, 3], set()) == [list("ABC"), list("DEF"), list("GHI")]


def test_no_repeat_opponents_where_avoidable():
    # 9 players at tables of 3 can play 4 rounds without meeting anyone twice: whatever the
    # standings, the pairing finds such rounds.
    for trial in range(40):
        rnd = random.Random(trial)
        players = list(range(9))
        met: set[frozenset[int]] = set()
        for _ in range(4):
            rnd.shuffle(players)
            tables = seat_tables(players, [3, 3, 3], met)
            assert repeats(tables, met) == 0, (trial, tables)
            met |= pairs_met(tables)


def test_repeats_kept_to_the_fewest_when_unavoidable():
    # 6 players at two tables of 3 after A B C | D E F: each new table of 3 holds two who met.
    met = pairs_met(["ABC", "DEF"])
    tables = seat_tables(list("ABCDEF"), [3, 3], met)
    assert repeats(tables, met) == 2
    assert sorted(p for t in tables for p in t) == list("ABCDEF")


def test_a_withdrawn_player_is_simply_not_seated():
    met = pairs_met(["ABC", "DEF", "GHI"])
    ranked = [p for p in "ABCDEFGHI" if p != "E"]  # E withdrew
    plan = plan_sizes(len(ranked), 3, 3, 8)
    assert plan.sizes == (4, 4)
    tables = seat_tables(ranked, list(plan.sizes), met)
    assert "E" not in {p for t in tables for p in t}
    # 8 players from three tables of 3 at two tables of 4: some must meet again, as few as can.
    assert repeats(tables, met) == 2


def test_the_best_ranked_sit_at_table_one():
    met = pairs_met(["ABC", "DEF", "GHI"])
    tables = seat_tables(list("ADGBEHCFI"), [3, 3, 3], met)
    assert tables[0] == list("ADG")
