"""Choices a player states explicitly: where a wild stands at lay-down, table options, and
what the view shows of scores earned at once."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, new_game, view

from .helpers import act, make_state, refused


def test_a_player_may_say_where_a_wild_stands_in_a_run():
    st = make_state(round=2, phase="play", hands={0: "b9A b9Y b9I w? w5M w6M w7M w2A"})
    new, _ = act(st, 0, "lay_down", melds="b9A b9Y b9I | w? w5M w6M w7M", wilds={"w?": 4})
    run = next(m for m in new["melds"] if m["kind"] == "run")
    assert (run["start"], run["cards"]) == (4, ["w?", "w5M", "w6M", "w7M"])


def test_unplaced_wilds_follow_the_rule_even_when_one_is_placed():
    hand = "b9A b9Y b9I w? b? w5M w6M w7M w2A"
    st = make_state(round=2, phase="play", hands={0: hand})
    new, _ = act(st, 0, "lay_down", melds="b9A b9Y b9I | w? b? w5M w6M w7M", wilds={"w?": 4})
    run = next(m for m in new["melds"] if m["kind"] == "run")
    # w? is 4 as asked; the free wild extends the high end: 4..8.
    assert (run["start"], run["cards"]) == (4, ["w?", "w5M", "w6M", "w7M", "b?"])


@pytest.mark.parametrize(
    "wilds",
    [{"w?": 6}, {"w?": 0}, {"w?": "4"}, {"w5M": 4}, ["w?"], {"w?": True}],
)
def test_impossible_wild_placements_are_refused(wilds):
    st = make_state(round=2, phase="play", hands={0: "b9A b9Y b9I w? w5M w6M w7M w2A"})
    refused(
        st,
        0,
        {
            "type": "lay_down",
            "melds": [["b9A", "b9Y", "b9I"], ["w?", "w5M", "w6M", "w7M"]],
            "wilds": wilds,
        },
    )


def test_unknown_table_options_are_refused():
    with pytest.raises(IllegalMove) as err:
        new_game(3, "s", options={"turbo": True})
    assert err.value.code == "bad_options"


def test_a_seat_is_never_a_boolean():
    st = new_game(3, "s")
    with pytest.raises(ValueError):
        view(st, True)


def test_a_mayi_meld_counts_in_the_running_totals_at_once():
    st = make_state(round=1, phase="play", hands={0: "w7M w7A w7Y w7I w2A w3Y w9I"})
    new, _ = act(st, 0, "mayi_meld", cards="w7M w7A w7Y w7I")
    v = view(new, 1)
    assert v["round_mayi_scores"][0] == -10
    assert v["total_scores"][0] == st["totals"][0] - 10


@pytest.mark.parametrize("seed", ["Fals", "draw", "play", "bga"])
def test_a_short_seed_that_reads_like_a_view_value_is_no_leak(seed):
    from games.engine.invariants import check_invariants

    assert check_invariants(new_game(3, seed)) == []
