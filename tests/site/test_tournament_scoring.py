"""Duplicate scoring against the example worked by hand in docs/TOURNAMENTS.md, and the
standings' tie-breaks. Pure functions: no database."""

from __future__ import annotations

from pathlib import Path

from tournaments.scoring import GameLine, SeatOutcome, duplicate_scores, place_points, standings

DOC = Path(__file__).resolve().parents[2] / "docs" / "TOURNAMENTS.md"

# Round 2's deal of 3 seats, played at tables A, B and C (docs/TOURNAMENTS.md, "An example").
NAMES = {"A": ["ann", "bea", "cal"], "B": ["dan", "eve", "fay"], "C": ["gus", "hal", "ida"]}
DEAL = [
    [SeatOutcome(120), SeatOutcome(45), SeatOutcome(200)],
    [SeatOutcome(80), SeatOutcome(150), SeatOutcome(60)],
    # ida withdrew during the game: the bot finished it for 310, the seat scores last.
    [SeatOutcome(120), SeatOutcome(90), SeatOutcome(310, forfeited=True)],
]


def test_place_points_by_hand():
    assert [place_points(t) for t in DEAL] == [[1, 2, 0], [1, 0, 2], [1, 2, 0]]


def test_duplicate_scores_by_hand():
    assert duplicate_scores(DEAL) == [[0.0, 1.0, 0.5], [1.0, 0.0, 1.0], [0.0, 0.5, 0.0]]


def test_a_deal_at_one_table_compares_with_nobody():
    assert duplicate_scores([[SeatOutcome(10), SeatOutcome(20)]]) == [[0.5, 0.5]]


def test_standings_and_tie_breaks_by_hand():
    points = [place_points(t) for t in DEAL]
    dups = duplicate_scores(DEAL)
    names = {n: n for table in NAMES.values() for n in table}
    games = []
    for t, key in enumerate("ABC"):
        seated = NAMES[key]
        for position, name in enumerate(seated):
            others = tuple(n for n in seated if n != name)
            games.append(GameLine(name, points[t][position], dups[t][position], others))
    ranked = standings(names, games)
    assert [(s.rank, s.name, s.total, s.opponents) for s in ranked] == [
        (1, "fay", 3.0, 2.0),
        (2, "bea", 3.0, 1.5),
        (3, "hal", 2.5, 1.0),
        (4, "dan", 2.0, 3.0),
        (5, "ann", 1.0, 3.5),
        (6, "gus", 1.0, 2.5),
        (7, "cal", 0.5, 4.0),
        (8, "eve", 0.0, 5.0),
        (9, "ida", 0.0, 3.5),
    ]


def test_the_docs_give_the_same_numbers():
    text = DOC.read_text()
    for row in (
        "| ann | A | 1 | 120 | 1 | 0 | 1 |",
        "| hal | C | 2 | 90 | 2 | 0.5 | 2.5 |",
        "| ida | C | 3 | 310 (withdrew) | 0 | 0 | 0 |",
    ):
        assert row in text, row
