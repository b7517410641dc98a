"""docs/RULES.md section 9, row by row, for ``petras`` and ``classic`` (the standard-card variants)
against ``bga``; rook's own rows are in test_variants_rook.py. Each test says which row."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import IllegalMove, new_game
from games.engine.cards import parse_card
from games.engine.rulesets import RULESETS
from games.engine.scoring import places
from games.engine.state import start_round

from .helpers import act, event, make_state, next_stock, refused, run, top, types

STANDARD = ["petras", "classic"]


# -- players, packs, wild limits, dealt --------------------------------------------------------
@pytest.mark.parametrize(
    "ruleset, low, high", [("bga", 3, 8), ("petras", 3, 6), ("classic", 3, 8), ("rook", 2, 8)]
)
def test_row_players(ruleset, low, high):
    new_game(low, "s", ruleset)
    new_game(high, "s", ruleset)
    for players in (low - 1, high + 1):
        with pytest.raises(IllegalMove) as info:
            new_game(players, "s", ruleset)
        assert info.value.code == "bad_options"


def all_cards(st):
    cards = [c for h in st["hands"] for c in h] + st["stock"] + st["discard"]
    return cards


@pytest.mark.parametrize(
    "ruleset, players, total",
    [
        ("bga", 6, 106),
        ("bga", 7, 159),
        ("petras", 3, 108),
        ("petras", 4, 108),
        ("petras", 5, 162),
        ("petras", 6, 162),
        ("classic", 3, 108),
        ("classic", 4, 108),
        ("classic", 5, 162),
        ("classic", 6, 162),
        ("classic", 7, 216),
        ("classic", 8, 216),
        ("rook", 2, 116),
        ("rook", 5, 116),
        ("rook", 6, 173),
        ("rook", 8, 173),
    ],
)
def test_row_packs(ruleset, players, total):
    cards = all_cards(new_game(players, "packs", ruleset))
    assert len(cards) == total and len(set(cards)) == total
    wilds = sum(1 for c in cards if parse_card(c)[0] == 0)
    decks = RULESETS[ruleset].decks(players)
    expected = {"bga": decks, "petras": 2 * decks, "classic": 2 * decks, "rook": decks + 2}
    assert wilds == expected[ruleset]


@pytest.mark.parametrize("ruleset", STANDARD)
def test_row_wild_limits_as_bga(ruleset):
    hand = "pQH pQS p*R p*B p3C p4C p5C p6C p9D p10D"
    st = make_state(players=3, round=1, ruleset=ruleset, phase="play", hands={0: hand})
    refused(st, 0, ("lay_down", {"melds": [["pQH", "p*R", "p*B"], ["p3C", "p4C", "p5C"]]}), None)
    with pytest.raises(IllegalMove) as info:
        act(st, 0, "lay_down", melds=[["pQH", "pQS", "p*R", "p*B"], ["p3C", "p4C", "p5C"]])
    assert info.value.code in ("invalid_meld", "wrong_contract")


@pytest.mark.parametrize(
    "ruleset, sizes",
    [
        ("bga", [6, 7, 8, 9, 10, 11, 12]),
        ("petras", [10, 10, 10, 12, 12, 12, 12]),
        ("classic", [10, 10, 10, 12, 12, 12, 12]),
        ("rook", [6, 7, 8, 9, 10, 11, 12]),
    ],
)
def test_row_dealt(ruleset, sizes):
    st = new_game(4, "deal", ruleset)
    seen = []
    for _ in range(7):
        seen.append(len(st["hands"][0]))
        assert {len(h) for h in st["hands"]} == {seen[-1]}
        start_round(st, []) if st["round"] < 7 else None
    assert seen == sizes


# -- round 7 -------------------------------------------------------------------------------
RUNS_12 = "p3H p4H p5H p6H p7S p8S p9S p10S pJD pQD pKD pAD"


@pytest.mark.parametrize("ruleset", STANDARD)
def test_row_round7_three_runs_and_a_final_discard_as_usual(ruleset):
    st = make_state(
        players=3, round=7, ruleset=ruleset, phase="play", hands={0: RUNS_12 + " p2C p9C"}
    )
    st, _ = act(st, 0, "lay_down", cards=RUNS_12)
    refused(st, 0, ("pass", {}), "no_pass")
    st, _ = act(st, 0, "discard", card="p9C")
    assert st["active"] == 1
    st = make_state(
        players=3,
        round=7,
        ruleset=ruleset,
        phase="play",
        hands={0: "p2C"},
        melds={
            0: RUNS_12.replace("p3H", "|p3H")
            .replace("p7S", "|p7S")
            .replace("pJD", "|pJD")
            .lstrip("|")
        },
    )
    st, events = act(st, 0, "discard", card="p2C")  # going out with the final discard
    assert event(events, "round_ended")["went_out"] == 0


def test_row_round7_bga_has_no_final_discard():
    st = make_state(
        players=3, round=7, phase="play", hands={0: "w2M"}, melds={0: "w4I w5I w6I w7I"}
    )
    refused(st, 0, ("discard", {"card": "w2M"}), "no_final_discard")


# -- lay-off on the lay-down turn ------------------------------------------------------------
@pytest.mark.parametrize("ruleset", STANDARD)
def test_row_no_lay_off_on_the_lay_down_turn(ruleset):
    hand = "pQH pQS pQD p7C p7D p7S p7H p2C p9D"
    st = make_state(players=3, round=1, ruleset=ruleset, phase="play", hands={0: hand})
    st, _ = act(st, 0, "lay_down", melds=[["pQH", "pQS", "pQD"], ["p7C", "p7D", "p7S"]])
    refused(st, 0, ("lay_off", {"card": "p7H", "meld": "m2"}), "not_this_turn")
    st, _ = act(st, 0, "discard", card="p9D")
    st = dict(st, active=0, phase="play")  # seat 0's next turn, straight to play
    st, _ = act(st, 0, "lay_off", card="p7H", meld="m2")
    assert "p7H" in st["melds"][1]["cards"]


def test_row_bga_lays_off_on_the_lay_down_turn():
    st = make_state(players=3, round=1, phase="play", hands={0: "w7M w7A w7Y w9M w9A w9Y w7I w2M"})
    st, _ = act(st, 0, "lay_down", melds=[["w7M", "w7A", "w7Y"], ["w9M", "w9A", "w9Y"]])
    st, _ = act(st, 0, "lay_off", card="w7I", meld="m1")


# -- buying: no cap, not twice in a row, who may claim, sale before the draw ----------------------
def sale_state(ruleset, **kw):
    """Seat 0 to draw; seat 3 discarded the top; the pile holds cards by seats 1 and 2 below."""
    base = dict(
        players=4,
        round=2,
        ruleset=ruleset,
        discard="p2C p3C p4C",
        stock="p5D p6D p7D p8D p9D",
        active=0,
    )
    base.update(kw)
    st = make_state(**base)
    st["discard_from"] = [1, 2, 3]
    return st


@pytest.mark.parametrize("ruleset", STANDARD)
def test_row_sale_first_then_the_active_player_draws(ruleset):
    st = sale_state(ruleset)
    hand0 = st["hands"][0][:]
    st, events = act(st, 0, "draw", source="stock")
    assert st["phase"] == "selling" and st["hands"][0] == hand0
    assert "drew" not in types(events) and st["window"]["eligible"] == [1, 2]
    refused(st, 0, ("discard", {"card": hand0[0]}), "sale_pending")
    st, _ = act(st, 1, "may_i")
    # Seat 1 bought p4C + p5D; the uncovered p3C is offered again, seat 1 may not take it.
    assert "p4C" in st["hands"][1] and "p5D" in st["hands"][1]
    # seat 1 just bought, seat 2 discarded p3C: seat 3 alone may buy it.
    assert st["window"]["card"] == "p3C" and st["window"]["eligible"] == [3]
    refused(st, 1, ("may_i", {}), "not_eligible")
    refused(st, 2, ("may_i", {}), "not_eligible")
    st, events = act(st, 3, "no_thanks")
    assert st["phase"] == "play" and st["hands"][0] == [*hand0, "p6D"]
    assert event(events, "drew")["seat"] == 0


def test_row_bga_active_draws_first_then_the_sale():
    st = make_state(players=4, round=2, discard="w2M", stock="w5A w6A w7A", active=0)
    hand0 = st["hands"][0][:]
    st, _ = act(st, 0, "draw", source="stock")
    assert st["phase"] == "play" and st["hands"][0] == [*hand0, "w5A"]
    assert st["window"] is not None


@pytest.mark.parametrize("ruleset", STANDARD)
def test_row_sale_chain_lets_another_seat_buy_the_uncovered_card(ruleset):
    st = sale_state(ruleset)
    st["discard_from"] = [1, 1, 3]
    st, _ = act(st, 0, "draw", source="stock")
    st, _ = act(st, 1, "may_i")
    assert st["window"]["card"] == "p3C" and st["window"]["eligible"] == [2, 3]
    st, _ = act(st, 2, "may_i")
    assert "p3C" in st["hands"][2] and st["buys"] == [0, 1, 1, 0]
    # p2C: seat 2 just bought, seat 1 discarded it: seat 3 alone may buy it.
    assert st["window"]["eligible"] == [3]
    st, _ = act(st, 3, "no_thanks")
    assert st["phase"] == "play"


@pytest.mark.parametrize("ruleset", STANDARD)
def test_row_no_buy_cap(ruleset):
    st = sale_state(ruleset, buys=[0, 7, 0, 0])
    st, _ = act(st, 0, "draw", source="stock")
    st, _ = act(st, 1, "may_i")
    assert st["buys"][1] == 8


def test_row_bga_caps_buys_at_three():
    st = make_state(players=4, round=2, discard="w2M", active=0, buys=[0, 3, 0, 0])
    refused(st, 1, ("may_i", {}), "not_eligible")


@pytest.mark.parametrize("ruleset", STANDARD)
def test_row_who_may_claim_not_the_active_player_nor_the_discarder(ruleset):
    st = sale_state(ruleset)
    refused(st, 0, ("may_i", {}), "not_eligible")
    refused(st, 3, ("may_i", {}), "not_eligible")
    st, _ = act(st, 2, "may_i")  # an early answer [D]
    st, _ = act(st, 0, "draw", source="stock")
    st, _ = act(st, 1, "no_thanks")
    assert "p4C" in st["hands"][2]


@pytest.mark.parametrize("ruleset", STANDARD)
def test_row_the_active_player_may_take_the_discard_without_penalty(ruleset):
    st = sale_state(ruleset)
    st, _ = act(st, 1, "may_i")
    n = len(st["hands"][0])
    st, _ = act(st, 0, "draw", source="discard")
    assert len(st["hands"][0]) == n + 1 and st["buys"] == [0, 0, 0, 0] and st["window"] is None


def test_petras_does_not_complete_a_purchase_without_a_penalty_card():
    st = sale_state("petras", stock="", discard="p2C p4C", rest=2)
    st["discard_from"] = [1, 3]
    assert Counter(all_cards(st))["p4C"] == 1
    st, _ = act(st, 0, "draw", source="stock")
    st, events = act(st, 1, "may_i")
    assert "sale_cancelled" in types(events) and "p4C" not in st["hands"][1]
    # Unsold, p4C stays on top and the pile under it makes the stock the active player draws.
    assert top(st) == "p4C" and st["hands"][0][-1] == "p2C" and st["buys"] == [0, 0, 0, 0]


def test_classic_completes_the_purchase_then_ends_the_round_on_the_stock():
    st = sale_state("classic", stock="", discard="p2C p4C", rest=2)
    st["discard_from"] = [1, 3]
    st, _ = act(st, 0, "draw", source="stock")
    st, events = act(st, 1, "may_i")
    assert event(events, "bought")["card"] == "p4C"
    assert event(events, "round_ended")["reason"] == "stock_exhausted"


# -- jokers fixed, MAYI meld -------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", [*STANDARD, "bga"])
def test_row_tabled_wilds_never_move(ruleset):
    if ruleset == "bga":
        st = make_state(players=3, phase="play", hands={0: "w7I w2M"}, melds={1: "w7M w7A w?"})
        natural = "w7I"
    else:
        st = make_state(
            players=3,
            ruleset=ruleset,
            phase="play",
            hands={0: "p7H p2C"},
            melds={1: "p7S p7D p*R"},
            hand_size=10,
        )
        natural = "p7H"
    refused(st, 0, ("swap_wild", {"meld": "m1", "card": natural}), "no_wild_swaps")


@pytest.mark.parametrize("ruleset", [*STANDARD, "rook"])
def test_row_no_mayi_melds(ruleset):
    st = new_game(3, "mayi", ruleset)
    hand = st["hands"][st["active"]][:4]
    refused(st, st["active"], ("mayi_meld", {"cards": hand}), "no_mayi_melds")


# -- end of round -------------------------------------------------------------------------------
def test_row_petras_goes_out_only_with_the_final_discard():
    st = make_state(
        players=3,
        round=1,
        ruleset="petras",
        phase="play",
        hands={0: "p7H"},
        melds={0: "p7S p7D p7C | pQH pQS pQD"},
    )
    refused(st, 0, ("lay_off", {"card": "p7H", "meld": "m1"}), "keep_a_discard")
    st, events = act(st, 0, "discard", card="p7H")
    assert event(events, "round_ended")["went_out"] == 0
    hand = "pQH pQS pQD p7C p7D p7S"
    st = make_state(players=3, round=1, ruleset="petras", phase="play", hands={0: hand})
    refused(st, 0, ("lay_down", {"cards": hand.split()}), "keep_a_discard")


def test_row_classic_goes_out_by_laying_off_too():
    st = make_state(
        players=3,
        round=1,
        ruleset="classic",
        phase="play",
        hands={0: "p7H"},
        melds={0: "p7S p7D p7C | pQH pQS pQD"},
    )
    st, events = act(st, 0, "lay_off", card="p7H", meld="m1")
    assert event(events, "round_ended")["went_out"] == 0


def test_row_classic_both_piles_empty_ends_with_no_winner():
    st = make_state(players=3, round=1, ruleset="classic", discard="p2C", stock="", rest=0)
    st, events = act(st, 0, "draw", source="stock")
    st, events = act(st, 1, "no_thanks")
    ended = event(events, "round_ended")
    assert ended["went_out"] is None and ended["reason"] == "stock_exhausted"
    assert all(p > 0 for p in ended["penalties"])


# -- penalties and ties ---------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", STANDARD)
def test_row_penalties_joker_25_ace_15_faces_10_numerals_face(ruleset):
    st = make_state(
        players=3,
        round=1,
        ruleset=ruleset,
        phase="play",
        discard="p3S",
        hands={0: "p9C", 1: "p*R pAS pKH pQD pJC", 2: "p2H p10D p9S"},
        melds={0: "p7S p7D p7C | pQH pQS qQD"},
    )
    st, events = act(st, 0, "discard", card="p9C")
    assert event(events, "round_ended")["penalties"] == [0, 25 + 15 + 30, 21]


@pytest.mark.parametrize("ruleset", STANDARD)
def test_row_ties_are_shared(ruleset):
    rules = RULESETS[ruleset]
    assert not rules.ties_broken_by_rounds_out
    assert places([50, 40, 50], [3, 1, 0], rules.ties_broken_by_rounds_out) == [2, 1, 2]
    assert places([50, 40, 50], [3, 1, 0], RULESETS["bga"].ties_broken_by_rounds_out) == [2, 1, 3]


def test_next_stock_and_top_helpers_work_for_standard_cards():
    st = sale_state("petras")
    assert top(st) == "p4C" and next_stock(st, 2) == ["p5D", "p6D"]
    run(st, (0, "draw", {"source": "discard"}))
