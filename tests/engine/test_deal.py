"""docs/RULES.md sections 1 and 2: decks, deal sizes, the dealer and who plays first."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import IllegalMove, new_game
from games.engine.rulesets import BGA

from .helpers import act, event, make_state


def all_cards(st):
    out = [c for h in st["hands"] for c in h] + st["stock"] + st["discard"]
    return out + [c for m in st["melds"] for c in m["cards"]]


@pytest.mark.parametrize("players, decks", [(3, 2), (4, 2), (5, 2), (6, 2), (7, 3), (8, 3)])
def test_two_decks_for_3_to_6_players_three_for_7_and_8(players, decks):
    st = new_game(players, f"decks-{players}")
    cards = all_cards(st)
    assert len(cards) == 53 * decks == len(set(cards))
    assert Counter(c[0] for c in cards) == dict(zip("wbg", [53] * decks, strict=False))
    assert sum(1 for c in cards if c.endswith("?")) == decks


@pytest.mark.parametrize("players", [0, 1, 2, 9, 20, -1, "4", 4.0, True, None])
def test_bga_is_for_3_to_8_players(players):
    with pytest.raises(IllegalMove) as info:
        new_game(players, "x")
    assert info.value.code == "bad_options"


def test_new_game_refuses_a_bad_seed_or_ruleset():
    for seed in ("", None, 5):
        with pytest.raises(IllegalMove):
            new_game(4, seed)
    with pytest.raises(IllegalMove) as info:
        new_game(4, "x", ruleset="nope")
    assert info.value.code == "bad_options"


@pytest.mark.parametrize("players", range(3, 9))
def test_round_1_deal(players):
    st = new_game(players, "deal")
    assert st["round"] == 1 and st["phase"] == "draw"
    assert [len(h) for h in st["hands"]] == [6] * players
    assert len(st["discard"]) == 1 and st["discard_from"] == [None]
    assert len(st["stock"]) == 53 * (3 if players > 6 else 2) - 6 * players - 1
    assert st["active"] == (st["dealer"] + 1) % players


def test_the_round_1_dealer_comes_from_the_seed():
    dealers = {new_game(4, f"seed-{i}")["dealer"] for i in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert new_game(4, "same")["dealer"] == new_game(4, "same")["dealer"]
    assert new_game(4, "same") == new_game(4, "same")


@pytest.mark.parametrize("round_no", range(1, 7))
def test_the_next_round_is_dealt_by_the_next_seat_with_one_more_card(round_no):
    st = make_state(
        players=4, round=round_no, phase="play", hands={0: "w2M"}, down={0}, active=0, dealer=3
    )
    st, events = act(st, 0, "discard", card="w2M")
    started = event(events, "round_started")
    size = BGA.deal_size(round_no + 1)
    assert size == 6 + round_no
    assert st["round"] == round_no + 1 and started["round"] == round_no + 1
    assert st["dealer"] == 0 == started["dealer"], "the deal passes one seat clockwise"
    assert st["active"] == 1 == started["active"], "the seat after the dealer plays first"
    assert [len(h) for h in st["hands"]] == [size] * 4
    assert len(st["discard"]) == 1 and st["discard_from"] == [None]
    assert started["discard_top"] == st["discard"][-1]
    assert len(st["stock"]) == 106 - 4 * size - 1
    # Everything of the old round is gone.
    assert st["melds"] == [] and st["down"] == [False] * 4 and st["buys"] == [0] * 4
    assert st["mayi_count"] == [0] * 4 and st["reshuffles"] == 0
    assert st["window"] is None and st["held"] is None and st["early"] == [None] * 4
    assert st["phase"] == "draw"


def test_the_dealer_wraps_around_the_table():
    st = make_state(players=3, phase="play", hands={0: "w2M"}, down={0}, dealer=2)
    st, _ = act(st, 0, "discard", card="w2M")
    assert st["dealer"] == 0 and st["active"] == 1
    st = make_state(players=3, active=2, phase="play", hands={2: "w2M"}, down={2}, dealer=1)
    st, _ = act(st, 2, "discard", card="w2M")
    assert st["dealer"] == 2 and st["active"] == 0


def test_contracts_and_deal_sizes_table():
    assert [(c.books, c.runs) for c in BGA.contracts] == [
        (2, 0),
        (1, 1),
        (0, 2),
        (3, 0),
        (2, 1),
        (1, 2),
        (0, 3),
    ]
    assert BGA.deal_sizes == (6, 7, 8, 9, 10, 11, 12)


@pytest.mark.parametrize(
    "options",
    [
        {"never_buy": True},
        {"never_buy": 3},
        {"never_buy": "yes"},
        {"never_buy": [True, False]},
        {"never_buy": [True, False, "no"]},
        {"never_buy": [1, 0, 0]},
        {"never_buy": {"0": True}},
        ["never_buy"],
        "never_buy",
    ],
)
def test_bad_options_are_refused_as_illegal_moves(options):
    # The site asks new_game to vet the options a user submits: never a TypeError (a 500).
    with pytest.raises(IllegalMove) as info:
        new_game(3, "opts", options=options)
    assert info.value.code == "bad_options"


@pytest.mark.parametrize("ruleset", [None, 5, ["bga"], {"bga": 1}])
def test_a_ruleset_that_is_no_name_is_refused(ruleset):
    with pytest.raises(IllegalMove) as info:
        new_game(3, "opts", ruleset=ruleset)
    assert info.value.code == "bad_options"


def test_good_options_are_kept():
    st = new_game(3, "opts", options={"never_buy": [False, True, False]})
    assert st["never_buy"] == [False, True, False]
    assert new_game(3, "opts", options={})["never_buy"] == [False] * 3
    assert new_game(3, "opts", options=None)["never_buy"] == [False] * 3
