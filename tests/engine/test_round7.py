"""docs/RULES.md section 4, round 7: no final discard, the pass, and the held pass [D]."""

from __future__ import annotations

import pytest

from games.engine import legal_actions, view

from .helpers import act, event, make_state, refused, types

RUNS = "w1M w2M w3M w4M | w5A w6A w7A w8A | w9Y w10Y w11Y w12Y"


def r7(hand: str, phase: str = "play", **kw):
    """Round 7, 3 players, seat 0 down with three runs and ``hand`` (drawn already)."""
    base = dict(round=7, phase=phase, hands={0: hand}, melds={0: RUNS})
    base.update(kw)
    return make_state(**base)


def test_the_last_card_may_not_be_discarded():
    st = r7("w13I")
    refused(st, 0, ("discard", {"card": "w13I"}), "no_final_discard")
    assert view(st, 0)["final_discard_allowed"] is False


def test_discarding_down_to_one_card_is_fine():
    st = r7("w13I b7I")
    st2, events = act(st, 0, "discard", card="b7I")
    assert st2["hands"][0] == ["w13I"] and st2["active"] == 1


def test_a_single_unplayable_card_ends_the_turn_with_a_pass():
    st = r7("w13I")
    assert {"type": "pass"} in legal_actions(st, 0)
    assert not [a for a in legal_actions(st, 0) if a["type"] == "discard"]
    st2, events = act(st, 0, "pass")
    assert types(events) == ["passed", "turn"]
    assert st2["hands"][0] == ["w13I"] and st2["active"] == 1 and st2["phase"] == "draw"
    assert st2["discard"] == st["discard"]


def test_a_pass_is_refused_when_the_last_card_can_be_played():
    for card in ("b5M", "b4A", "b9A", "b13Y", "w?"):
        st = r7(card)
        refused(st, 0, ("pass", {}), "must_play")
        assert {"type": "pass"} not in legal_actions(st, 0)


def test_a_pass_is_refused_with_more_than_one_card():
    refused(r7("w13I b13I"), 0, ("pass", {}), "cannot_pass")


def test_a_pass_is_refused_before_the_contract_is_down():
    st = make_state(
        round=7, phase="play", hands={0: "w13I b13I 1I 3I 5I 7I 9I 11I 2A 4A 6A 8A 10A"}
    )
    refused(st, 0, ("pass", {}), "cannot_pass")


def test_a_pass_is_refused_before_the_draw():
    refused(r7("w13I", phase="draw"), 0, ("pass", {}), "must_draw")


@pytest.mark.parametrize("round_no", range(1, 7))
def test_a_pass_is_only_for_round_7(round_no):
    st = make_state(round=round_no, phase="play", hands={0: "w13I"}, melds={0: RUNS}, down={0})
    refused(st, 0, ("pass", {}), "no_pass")
    # ... where the final discard is how one goes out.
    _, events = act(st, 0, "discard", card="w13I")
    assert event(events, "round_ended")["went_out"] == 0


def test_before_the_contract_is_down_round_7_is_ordinary():
    hand = "w13I b13I 1I 3I 5I 7I 9I 11I 2A 4A 6A 8A 10A"
    st = make_state(round=7, phase="play", hands={0: hand})
    st2, events = act(st, 0, "discard", card="w13I")
    assert types(events) == ["discarded", "turn"]


def test_going_out_in_round_7_by_laying_off_the_last_card_ends_the_game():
    st = r7("b5M", hands={0: "b5M", 1: "10M 13A", 2: "? 2Y"}, scores=[[0, 5, 5]] * 6)
    st2, events = act(st, 0, "lay_off", card="b5M", meld="m1")
    ended = event(events, "round_ended")
    assert ended["went_out"] == 0 and ended["scores"] == [0, 25, 17]
    over = event(events, "game_over")
    assert over["totals"] == [0, 55, 47] and over["places"] == [1, 3, 2]
    assert st2["game_over"] and st2["phase"] == "game_over"
    assert types(events)[-1] == "game_over"


def test_going_out_in_round_7_by_lay_down():
    hand = "3I 4I 5I 6I | 9M 10M ? 12M | 1A 2A 3A 4A 5A"
    st = make_state(round=7, phase="play", hands={0: hand})
    st2, events = act(st, 0, "lay_down", cards=st["hands"][0])
    assert event(events, "round_ended")["went_out"] == 0 and st2["game_over"]


def test_going_out_in_round_7_by_a_mayi_meld():
    st = r7("b3M b3A b3Y b3I")
    _, events = act(st, 0, "mayi_meld", cards="b3M b3A b3Y b3I")
    assert event(events, "round_ended")["scores"][0] == -10


def test_a_round_7_discard_during_a_window_is_held_too():
    st = r7("w13I b9A", phase="draw", discard="b2Y", stock="b13M")
    st, _ = act(st, 0, "draw", source="stock")
    st, _ = act(st, 0, "lay_off", card="b9A", meld="m2")
    assert st["window"] is not None and len(st["hands"][0]) == 2
    refused(st, 0, ("pass", {}), "cannot_pass")
    st, events = act(st, 0, "discard", card="b13M")
    assert types(events) == ["discard_held"]
    st, events = act(st, None, "close_window")
    assert types(events) == ["window_timer", "window_closed", "discarded", "turn"]
    assert st["hands"][0] == ["w13I"]


def test_a_held_pass_takes_effect_after_the_sale():
    st = r7("b9A", phase="draw", discard="b2Y", stock="w13I b1Y")
    st, _ = act(st, 0, "draw", source="stock")
    assert st["window"]["eligible"] == [1]
    st, _ = act(st, 0, "lay_off", card="b9A", meld="m2")
    st, events = act(st, 0, "pass")
    assert types(events) == ["pass_held"] and st["phase"] == "done"
    assert st["held"] == {"type": "pass"} and view(st, 1)["turn_done"]
    refused(st, 0, ("pass", {}), "turn_over")
    st, events = act(st, 1, "may_i")
    assert types(events) == ["answered", "window_closed", "bought", "passed", "turn"]
    assert st["hands"][0] == ["w13I"] and st["active"] == 1
    assert "b2Y" in st["hands"][1] and "b1Y" in st["hands"][1]


def test_a_last_wild_that_fits_nowhere_is_passed():
    # Seven players (three wilds): one run is full 1..13, the others are at the wild limit.
    st = make_state(
        players=7,
        round=7,
        phase="play",
        hands={0: "g?"},
        melds={
            0: "1M 2M 3M 4M 5M 6M 7M 8M 9M 10M 11M 12M 13M | w? 5A 6A b?",
            1: "1Y 2Y 3Y 4Y 5Y 6Y 7Y 8Y 9Y 10Y 11Y 12Y 13Y",
        },
    )
    assert {"type": "pass"} in legal_actions(st, 0)
    refused(st, 0, ("lay_off", {"card": "g?", "meld": "m2"}), "does_not_fit")
    _, events = act(st, 0, "pass")
    assert types(events) == ["passed", "turn"]
