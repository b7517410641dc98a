"""docs/RULES.md section 9, the ``rook`` column: round 7's choice, the "May I?" flow where the
active player decides, wild swaps, last turns, one point a card, shared ties."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, legal_actions, new_game, view
from games.engine.bots import choose_action
from games.engine.rulesets import ROOK
from games.engine.scoring import places

from .helpers import act, event, make_state, refused, top, types

RUNS = "x1R x2R x3R x4R | x5G x6G x7G x8G | x10Y x11Y x12Y x13Y"
BOOKS = "x5R y5G x5Y | x9K y9K x9G | x14R x14G x14Y | x2R x2G x2Y"


def flat(text: str) -> str:
    return text.replace("|", " ")


# -- round 7: three runs or four books ----------------------------------------------------------
def r7(option=None, hand=""):
    opts = {} if option is None else {"round7": option}
    return make_state(
        players=3, round=7, ruleset="rook", options=opts, phase="play", hands={0: hand}
    )


def test_row_round7_each_player_chooses_runs_or_books_by_default():
    st, events = act(r7(hand=flat(RUNS) + " x9K"), 0, "lay_down", cards=flat(RUNS))
    assert [m["kind"] for m in st["melds"]] == ["run"] * 3
    st, events = act(r7(hand=flat(BOOKS) + " x7K"), 0, "lay_down", cards=flat(BOOKS))
    assert [m["kind"] for m in st["melds"]] == ["book"] * 4
    assert view(st, 0)["contracts"] == [
        {"books": 0, "runs": 3, "text": "3 runs"},
        {"books": 4, "runs": 0, "text": "4 books"},
    ]


def test_row_round7_one_for_all_books():
    st = r7("books", flat(RUNS) + " x9K")
    refused(st, 0, ("lay_down", {"cards": flat(RUNS)}), "no_contract")
    refused(st, 0, ("lay_down", {"melds": RUNS}), "wrong_contract")
    act(r7("books", flat(BOOKS) + " x7K"), 0, "lay_down", melds=BOOKS)


def test_row_round7_one_for_all_runs():
    refused(r7("runs", flat(BOOKS) + " x7K"), 0, ("lay_down", {"melds": BOOKS}), "wrong_contract")
    act(r7("runs", flat(RUNS) + " x9K"), 0, "lay_down", melds=RUNS)


BOTH = "x1R x2R x3R x4R x1G x2G x3G x4G x1Y x2Y x3Y x4Y"  # three runs, or four books


def test_round7_a_lay_down_of_cards_may_name_its_contract():
    st, _ = act(r7(hand=BOTH + " x9K"), 0, "lay_down", cards=BOTH)
    assert [m["kind"] for m in st["melds"]] == ["run"] * 3  # unnamed: the usual contract first
    books = {"books": 4, "runs": 0}
    st, _ = act(r7(hand=BOTH + " x9K"), 0, "lay_down", cards=BOTH, contract=books)
    assert [m["kind"] for m in st["melds"]] == ["book"] * 4
    refused(
        r7(hand=flat(RUNS) + " x9K"),
        0,
        ("lay_down", {"cards": flat(RUNS), "contract": books}),
        "no_contract",
    )
    refused(
        r7(hand=flat(BOOKS) + " x7K"),
        0,
        ("lay_down", {"melds": BOOKS, "contract": {"books": 0, "runs": 3}}),
        "wrong_contract",
    )
    refused(
        r7("runs", BOTH + " x9K"),
        0,
        ("lay_down", {"cards": BOTH, "contract": books}),
        "wrong_contract",
    )
    for bad in ("books", {"books": 4}, {"books": True, "runs": 0}, {"books": 4, "runs": 0, "x": 1}):
        refused(
            r7(hand=BOTH + " x9K"), 0, ("lay_down", {"cards": BOTH, "contract": bad}), "bad_action"
        )


def test_round7_option_is_vetted():
    with pytest.raises(IllegalMove) as info:
        new_game(4, "s", "rook", {"round7": "both"})
    assert info.value.code == "bad_options"
    with pytest.raises(IllegalMove):
        new_game(4, "s", "petras", {"round7": "books"})


def test_a_rook_run_reaches_14():
    st = make_state(
        players=3,
        round=3,
        ruleset="rook",
        phase="play",
        hands={0: "x11R x12R x13R x14R x1G x2G x3G x* x5K"},
    )
    st, _ = act(st, 0, "lay_down", cards="x11R x12R x13R x14R x1G x2G x3G x*")
    assert {m["start"] for m in st["melds"]} == {11, 1}


def test_row_no_lay_off_on_the_lay_down_turn():
    st = make_state(
        players=3,
        round=1,
        ruleset="rook",
        phase="play",
        hands={0: "x5R y5G x5Y x9K y9K x9G x5K x2R"},
    )
    st, _ = act(st, 0, "lay_down", melds="x5R y5G x5Y | x9K y9K x9G")
    refused(st, 0, ("lay_off", {"card": "x5K", "meld": "m1"}), "not_this_turn")


# -- "May I?": anyone calls, the active player decides, sale first, no cap ---------------------
def rook_sale(**kw):
    base = dict(
        players=4,
        round=2,
        ruleset="rook",
        discard="x2R x3R x4R",
        stock="x5G x6G x7G x8G",
        active=0,
    )
    base.update(kw)
    st = make_state(**base)
    st["discard_from"] = [1, 2, 3]
    return st


def test_row_anyone_may_call_even_the_discarder_and_the_first_caller_buys():
    st = rook_sale()
    st, _ = act(st, 3, "may_i")  # the discarder, calling first
    st, _ = act(st, 1, "may_i")  # nearer the active player, but later
    assert view(st, 0)["calls"] == [3, 1]
    hand0 = st["hands"][0][:]
    st, events = act(st, 0, "draw", source="stock")  # "You may": the first caller buys
    assert event(events, "bought")["seat"] == 3
    assert st["hands"][3][-2:] == ["x4R", "x5G"]
    assert st["hands"][0] == [*hand0, "x6G"] and st["phase"] == "play"
    assert top(st) == "x3R" and st["window"] is None  # no second sale in rook


def test_row_the_active_player_may_take_the_called_card_itself():
    st = rook_sale()
    st, _ = act(st, 1, "may_i")
    st, events = act(st, 0, "draw", source="discard")
    assert "x4R" in st["hands"][0] and st["buys"] == [0, 0, 0, 0]
    assert "bought" not in types(events)


def test_row_may_i_on_ones_own_turn_takes_the_discard():
    st, events = act(rook_sale(), 0, "may_i")
    assert "x4R" in st["hands"][0] and st["phase"] == "play"
    assert event(events, "drew")["source"] == "discard"


def test_row_sale_first_waits_for_callers_then_the_draw():
    st = rook_sale()
    hand0 = st["hands"][0][:]
    st, _ = act(st, 0, "draw", source="stock")
    assert st["phase"] == "selling" and st["hands"][0] == hand0
    assert st["window"]["eligible"] == [1, 2, 3]
    st, _ = act(st, 2, "may_i")  # the first to call, whatever the seat order
    assert "x4R" in st["hands"][2] and st["hands"][0] == [*hand0, "x6G"]


def test_row_no_buy_cap():
    st = rook_sale(buys=[0, 5, 0, 0])
    st, _ = act(st, 1, "may_i")
    st, _ = act(st, 0, "draw", source="stock")
    assert st["buys"][1] == 6


def test_the_seat_that_went_out_cannot_call():
    st = rook_sale(finisher=2, last_turns=[3], hands={2: ""}, down={2})
    refused(st, 2, ("may_i", {}), "not_eligible")


# -- wild swaps ---------------------------------------------------------------------------------------
def swap_state(down: bool, hand: str, melds: str = "x7R x8R x* x10R", **kw):
    return make_state(
        players=3,
        round=3,
        ruleset="rook",
        phase="play",
        hands={0: hand},
        melds={1: melds},
        down={0, 1} if down else {1},
        **kw,
    )


def test_row_a_down_player_swaps_a_wild_and_must_play_it_this_turn():
    st = swap_state(True, "x9R x3K x5G", melds="x7R x8R x* x10R | x5Y y5Y x5K")
    st, events = act(st, 0, "swap_wild", meld="m1", card="x9R")
    assert st["melds"][0]["cards"] == ["x7R", "x8R", "x9R", "x10R"]
    assert "x*" in st["hands"][0] and event(events, "wild_swapped")["wild"] == "x*"
    refused(st, 0, ("discard", {"card": "x*"}), "use_swapped_wild")
    refused(st, 0, ("discard", {"card": "x3K"}), "use_swapped_wild")
    assert all(a["type"] != "discard" for a in legal_actions(st, 0))
    st, _ = act(st, 0, "lay_off", card="x*", meld="m2")
    st, _ = act(st, 0, "discard", card="x3K")


def test_the_view_lists_exactly_the_legal_swaps_for_the_seat_itself():
    st = swap_state(True, "x9R x3K x5G", melds="x7R x8R x* x10R | x5Y y5Y x5K")
    assert view(st, 0)["swaps"] == [{"type": "swap_wild", "meld": "m1", "card": "x9R"}]
    assert view(st, 0)["swaps"] == [a for a in legal_actions(st, 0) if a["type"] == "swap_wild"]
    # Not down and no contract with the wild: the shape fits, the swap is not offered.
    assert view(swap_state(False, "x9R x3K x5G"), 0)["swaps"] == []
    assert view(st, 1)["swaps"] == []  # not their turn
    assert "swaps" not in view(st, None)  # spectators: nothing about anyone's hand


def test_row_the_natural_must_be_the_card_the_wild_stands_for():
    st = swap_state(True, "x9G x6R x3K")
    refused(st, 0, ("swap_wild", {"meld": "m1", "card": "x9G"}), "no_wild_there")
    refused(st, 0, ("swap_wild", {"meld": "m1", "card": "x6R"}), "no_wild_there")
    book = swap_state(True, "x5R x3K", melds="x5Y y5Y x_")
    st, _ = act(book, 0, "swap_wild", meld="m1", card="x5R")
    assert "x_" in st["hands"][0]


def test_row_a_player_not_down_swaps_only_to_go_down_with_the_wild():
    refused(
        swap_state(False, "x9R x3K x5G"),
        0,
        ("swap_wild", {"meld": "m1", "card": "x9R"}),
        "cannot_go_down",
    )
    # Round 3 is two runs: 1G 2G 3G + the wild, and 4K 5K 6K 7K.
    st = swap_state(False, "x9R x1G x2G x3G x4K x5K x6K x7K x12Y")
    st, _ = act(st, 0, "swap_wild", meld="m1", card="x9R")
    refused(st, 0, ("lay_down", {"melds": "x1G x2G x3G x4G"}), None)
    refused(st, 0, ("discard", {"card": "x12Y"}), "use_swapped_wild")
    st, _ = act(st, 0, "lay_down", cards="x1G x2G x3G x* x4K x5K x6K x7K")
    st, _ = act(st, 0, "discard", card="x12Y")


def test_row_swaps_only_in_ones_own_turn_after_drawing():
    st = make_state(
        players=3,
        round=3,
        ruleset="rook",
        phase="draw",
        hands={0: "x9R x3K"},
        melds={1: "x7R x8R x* x10R"},
        down={0, 1},
    )
    refused(st, 0, ("swap_wild", {"meld": "m1", "card": "x9R"}), "must_draw")
    refused(st, 1, ("swap_wild", {"meld": "m1", "card": "x9R"}), "not_your_turn")


# -- end of round: last turns, one point a card, ties shared --------------------------------------
def test_row_everyone_else_gets_one_last_turn_then_one_point_a_card():
    st = make_state(
        players=3,
        round=1,
        ruleset="rook",
        phase="play",
        active=0,
        hands={0: "x5K", 1: "x9K x9R x9G x3R x3G x3Y", 2: "x7G x8G x11G x12G x13G x14G"},
        melds={0: "x5R y5G x5Y | x9Y y9Y x*"},
        discard="x1R",
    )
    st, events = act(st, 0, "discard", card="x5K")
    assert event(events, "went_out")["last_turns"] == [1, 2]
    assert "round_ended" not in types(events) and st["active"] == 1
    refused(st, 0, ("may_i", {}), "not_eligible")  # out for this round
    # Seat 1's last turn: it goes out too (it still plays by the usual rules).
    st, _ = act(st, 1, "draw", source="discard")
    st, _ = act(st, 1, "lay_down", melds="x9K x9R x9G | x3R x3G x3Y")
    st, events = act(st, 1, "discard", card="x5K")
    assert "round_ended" not in types(events) and st["active"] == 2
    st, _ = act(st, 2, "draw", source="stock")
    assert st["window"]["eligible"] == [1]  # the seat that went out first is done
    st, _ = act(st, 1, "no_thanks")
    st, events = act(st, 2, "discard", card="x7G")
    ended = event(events, "round_ended")
    assert ended["went_out"] == 0 and ended["penalties"] == [0, 0, 6]
    assert st["rounds_out"] == [1, 0, 0] and st["round"] == 2


def test_row_ties_are_shared():
    assert not ROOK.ties_broken_by_rounds_out
    assert places([9, 9, 12], [2, 0, 1], ROOK.ties_broken_by_rounds_out) == [1, 1, 3]


def test_heuristic_bot_picks_a_round7_contract_it_can_make():
    st = r7(hand=flat(BOOKS) + " x7K")
    action = choose_action(st, 0)
    assert action["type"] == "lay_down" and len(action["melds"]) == 4


def test_row_wild_limits_as_bga():
    st = make_state(
        players=3, round=1, ruleset="rook", phase="play", hands={0: "x5R x* y* x9K y9K x_ x2G"}
    )
    refused(st, 0, ("lay_down", {"melds": "x5R x* y* | x9K y9K x_"}), "invalid_meld")
    refused(st, 0, ("lay_down", {"cards": "x5R x* y* x9K y9K x_"}), "no_contract")


def test_the_view_names_the_round7_contract_the_table_chose():
    v = view(r7("books", "x7K"), 0)
    assert v["contract"]["text"] == "4 books" and len(v["contracts"]) == 1
    assert v["options"] == {"round7": "books"} and v["card_set"] == "rook"
