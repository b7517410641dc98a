"""Issue 15: what the strong bot measures a hand by (bots/eval.py), and how it plays out bga's
round 7 once down (bots/endgame.py)."""

from __future__ import annotations

from games.engine.bots import choose_action
from games.engine.bots.eval import analyse, hand_key, mayi_chances

from .helpers import make_state


def measure(hand: str, books: int, runs: int):
    return analyse(*hand_key(hand.split()), books, runs, 13, False)


def test_three_runs_are_found_where_the_letters_overlap():
    # Three runs of three in two letters: three cards short (the old estimate said twelve).
    a = measure("w1M w2M w3M w6M w7M w8M w9A w10A w11A w5Y w12I w13I", 0, 3)
    assert a.dist == 3
    assert {(4, "M"), (5, "M"), (12, "A"), (8, "A")} <= a.outs


def test_wilds_fill_places_but_every_meld_keeps_two_naturals():
    assert measure("w7M b7A w? b?", 2, 0).dist == 2  # one wild per book of three
    assert measure("w7M b7A w4Y w5Y w?", 1, 1).dist == 2
    assert measure("w7M b7A w4Y w5Y w? b?", 1, 1).dist == 1


def test_outs_of_books_are_the_numbers_that_would_complete_one():
    a = measure("w7M b7A w9Y w9I w3M", 2, 0)
    assert a.dist == 2 and {(7, ""), (9, ""), (0, "?")} <= a.outs and (3, "") not in a.outs


def test_mayi_chances_count_a_rainbow_of_four_in_a_row():
    missing, outs = mayi_chances(hand_key(["w4M", "w5A", "w6Y", "w9I"])[0], "MAYI", 13)
    assert missing == 1 and outs == {(3, "I"), (7, "I")}


def test_strong_never_breaks_a_complete_book_when_someone_is_about_to_go_out():
    # Seat 1 is down with one card: seat 0 still keeps its three 11s (rook, flat penalties).
    st = make_state(
        players=3,
        round=4,
        active=0,
        phase="play",
        ruleset="rook",
        hands={0: "x2G x4K y8K x11K y11K y4R x11R x4Y x8Y x14Y", 1: "y3R"},
        melds={1: "x9R y9R x9G | x13R y13R x13G | x14R y14G y14Y"},
    )
    action = choose_action(st, 0, "strong")
    assert action["type"] == "discard" and action["card"] not in ("x11K", "y11K", "x11R")


def test_round_7_keeps_a_fitting_card_until_the_drawn_one_fits_too():
    # Down in round 7 with 9A (fits the book of 9s) and 2Y (fits nothing): laying the 9 off
    # would leave the 2, which can never be discarded. The bot keeps the 9, sheds the 2.
    st = make_state(
        players=3,
        round=7,
        active=0,
        phase="play",
        hands={0: "w9A w2Y"},
        melds={0: "w3M w4M w5M w6M | w7A w8A b9A w10A | w8Y w9Y w10Y w11Y", 1: "w9M b9M w9I"},
    )
    assert choose_action(st, 0, "strong") == {"type": "discard", "card": "w2Y"}
    # With a fitting card drawn as well, it lays off and goes out.
    st = make_state(
        players=3,
        round=7,
        active=0,
        phase="play",
        hands={0: "w9A w12Y"},
        melds={0: "w3M w4M w5M w6M | w7A w8A b9A w10A | w8Y w9Y w10Y w11Y", 1: "w9M b9M w9I"},
    )
    first = choose_action(st, 0, "strong")
    assert first["type"] == "lay_off"
