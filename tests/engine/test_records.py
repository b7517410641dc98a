"""games/engine/records.py: the per-seat, per-round records statistics are made of, checked
against rounds arranged card by card and counted by hand."""

from __future__ import annotations

from games.engine import new_game
from games.engine.bots import choose_action
from games.engine.legal import seats_to_act
from games.engine.records import (
    LoggedMove,
    RoundRecorder,
    bot_log,
    initial_state,
    opening_event,
    replay,
    round_records,
)

from .helpers import act, make_state, meld_with


def arranged_round():
    """Round 1, three seats, seat 0 to draw. Seat 2 discarded w13Y.

    t=10 seat 0 draws the stock (w12I): a window on w13Y, seat 1 alone eligible;
    t=12 seat 1 says "May I?" and buys w13Y with the penalty card w4I;
    t=20 seat 0 lays down 3s and 5s; t=25 discards w12I (hand: w9I);
    t=100 seat 1 takes w12I from the pile; t=103 lays down 13s (with the bought w13Y) and 4s;
    t=110 lays w3I off on seat 0's 3s; t=111 w4I on its own 4s; t=112 discards w12I: out.
    """
    st = make_state(
        players=3,
        round=1,
        active=0,
        hands={
            0: "w3M w3A w3Y w5M w5A w5Y w9I",
            1: "w13M w13A w4M w4A w4Y w3I",
            2: "w2M w6A w7Y w11I w10M w1A",
        },
        discard="w1M w13Y",
        stock="w12I w4I",
    )
    log = [LoggedMove(None, False, [opening_event(st)], 0.0)]

    def step(seat, kind, at, **fields):
        nonlocal st
        st, events = act(st, seat, kind, **fields)
        log.append(LoggedMove(seat, False, events, at))

    step(0, "draw", 10.0, source="stock")
    step(1, "may_i", 12.0)
    step(0, "lay_down", 20.0, cards="w3M w3A w3Y w5M w5A w5Y")
    step(0, "discard", 25.0, card="w12I")
    step(1, "draw", 100.0, source="discard")
    step(1, "lay_down", 103.0, cards="w13M w13A w13Y w4M w4A w4Y")
    step(1, "lay_off", 110.0, card="w3I", meld=meld_with(st, "w3M")["id"])
    step(1, "lay_off", 111.0, card="w4I", meld=meld_with(st, "w4M")["id"])
    step(1, "discard", 112.0, card="w12I")
    return st, log


def test_an_arranged_round_gives_the_records_counted_by_hand():
    st, log = arranged_round()
    assert st["round"] == 2
    [(number, recs)] = round_records(3, log)
    assert number == 1
    zero, one, two = recs
    assert zero | {"think_seconds": None} == {
        "score": 9,
        "penalty": 9,
        "went_out": False,
        "down_turn": 1,
        "turns": 1,
        "windows": 0,
        "calls": 0,
        "buys": 0,
        "bought_used": 0,
        "mayi_melds": 0,
        "lay_offs": 0,
        "lay_offs_others": 0,
        "draws_pile": 0,
        "draws_stock": 1,
        "timeouts": 0,
        "think_seconds": None,
        "clock_seconds": 25.0,
    }
    assert zero["think_seconds"] == [10.0]
    assert one == {
        "score": 0,
        "penalty": 0,
        "went_out": True,
        "down_turn": 1,
        "turns": 1,
        "windows": 1,
        "calls": 1,
        "buys": 1,
        "bought_used": 1,  # w13Y went into the lay-down; the penalty card w4I was not bought
        "mayi_melds": 0,
        "lay_offs": 2,
        "lay_offs_others": 1,  # w3I on seat 0's book
        "draws_pile": 1,
        "draws_stock": 0,
        "timeouts": 0,
        "think_seconds": [75.0],  # turn from t=25, first action at t=100
        "clock_seconds": 87.0,
    }
    # 2 + 6 + 7 + 10 + 15 + 1: never had a turn, discarded w13Y so was offered no window.
    assert two["score"] == two["penalty"] == 41
    assert two["turns"] == two["windows"] == 0 and two["down_turn"] is None


def test_an_early_call_that_lapses_is_no_call_and_a_mayi_meld_is_counted():
    st = make_state(
        players=3,
        round=1,
        active=0,
        hands={0: "w7M w7A w7Y w7I w2M w9A", 1: "w1M w2A w3Y w4I w5M w6A"},
        discard="w1Y w13Y",
        stock="w12I w4Y w5Y w6Y w8Y w11Y",
    )
    log = [LoggedMove(None, False, [opening_event(st)])]
    for seat, kind, fields in (
        (1, "may_i", {}),  # early, for w13Y
        (0, "mayi_meld", {"cards": "w7M w7A w7Y w7I"}),
        (0, "draw", {"source": "discard"}),  # takes w13Y: seat 1's answer lapses
    ):
        st, events = act(st, seat, kind, **fields)
        log.append(LoggedMove(seat, False, events))
    # End the round by hand so the recorder closes it.
    log.append(
        LoggedMove(
            None,
            False,
            [
                {
                    "type": "round_ended",
                    "round": 1,
                    "went_out": None,
                    "scores": [1, 2, 3],
                    "penalties": [11, 2, 3],
                }
            ],
        )
    )
    [(_, recs)] = round_records(3, log)
    assert recs[0]["mayi_melds"] == 1 and recs[0]["draws_pile"] == 1
    assert recs[1]["calls"] == 0 and recs[1]["windows"] == 0
    # No times given: none recorded.
    assert recs[0]["think_seconds"] == [] and recs[0]["clock_seconds"] == 0.0
    assert [r["score"] for r in recs] == [1, 2, 3] and recs[0]["penalty"] == 11


def test_a_timeout_counts_and_the_bot_played_turn_has_no_think_time():
    st = new_game(3, "records-timeout")
    log = [LoggedMove(None, False, [opening_event(st)], 0.0)]
    first = st["active"]
    st, events = act(st, None, "timeout")
    log.append(LoggedMove(None, False, events, 30.0))
    ended_at = 30.0
    if st["window"] is not None:  # the bot's stock draw opened a window: its discard is held
        st, events = act(st, None, "close_window")
        log.append(LoggedMove(None, False, events, 31.0))
        ended_at = 31.0
    assert st["active"] != first
    assert round_records(3, log) == []  # the round goes on
    rec = RoundRecorder(3)
    for move in log:
        rec.feed(move)
    assert rec.current is not None
    mine = rec.current.records[first]
    assert mine["timeouts"] == 1 and mine["think_seconds"] == []
    assert mine["clock_seconds"] == ended_at


def test_every_round_of_a_bot_game_is_recorded_and_scores_add_up():
    for ruleset in ("bga", "petras", "classic", "rook"):
        st = new_game(4, f"records-{ruleset}", ruleset)
        moves = list(bot_log(st))
        rounds = round_records(4, (LoggedMove(seat, False, ev) for seat, ev in moves))
        assert [n for n, _ in rounds] == list(range(1, 8))
        totals = [sum(recs[s]["score"] for _, recs in rounds) for s in range(4)]
        ended = [e for _, ev in moves for e in ev if e["type"] == "game_over"]
        assert totals == ended[0]["totals"], ruleset
        for _, recs in rounds:
            assert sum(r["went_out"] for r in recs) <= 1
            for r in recs:
                assert r["calls"] <= r["windows"] and r["bought_used"] <= r["buys"] <= r["calls"]


def test_a_game_replays_from_its_first_state_rebuilt_from_any_later_one():
    st = new_game(3, "records-replay")
    actions = []
    state = st
    for _ in range(40):
        seat = seats_to_act(state)[0]
        action = choose_action(state, seat)
        actions.append((seat, action))
        state, _ = act(
            state, seat, action["type"], **{k: v for k, v in action.items() if k != "type"}
        )
    assert initial_state(state) == st
    *_, (last, _) = replay(initial_state(state), actions)
    assert last == state
