"""docs/RULES.md section 7: penalties, MAYI melds, totals, the winner and ties."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, apply, hand_penalty, view
from games.engine.scoring import places

from .helpers import act, event, make_state, refused


@pytest.mark.parametrize(
    "face, points",
    [("?", 15), ("1M", 1), ("2A", 2), ("5Y", 5), ("9I", 9), ("10M", 15)]
    + [("11A", 10), ("12Y", 10), ("13I", 10)],
)
def test_penalty_table(face, points):
    assert hand_penalty([face]) == points


def test_hand_penalty_adds_up():
    assert hand_penalty([]) == 0
    assert hand_penalty(["?", "10M", "3A", "13I", "1Y"]) == 15 + 15 + 3 + 10 + 1


def out_by_discard(**kw):
    """Seat 0 (down, one card w2M after drawing) goes out by discarding it."""
    base = dict(phase="play", down={0})
    base.update(kw)
    base["hands"] = {0: "w2M", **base.get("hands", {})}
    st = make_state(**base)
    return act(st, 0, "discard", card="w2M")


def test_the_player_out_scores_0_and_the_others_their_hands():
    st, events = out_by_discard(hands={1: "? 10M 11A 12Y 13I", 2: "1M 2A 3Y 9I"})
    ended = event(events, "round_ended")
    assert ended["penalties"] == [0, 15 + 15 + 30, 1 + 2 + 3 + 9]
    assert st["scores"] == [[0, 60, 15]]


def test_each_mayi_meld_scores_minus_10():
    st, events = out_by_discard(
        hands={1: "5M", 2: "5A"},
        mayi={0: "w7M w7A w7Y w7I", 1: "w1M w2A w3Y w4I | b1M b2A b3Y b4I"},
    )
    ended = event(events, "round_ended")
    assert ended["mayi_melds"] == [1, 2, 0]
    assert ended["scores"] == [-10, 5 - 20, 5]


def test_totals_are_the_sum_of_the_rounds():
    st, _ = out_by_discard(round=3, scores=[[10, 0, 30], [5, 40, 0]], hands={1: "4M", 2: "?"})
    assert st["scores"] == [[10, 0, 30], [5, 40, 0], [0, 4, 15]]
    assert st["totals"] == [15, 44, 45]
    assert view(st, None)["round_scores"] == st["scores"]
    assert view(st, None)["total_scores"] == [15, 44, 45]


def test_rounds_out_are_counted():
    st, _ = out_by_discard(round=2, rounds_out=[0, 1, 0])
    assert st["rounds_out"] == [1, 1, 0]


def test_the_lowest_total_wins():
    st = make_state(
        players=4,
        round=7,
        phase="play",
        hands={0: "b5M", 1: "2A", 2: "?", 3: "1A"},
        melds={0: "w1M w2M w3M w4M | w5A w6A w7A w8A | w9Y w10Y w11Y w12Y"},
        scores=[[30, 20, 10, 40]] + [[0, 0, 0, 0]] * 5,
    )
    st, events = act(st, 0, "lay_off", card="b5M", meld="m1")
    over = event(events, "game_over")
    assert over["totals"] == [30, 22, 25, 41]
    assert over["places"] == [3, 1, 2, 4]
    assert st["game_over"] and st["places"] == [3, 1, 2, 4]
    v = view(st, 2)
    assert v["game_over"] and v["places"] == [3, 1, 2, 4] and v["active_seat"] is None


def test_ties_go_to_more_rounds_out_then_are_shared():
    st = make_state(
        players=4,
        round=7,
        phase="play",
        hands={0: "b5M", 1: "2A", 2: "2Y", 3: "1A"},
        melds={0: "w1M w2M w3M w4M | w5A w6A w7A w8A | w9Y w10Y w11Y w12Y"},
        scores=[[22, 20, 20, 21]] + [[0, 0, 0, 0]] * 5,
        rounds_out=[0, 2, 3, 2],
    )
    st, events = act(st, 0, "lay_off", card="b5M", meld="m1")
    # Totals 22 22 22 22; rounds out 1 2 3 2 -> seat 2 first, seats 1 and 3 share second.
    assert st["totals"] == [22, 22, 22, 22] and st["rounds_out"] == [1, 2, 3, 2]
    assert st["places"] == [4, 2, 1, 2]


def test_places_share_a_place_when_everything_ties():
    assert places([10, 10, 10], [1, 1, 1], True) == [1, 1, 1]
    assert places([10, 5, 10], [0, 0, 1], True) == [3, 1, 2]
    assert places([10, 5, 10], [0, 0, 1], False) == [2, 1, 2]


def test_no_action_after_the_game_is_over():
    st = make_state(
        round=7,
        phase="play",
        hands={0: "b5M"},
        melds={0: "w1M w2M w3M w4M | w5A w6A w7A w8A | w9Y w10Y w11Y w12Y"},
    )
    st, _ = act(st, 0, "lay_off", card="b5M", meld="m1")
    for seat, action in [
        (0, {"type": "draw", "source": "stock"}),
        (1, {"type": "may_i"}),
        (None, {"type": "timeout"}),
        (None, {"type": "close_window"}),
    ]:
        refused(st, seat, action, "game_over")
    with pytest.raises(IllegalMove):
        apply(st, st["active"], {"type": "draw", "source": "stock"})
