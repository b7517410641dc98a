"""docs/RULES.md section 5: "May I?", buying the discard (windows, eligibility, priority, the sale,
held discards, early answers, the never-buy preference)."""

from __future__ import annotations

import pytest

from games.engine import new_game, view
from games.engine.legal import can_answer, seats_to_act

from .helpers import act, event, make_state, next_stock, refused, run, same, top, types

HAND0 = "3M 4A 5Y 6I 8M 9A"


def four(**kw):
    """4 players, seat 0 to draw; the discard top w13Y was discarded by seat 3; the stock gives
    w12I, w2A, w3A, ..."""
    base = dict(players=4, hands={0: HAND0}, discard="w1M w13Y", stock="w12I w2A w3A")
    base.update(kw)
    return make_state(**base)


def drawn(**kw):
    st, _ = act(four(**kw), 0, "draw", source="stock")
    return st


# -- when a window opens -------------------------------------------------------------------
def test_a_stock_draw_opens_a_window_on_the_discard_top():
    st, events = act(four(), 0, "draw", source="stock")
    assert types(events) == ["drew", "window_opened"]
    w = st["window"]
    assert w["card"] == "w13Y" and w["discarder"] == 3
    assert w["eligible"] == [1, 2]
    assert view(st, 1)["buy_window"]["waiting"] == [1, 2]
    assert seats_to_act(st) == [0, 1, 2]


def test_a_discard_draw_opens_no_window():
    st, events = act(four(), 0, "draw", source="discard")
    assert st["window"] is None and types(events) == ["drew"]
    refused(st, 1, ("may_i", {}), "no_window")


def test_the_turned_up_card_can_be_bought_by_anyone_but_the_active_player():
    st = four(discarder=None)
    st, _ = act(st, 0, "draw", source="stock")
    assert st["window"]["eligible"] == [1, 2, 3]
    assert st["window"]["discarder"] is None


def test_a_new_game_opens_a_window_on_the_turned_up_card():
    st = new_game(4, "turned-up")
    first = st["active"]
    st, events = act(st, first, "draw", source="stock")
    assert event(events, "window_opened")["eligible"] == [(first + k) % 4 for k in (1, 2, 3)]


# -- who may buy -------------------------------------------------------------------------
def test_the_active_player_and_the_discarder_may_not_buy():
    st = drawn()
    refused(st, 0, ("may_i", {}), "not_eligible")
    refused(st, 3, ("may_i", {}), "not_eligible")
    refused(st, 3, ("no_thanks", {}), "not_eligible")
    assert not can_answer(st, 0) and not can_answer(st, 3)


def test_a_player_with_three_buys_may_not_buy():
    st = drawn(buys=[0, 3, 2, 0])
    assert st["window"]["eligible"] == [2]
    refused(st, 1, ("may_i", {}), "not_eligible")
    new, _ = act(st, 2, "may_i")
    assert new["buys"] == [0, 3, 3, 0]


def test_the_third_buy_is_the_last_one():
    st = make_state(players=3, hands={0: HAND0}, discard="w13Y", buys=[0, 2, 0])
    st, _ = act(st, 0, "draw", source="stock")
    st, _ = act(st, 1, "may_i")
    assert st["buys"][1] == 3
    st, _ = act(st, 0, "discard", card=st["hands"][0][0])
    # Seat 1 draws; seat 0 discarded; seat 2 could buy. Now seat 2 discards and seat 0 draws:
    st, _ = act(st, 1, "draw", source="discard")
    st, _ = act(st, 1, "discard", card=st["hands"][1][0])
    st, _ = act(st, 2, "draw", source="discard")
    st, _ = act(st, 2, "discard", card=st["hands"][2][0])
    st, events = act(st, 0, "draw", source="stock")
    assert "window_opened" not in types(events), "seat 1 has 3 buys, seat 2 discarded"
    assert st["window"] is None


def test_answers_outside_a_window_are_refused_after_the_draw():
    st, _ = act(four(), 0, "draw", source="discard")
    refused(st, 1, ("may_i", {}), "no_window")
    refused(st, 2, ("no_thanks", {}), "no_window")


def test_one_answer_per_seat_per_window():
    st = drawn()
    st2, _ = act(st, 2, "may_i")
    refused(st2, 2, ("may_i", {}), "already_answered")
    refused(st2, 2, ("no_thanks", {}), "already_answered")


# -- priority -----------------------------------------------------------------------------
def test_priority_goes_clockwise_from_the_active_player():
    st = drawn(discarder=None)  # eligible 1, 2, 3
    st, events = act(st, 3, "may_i")
    assert st["window"] is not None, "seats 1 and 2 come first"
    st, events = act(st, 2, "may_i")
    assert st["window"] is not None
    st, events = act(st, 1, "no_thanks")
    assert event(events, "bought")["seat"] == 2
    assert st["buys"] == [0, 0, 1, 0]


def test_the_first_in_priority_wins_at_once():
    st = drawn(discarder=None)
    st, _ = act(st, 3, "may_i")
    st, events = act(st, 1, "may_i")
    assert types(events) == ["answered", "window_closed", "bought"]
    assert event(events, "bought")["seat"] == 1 and st["window"] is None


def test_the_window_closes_as_soon_as_everyone_before_a_claimant_passed():
    st = drawn(discarder=None)
    st, _ = act(st, 1, "no_thanks")
    st, events = act(st, 2, "may_i")
    assert event(events, "bought")["seat"] == 2
    assert st["window"] is None, "seat 3 never answered and did not need to"
    refused(st, 3, ("no_thanks", {}), "no_window")


def test_all_pass_no_sale():
    st = drawn()
    st, _ = act(st, 2, "no_thanks")
    st, events = act(st, 1, "no_thanks")
    assert types(events) == ["answered", "window_closed"]
    assert event(events, "window_closed")["buyer"] is None
    assert top(st) == "w13Y" and st["buys"] == [0, 0, 0, 0]


def test_the_timer_counts_silence_as_a_pass_then_priority_decides():
    st = drawn(discarder=None)
    st, _ = act(st, 3, "may_i")
    st, events = act(st, None, "close_window")
    assert types(events) == ["window_timer", "window_closed", "bought"]
    assert event(events, "bought")["seat"] == 3


def test_the_timer_with_nobody_claiming_is_no_sale():
    st = drawn()
    st, events = act(st, None, "close_window")
    assert event(events, "window_closed")["buyer"] is None
    assert top(st) == "w13Y" and st["window"] is None


def test_close_window_needs_an_open_window_and_the_platform():
    refused(four(), None, ("close_window", {}), "no_window")
    refused(drawn(), 1, ("close_window", {}), "platform_only")
    refused(drawn(), 0, ("close_window", {}), "platform_only")


# -- the sale ------------------------------------------------------------------------------
def test_the_sale_gives_the_discard_and_one_penalty_card():
    st = drawn()
    before = st["hands"][1][:]
    penalty = next_stock(st)[0]
    assert penalty == "w2A"
    st, events = act(st, 1, "may_i")
    assert same(st["hands"][1], before + ["w13Y", "w2A"])
    assert st["buys"][1] == 1
    assert top(st) == "w1M"
    # The event tells the whole truth (the move log is a record); games.engine.public keeps
    # the penalty card for the buyer's eyes (tests/engine/test_public.py).
    assert event(events, "bought") == {
        "type": "bought",
        "seat": 1,
        "card": "w13Y",
        "penalty_cards": ["w2A"],
    }


def test_the_active_players_turn_goes_on_after_a_sale():
    st = drawn()
    st, _ = act(st, 1, "may_i")
    assert st["active"] == 0 and st["phase"] == "play"
    refused(st, 1, ("discard", {"card": st["hands"][1][0]}), "not_your_turn")
    card = st["hands"][0][0]
    st, events = act(st, 0, "discard", card=card)
    assert top(st) == card and st["active"] == 1


def test_the_card_a_sale_uncovers_is_not_for_sale_in_the_same_window():
    st = drawn(discarder=None)
    st, _ = act(st, 1, "may_i")
    assert top(st) == "w1M" and st["window"] is None
    for seat in (2, 3):
        refused(st, seat, ("may_i", {}), "no_window")


def test_the_active_players_turn_goes_on_while_the_window_is_open():
    st = make_state(
        players=4,
        round=2,
        hands={0: "w7M w7A w7Y w4I w5I w6I w7I w9M b7M w8M w8A w8Y w8I"},
        discard="w13Y",
        stock="w12I",
        melds={2: "w9A w9Y w9I"},
    )
    st, _ = act(st, 0, "draw", source="stock")
    assert st["window"] is not None
    st, _ = act(st, 0, "lay_down", cards="w7M w7A w7Y w4I w5I w6I w7I")
    st, _ = act(st, 0, "lay_off", card="w9M", meld="m1")
    st, _ = act(st, 0, "mayi_meld", cards="w8M w8A w8Y w8I")
    assert st["window"] is not None and st["window"]["answers"] == [None, None]
    st, events = act(st, 1, "may_i")
    assert event(events, "bought")["seat"] == 1


# -- [D] the held discard ---------------------------------------------------------------------
def test_a_discard_during_the_window_is_held_until_it_closes():
    st = drawn()
    card = "w3M"
    st, events = act(st, 0, "discard", card=card)
    assert types(events) == ["discard_held"]
    assert st["phase"] == "done" and card in st["hands"][0] and top(st) == "w13Y"
    assert view(st, 0)["held_discard"] == card
    assert view(st, 1)["held_discard"] is None and view(st, 1)["turn_done"]
    assert seats_to_act(st) == [1, 2]
    # The turn is over for the active player.
    refused(st, 0, ("discard", {"card": "w4A"}), "turn_over")
    refused(st, 0, ("mayi_meld", {"cards": "w3M w4A w5Y w6I"}), "turn_over")
    refused(st, None, ("timeout", {}), "no_turn_pending")
    # Sale first, then the held discard.
    st, _ = act(st, 2, "may_i")
    st, events = act(st, 1, "no_thanks")
    assert types(events) == ["answered", "window_closed", "bought", "discarded", "turn"]
    assert "w13Y" in st["hands"][2] and top(st) == card
    assert st["discard_from"][-1] == 0
    assert st["active"] == 1 and st["phase"] == "draw"


def test_a_held_discard_with_no_sale_lands_when_the_timer_closes_the_window():
    st, _ = act(drawn(), 0, "discard", card="w9A")
    st, events = act(st, None, "close_window")
    assert types(events) == ["window_timer", "window_closed", "discarded", "turn"]
    assert st["discard"][-2:] == ["w13Y", "w9A"]


def test_the_held_discard_opens_the_next_players_chances():
    st, _ = act(drawn(), 0, "discard", card="w9A")
    st, _ = act(st, None, "close_window")
    # Seat 1 may take it, or draw from the stock and open a window on it for seats 2 and 3.
    st2, events = act(st, 1, "draw", source="stock")
    assert event(events, "window_opened")["eligible"] == [2, 3]
    assert st2["window"]["card"] == "w9A" and st2["window"]["discarder"] == 0


# -- [D] the window lapses when the active player goes out -------------------------------------
def test_a_window_open_when_the_active_player_goes_out_lapses():
    st = make_state(
        players=4,
        hands={0: "b7M"},
        melds={0: "w7M w7A w7Y | w9M w9A w9Y"},
        discard="w13Y",
        stock="w9I",
    )
    st, _ = act(st, 0, "draw", source="stock")
    st, _ = act(st, 2, "may_i")
    assert st["window"] is not None, "seat 1 has not answered yet"
    st, _ = act(st, 0, "lay_off", card="b7M", meld="m1")
    st, events = act(st, 0, "lay_off", card="w9I", meld="m2")
    assert "bought" not in types(events) and "window_closed" not in types(events)
    ended = event(events, "round_ended")
    assert ended["went_out"] == 0 and ended["buys"] == [0, 0, 0, 0]
    assert st["round"] == 2 and st["window"] is None and st["held"] is None


def test_going_out_with_a_held_last_card_waits_for_the_window():
    # The last card's discard is held: the sale happens first, then the discard ends the round.
    st = make_state(
        players=4,
        hands={0: "b7M", 2: "w5M w6M"},
        melds={0: "w7M w7A w7Y | w9M w9A w9Y"},
        discard="w13Y",
        stock="w12I b3A",
    )
    st, _ = act(st, 0, "draw", source="stock")
    st, _ = act(st, 0, "lay_off", card="b7M", meld="m1")
    st, events = act(st, 0, "discard", card="w12I")
    assert types(events) == ["discard_held"] and st["hands"][0] == ["w12I"]
    st, _ = act(st, 2, "may_i")
    st, events = act(st, 1, "no_thanks")
    assert types(events)[:5] == ["answered", "window_closed", "bought", "discarded", "round_ended"]
    ended = event(events, "round_ended")
    assert ended["went_out"] == 0 and ended["buys"] == [0, 0, 1, 0]
    assert ended["penalties"][2] == 5 + 6 + 10 + 3, "seat 2 counts the card it bought + penalty"


# -- [D] early answers --------------------------------------------------------------------
def test_early_answers_count_when_the_window_opens():
    st = four(discarder=None)
    st, events = act(st, 3, "may_i")
    assert types(events) == ["answered"] and st["early"] == [None, None, None, "may_i"]
    st, _ = act(st, 1, "no_thanks")
    assert view(st, 3)["my_answer"] == "may_i" and view(st, 2)["my_answer"] is None
    st, events = act(st, 0, "draw", source="stock")
    assert st["window"] is not None and st["window"]["answers"] == ["no_thanks", None, "may_i"]
    st, events = act(st, 2, "no_thanks")
    assert event(events, "bought")["seat"] == 3


def test_early_answers_can_close_the_window_at_the_draw():
    st = four()
    st, _ = act(st, 1, "may_i")
    st, events = act(st, 0, "draw", source="stock")
    assert types(events) == ["drew", "window_opened", "window_closed", "bought"]
    assert st["buys"][1] == 1


def test_all_early_passes_close_the_window_at_the_draw():
    st = four()
    st, _ = run(st, (1, "no_thanks"), (2, "no_thanks"))
    st, events = act(st, 0, "draw", source="stock")
    assert types(events) == ["drew", "window_opened", "window_closed"]
    assert event(events, "window_closed")["buyer"] is None


def test_early_answers_lapse_when_the_next_player_takes_the_card():
    st = four()
    st, _ = act(st, 1, "may_i")
    st, events = act(st, 0, "draw", source="discard")
    assert st["early"] == [None] * 4 and st["window"] is None
    assert st["buys"] == [0, 0, 0, 0] and "w13Y" in st["hands"][0]
    # ... and do not carry over to the next card.
    st, _ = act(st, 0, "discard", card="w3M")
    assert st["early"] == [None] * 4
    st, _ = act(st, 1, "draw", source="stock")
    assert st["window"]["answers"] == [None, None]


def test_early_answers_are_refused_from_the_ineligible_and_twice():
    st = four(buys=[0, 0, 3, 0])
    refused(st, 0, ("may_i", {}), "not_eligible")  # the active player
    refused(st, 3, ("may_i", {}), "not_eligible")  # the discarder
    refused(st, 2, ("may_i", {}), "not_eligible")  # three buys
    st, _ = act(st, 1, "no_thanks")
    refused(st, 1, ("may_i", {}), "already_answered")


def test_early_answers_survive_a_mayi_meld_before_the_draw():
    st = four(hands={0: "b3M b3A b3Y b3I w9M w9A"})
    st, _ = act(st, 1, "may_i")
    st, _ = act(st, 0, "mayi_meld", cards="b3M b3A b3Y b3I")
    st, events = act(st, 0, "draw", source="stock")
    assert event(events, "bought")["seat"] == 1


# -- the never-buy preference -----------------------------------------------------------------
def test_never_buy_seats_pass_at_once():
    st = drawn(never_buy=[False, True, False, False])
    assert st["window"]["answers"] == ["no_thanks", None]
    st, events = act(st, 2, "may_i")
    assert event(events, "bought")["seat"] == 2


def test_never_buy_for_everyone_means_no_window_waits():
    st, events = act(four(never_buy=[True] * 4), 0, "draw", source="stock")
    assert types(events) == ["drew", "window_opened", "window_closed"]
    assert st["window"] is None


def test_never_buy_is_a_new_game_option():
    st = new_game(3, "nb", options={"never_buy": [True, True, True]})
    assert st["never_buy"] == [True, True, True]
    st, events = act(st, st["active"], "draw", source="stock")
    assert types(events) == ["drew", "window_opened", "window_closed"]
    st = new_game(3, "nb", options={"never_buy": [False, False, False]})
    st, events = act(st, st["active"], "draw", source="stock")
    assert st["window"] is not None


def test_never_buy_needs_one_flag_per_seat():
    from games.engine import IllegalMove

    with pytest.raises(IllegalMove) as info:
        new_game(3, "nb", options={"never_buy": [True]})
    assert info.value.code == "bad_options"


def test_an_early_answer_overrides_never_buy():
    st = four(never_buy=[False, True, False, False])
    st, _ = act(st, 1, "may_i")
    st, events = act(st, 0, "draw", source="stock")
    assert event(events, "bought")["seat"] == 1
