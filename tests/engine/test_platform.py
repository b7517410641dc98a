"""The two platform actions (seat ``None``): ``timeout`` plays the active seat's turn with the
bot (the ``normal`` level unless the action names another) to its end; ``close_window`` is the buy-window timer. Seats may send neither."""

from __future__ import annotations

import pytest

from games.engine import apply
from games.engine.bots import choose_action

from .helpers import act, event, make_state, refused, types


def manual_turn(st, seat):
    """Play ``seat``'s turn the way ``timeout`` should: the normal bot until the turn ends."""
    events = []
    round_no = st["round"]
    while (
        not st["game_over"]
        and st["round"] == round_no
        and st["active"] == seat
        and st["phase"] in ("draw", "play")
    ):
        st, evs = apply(st, seat, choose_action(st, seat))
        events += evs
    return st, events


@pytest.mark.parametrize(
    "kw",
    [
        dict(players=4, hands={0: "3M 4A 5Y 9I 8M 9A"}, discard="w1M w13Y"),
        dict(players=4, phase="play", hands={0: "w7M w7A w7Y w9I w9A w9Y b2M"}),
        dict(players=3, round=2, hands={0: "1M 2M 3M 4M 9Y 9A 9I"}, discard="w12A"),
        dict(
            players=3,
            round=7,
            phase="play",
            hands={0: "w13I"},
            melds={0: "w1M w2M w3M w4M | w5A w6A w7A w8A | w9Y w10Y w11Y w12Y"},
        ),
    ],
)
def test_timeout_plays_the_active_seats_turn_with_the_normal_bot(kw):
    st = make_state(**kw)
    new, events = act(st, None, "timeout")
    assert events[0] == {"type": "timed_out", "seat": 0}
    assert all(e.get("auto") for e in events[1:])
    expected, manual_events = manual_turn(st, 0)
    assert [{k: v for k, v in e.items() if k != "auto"} for e in events[1:]] == manual_events
    assert {k: v for k, v in new.items() if k != "moves"} == {
        k: v for k, v in expected.items() if k != "moves"
    }
    assert new["moves"] == st["moves"] + 1, "a timeout is one move"
    turn_over = new["active"] != 0 or new["phase"] == "done" or new["round"] != st["round"]
    assert turn_over


def test_timeout_in_round_7_passes_with_an_unplayable_last_card():
    st = make_state(
        round=7,
        phase="play",
        hands={0: "w13I"},
        melds={0: "w1M w2M w3M w4M | w5A w6A w7A w8A | w9Y w10Y w11Y w12Y"},
    )
    new, events = act(st, None, "timeout")
    assert types(events) == ["timed_out", "passed", "turn"]


def test_timeout_during_an_open_window_leaves_the_answers_alone():
    st = make_state(players=4, hands={0: "3M 4A 5Y 9I 8M 9A"}, discard="w1M w13Y")
    st, _ = act(st, 0, "draw", source="stock")
    st, _ = act(st, 2, "may_i")
    new, events = act(st, None, "timeout")
    assert "discard_held" in types(events)
    assert new["window"]["answers"] == [None, "may_i"] and new["phase"] == "done"
    new, events = act(new, None, "close_window")
    assert event(events, "bought")["seat"] == 2 and new["active"] == 1


def test_timeout_needs_a_pending_turn():
    st = make_state(players=4, hands={0: "3M 4A 5Y 9I 8M 9A"}, discard="w1M w13Y")
    st, _ = act(st, 0, "draw", source="stock")
    st, _ = act(st, 0, "discard", card="w3M")
    refused(st, None, ("timeout", {}), "no_turn_pending")


@pytest.mark.parametrize("kind", ["timeout", "close_window"])
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_platform_actions_are_refused_from_a_seat(kind, seat):
    st = make_state(players=3, hands={0: "3M 4A 5Y 9I 8M 9A"}, discard="w13Y")
    st, _ = act(st, 0, "draw", source="stock")
    refused(st, seat, (kind, {}), "platform_only")


@pytest.mark.parametrize(
    "kind", ["draw", "lay_down", "lay_off", "mayi_meld", "discard", "pass", "may_i", "no_thanks"]
)
def test_player_actions_are_refused_from_the_platform(kind):
    refused(make_state(), None, (kind, {}), "bad_seat")
