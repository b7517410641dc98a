"""The bots at each ruleset: the new flows (selling, rook's calls and swaps, round 7's choice,
petras keeping a card for the final discard) and a small strength check against random."""

from __future__ import annotations

import pytest

from games.engine.bots import choose_action
from games.engine.legal import contract_melds, legal_actions
from games.engine.simulate import play_game

from .helpers import act, make_state


def test_petras_bot_keeps_a_card_for_the_final_discard():
    # All seven cards make two books; petras keeps one back to discard.
    hand = "pQH pQS pQD p7C p7D p7S p7H"
    st = make_state(players=3, round=1, ruleset="petras", phase="play", hands={0: hand})
    melds = contract_melds(st, 0)
    assert melds is not None and sum(map(len, melds)) == 6
    act(st, 0, "lay_down", melds=melds)
    assert any(a["type"] == "lay_down" for a in legal_actions(st, 0))


def test_rook_bot_swaps_a_natural_that_fits_nowhere_else_then_lays_the_wild_off():
    st = make_state(
        players=3,
        round=3,
        ruleset="rook",
        phase="play",
        hands={0: "x9R x3K x12K"},
        melds={1: "x7R x8R x* x10R | x5Y y5Y x5K"},
        down={0, 1},
    )
    action = choose_action(st, 0)
    assert action == {"type": "swap_wild", "meld": "m1", "card": "x9R"}
    st, _ = act(st, 0, "swap_wild", meld="m1", card="x9R")
    action = choose_action(st, 0)
    assert action["type"] == "lay_off" and action["card"] == "x*"


def test_rook_strong_takes_a_discard_that_only_adds_outs():
    # One card short (the 9s), and the yellow 3's partner makes a second pair to finish with
    # (more outs): with one point a card the strong bot takes it (bots/tuning.py's
    # FLAT_PENALTIES); the stock's card is an out only one time in ten.
    hand = "x5R y5K x5G x9R y9K x3Y x12K x7G"
    st = make_state(players=4, round=1, ruleset="rook", hands={0: hand}, discard="y3K")
    assert choose_action(st, 0, "strong") == {"type": "draw", "source": "discard"}


def test_rook_strong_draws_from_the_stock_when_it_is_likely_an_out():
    # Three cards short either way: the green 4 beside the green 2 opens a second run (more
    # outs), but a quarter of the cards not seen would bring the hand nearer (take_ev).
    hand = "y13Y x10G y2G x12K y2K x13R x2R"
    st = make_state(players=4, round=2, ruleset="rook", hands={0: hand}, discard="y4G")
    assert choose_action(st, 0, "strong") == {"type": "draw", "source": "stock"}


def test_rook_strong_buys_a_third_time_for_a_book():
    # Four cards over the deal (two purchases made): a third purchase completing a book still
    # pays at one point a card (bots/tuning.py's FLAT_PENALTIES; the default stops at two over).
    hand = "x5R y5K x9G x1Y x3R x7K x11G x13Y x14R x2K"
    st = make_state(players=4, round=1, ruleset="rook", active=0, hands={1: hand}, discard="x5G")
    assert choose_action(st, 1, "strong") == {"type": "may_i"}


def test_the_active_bot_waits_while_its_stock_draw_is_on_sale():
    st = make_state(players=4, round=2, ruleset="classic", discard="p4C", active=0)
    st, _ = act(st, 0, "draw", source="stock")
    assert st["phase"] == "selling"
    assert choose_action(st, 0) is None
    assert choose_action(st, 1)["type"] in ("may_i", "no_thanks")


@pytest.mark.parametrize("ruleset", ["petras", "classic", "rook"])
def test_heuristic_beats_random(ruleset):
    policies = ("heuristic", "random")
    for g in range(2):  # bench/simulate.py --ruleset R measures it over many games
        final, _, problems = play_game(3, f"duel:{g}", ruleset, policies, checks=False)
        assert not problems
        totals = final["totals"]
        assert (totals[0] + totals[2]) / 2 < totals[1]


def test_petras_strong_keeps_building_while_the_down_seat_holds_three_cards():
    # Seat 1 is down with three cards it could not lay off: it needs two more turns at least,
    # so seat 0 keeps its pair of aces (half of its contract) and sheds its dearest single.
    # (Under bga's weights three cards left already counts as the round's end: the ace goes.)
    st = make_state(
        players=4,
        round=1,
        active=0,
        phase="play",
        ruleset="petras",
        hands={0: "pAS pAH p7D p7C p2H p3C p4D p5S p6H p8C p9D", 1: "q3S q4H q5H"},
        melds={1: "pKS pKH pKD | qJS qJH qJD"},
    )
    assert choose_action(st, 0, "strong") == {"type": "discard", "card": "p9D"}


def test_normal_sheds_a_dear_card_once_another_seat_is_down():
    # Classic round 2 (a book and a run): the queen and the nine of spades are three apart, a
    # weak start of a run; the two of hearts helps nothing. With nobody down the heuristic
    # keeps the queen; once a seat is down (it may go out next turn) normal sheds it.
    hand = "pQS p9S p2H p5D q5D p7C q7C p8C"
    st = make_state(players=4, round=2, ruleset="classic", active=0, phase="play", hands={0: hand})
    assert choose_action(st, 0, "normal") == {"type": "discard", "card": "p2H"}
    down = make_state(
        players=4,
        round=2,
        ruleset="classic",
        active=0,
        phase="play",
        hands={0: hand},
        melds={1: "pKS pKH pKD | p3H p4H p5H p6H"},
    )
    assert choose_action(down, 0, "normal") == {"type": "discard", "card": "pQS"}
    assert choose_action(down, 0, "baseline") == {"type": "discard", "card": "p2H"}
