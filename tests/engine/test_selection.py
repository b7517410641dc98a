"""The selection check (games.engine.selection): the contract meter and lay-off targets."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, apply
from games.engine.selection import check_selection

from .helpers import make_state


def round2(phase="play"):
    return make_state(
        players=3,
        round=2,
        active=0,
        phase=phase,
        hands={0: "w7M w7A w? w4I w5I w6I w7I w9A", 1: "w2A w3A", 2: "w5M w6M"},
        discard="w10I",
        stock="b4I b13Y b9A b7M",
    )


def test_a_selection_that_makes_the_contract_is_ready_and_the_engine_takes_it():
    st = round2()
    out = check_selection(st, 0, ["w7M", "w7A", "w?", "w4I", "w5I", "w6I", "w7I"])
    assert out["needs"] == {"books": 1, "runs": 1}
    assert out["makes"] == {"books": 1, "runs": 1}
    assert out["complete"] and out["can_lay_down"] and out["leftover"] == []
    assert out["message"].endswith("ready to lay down")
    apply(st, 0, {"type": "lay_down", "melds": out["melds"]})


def test_part_of_the_contract_says_what_is_still_needed_in_faces():
    out = check_selection(round2(), 0, ["w7M", "w7A", "w?"])
    assert out["makes"] == {"books": 1, "runs": 0} and not out["complete"]
    assert out["message"] == "7M 7A ? is a book; round 2 also needs 1 run"
    assert "w7M" not in out["message"]


def test_staged_groups_count_as_grouped_and_bad_ones_are_named():
    st = round2()
    out = check_selection(st, 0, ["w4I", "w5I", "w6I", "w7I"], [["w7M", "w7A", "w?"]])
    assert out["complete"] and out["kinds"] == ["book", "run"]
    bad = check_selection(st, 0, ["w9A"], [["w7M", "w4I"]])
    assert bad["invalid"] == [["w7M", "w4I"]] and not bad["complete"]
    assert "7M 4I is neither a book nor a run" in bad["message"]
    assert "9A is in no meld" in bad["message"]


def test_complete_but_not_now_gives_the_engines_reason():
    st = round2(phase="draw")
    out = check_selection(st, 0, ["w7M", "w7A", "w?", "w4I", "w5I", "w6I", "w7I"])
    assert out["complete"] and not out["can_lay_down"] and out["reason"]


def test_only_the_seats_own_cards_may_be_asked_about():
    st = round2()
    with pytest.raises(IllegalMove) as info:
        check_selection(st, 0, ["w2A"])  # seat 1's card: refused like any card not held
    assert info.value.code == "card_not_in_hand"
    with pytest.raises(IllegalMove):
        check_selection(st, 0, ["w7M", "w7M"])
    with pytest.raises(IllegalMove):
        check_selection(st, 0, "w7M")


def test_one_card_of_a_seat_that_is_down_lists_its_lay_offs():
    st = make_state(
        players=3,
        round=2,
        active=2,
        phase="play",
        hands={0: "w1M", 1: "w2A", 2: "w8Y w3Y w9A w?"},
        discard="w10I",
        stock="b4I b13Y b9A",
        down={0, 2},
        melds={0: "w9M w9I w9Y | w4Y w5Y w6Y w7Y"},
    )
    out = check_selection(st, 2, ["w8Y"])
    assert out["lay_offs"] == [{"type": "lay_off", "card": "w8Y", "meld": "m2", "end": "high"}]
    assert out["message"] == "8Y can be laid off on 1 meld"
    wild = check_selection(st, 2, ["w?"])
    assert {a["meld"] for a in wild["lay_offs"]} == {"m1", "m2"}
    for action in wild["lay_offs"]:
        apply(st, 2, action)
    # Seat 0 is down but it is not its turn: no targets, and the engine's reason.
    other = check_selection(st, 0, ["w1M"])
    assert other["lay_offs"] == []
