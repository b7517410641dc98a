"""A timed-out turn is recorded with the actions its bot played (``concrete_action``), and a
timeout that carries them applies exactly those, whatever the bots' code is now: a change to a
bot never changes the replay of an old game. A timeout without them (recorded before, or sent
bare) still asks the bot it names."""

from __future__ import annotations

import copy

import pytest

from games.engine import IllegalMove, apply, concrete_action, new_game
from games.engine.actions import MAX_AUTO_STEPS
from games.engine.bots import TIMEOUT_LEVELS, choose_action, fallback_action
from games.engine.legal import answerers
from games.engine.recorded import timeouts_with_plays
from games.engine.records import replay
from games.engine.simulate import play_game

from .helpers import change_the_bots, make_state, refused

RULESETS = ["bga", "petras", "classic", "rook"]


def turn_states(ruleset: str, seed: str, most: int = 8) -> list[dict]:
    """States in which the active seat's turn is pending (draw or play), as normal bots play."""
    state = new_game(4, seed, ruleset)
    out: list[dict] = []
    for n in range(3000):
        if state["game_over"] or len(out) >= most:
            break
        waiting = answerers(state)
        if not waiting and state["phase"] in ("draw", "play") and n % 7 == 0:
            out.append(state)
        seat = waiting[0] if waiting else state["active"]
        action = choose_action(state, seat) or (
            {"type": "no_thanks"} if waiting else fallback_action(state, seat)
        )
        state, _ = apply(state, seat, action)
    return out


def timed_out_game(ruleset: str, seed: str, level: str | None) -> tuple[dict, list]:
    """Normal bots play a game in which every fifth turn times out; the log holds each timeout
    in its concrete form, as the platform records it."""
    state = new_game(4, seed, ruleset)
    log: list[tuple[int | None, dict]] = []
    turns = 0
    while not state["game_over"]:
        waiting = answerers(state)
        if waiting:
            seat = waiting[0]
            action = choose_action(state, seat) or {"type": "no_thanks"}
        elif state["phase"] == "draw" and (turns := turns + 1) % 5 == 0:
            seat, bare = (
                None,
                {"type": "timeout"} if level is None else {"type": "timeout", "level": level},
            )
            action = concrete_action(state, None, bare)
        else:
            seat = state["active"]
            action = choose_action(state, seat) or fallback_action(state, seat)
        state, _ = apply(state, seat, action)
        log.append((seat, action))
    return state, log


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("level", [*TIMEOUT_LEVELS, None])
def test_the_concrete_timeout_plays_what_the_bare_one_did(ruleset, level):
    for state in turn_states(ruleset, f"concrete-{ruleset}"):
        bare = {"type": "timeout"} if level is None else {"type": "timeout", "level": level}
        before = copy.deepcopy(state)
        concrete = concrete_action(state, None, bare)
        assert state == before, "concrete_action changes nothing"
        assert {k: v for k, v in concrete.items() if k != "plays"} == bare
        assert concrete["plays"] and all(isinstance(p, dict) for p in concrete["plays"])
        # The same state and the same events (timed_out, then the plays' own, marked auto).
        assert apply(state, None, concrete) == apply(state, None, bare)


def test_other_actions_are_recorded_as_they_are():
    st = new_game(3, "as-is")
    for seat, action in [
        (st["active"], {"type": "draw", "source": "stock"}),
        (None, {"type": "close_window"}),
        (0, {"type": "timeout"}),  # from a seat: apply refuses it, concrete_action leaves it
        (None, {"type": "timeout", "plays": [{"type": "draw", "source": "stock"}]}),
    ]:
        assert concrete_action(st, seat, action) is action


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_game_with_timeouts_replays_the_same_after_the_bots_change(ruleset, monkeypatch):
    final, log = timed_out_game(ruleset, f"bots-change-{ruleset}", "normal")
    timeouts = [a for s, a in log if s is None and a["type"] == "timeout"]
    assert timeouts and all(a["plays"] for a in timeouts)
    start = new_game(4, f"bots-change-{ruleset}", ruleset)
    change_the_bots(monkeypatch)
    *_, (rebuilt, _) = replay(start, log)
    assert rebuilt == final
    # The change bites: the same log with the timeouts bare replays to another game (or not
    # at all), which is what every old game with a timeout did after a change to its bot.
    bare = [(s, {k: v for k, v in a.items() if k != "plays"}) for s, a in log]
    try:
        *_, (other, _) = replay(start, bare)
    except IllegalMove:
        return
    assert other != final


def test_the_bots_change_changes_nothing_of_a_concrete_timeout(monkeypatch):
    for state in turn_states("bga", "one-turn"):
        concrete = concrete_action(state, None, {"type": "timeout", "level": "strong"})
        expected = apply(state, None, concrete)
        with monkeypatch.context() as patch:
            change_the_bots(patch)
            assert apply(state, None, concrete) == expected


ROUND7 = dict(
    round=7,
    phase="play",
    hands={0: "w13I"},
    melds={0: "w1M w2M w3M w4M | w5A w6A w7A w8A | w9Y w10Y w11Y w12Y"},
)
DRAW = dict(players=4, hands={0: "3M 4A 5Y 9I 8M 9A"}, discard="w1M w13Y")


def timeout(*plays):
    return ("timeout", {"level": "normal", "plays": list(plays)})


@pytest.mark.parametrize(
    ("kw", "action", "code"),
    [
        # A play the rules refuse, first or later: refused with its own code, nothing applied.
        (DRAW, timeout({"type": "discard", "card": "w3M"}), "must_draw"),
        (
            DRAW,
            timeout({"type": "draw", "source": "stock"}, {"type": "discard", "card": "b13I"}),
            "card_not_in_hand",
        ),
        (ROUND7, timeout({"type": "discard", "card": "w13I"}), "no_final_discard"),
        # Plays that leave the turn unfinished, or go on after it ended.
        (DRAW, timeout({"type": "draw", "source": "stock"}), "timeout_plays"),
        (
            DRAW,
            timeout(
                {"type": "draw", "source": "discard"},
                {"type": "discard", "card": "w3M"},
                {"type": "no_thanks"},
            ),
            "timeout_plays",
        ),
        # Not plays at all.
        (DRAW, timeout(), "bad_action"),
        (DRAW, ("timeout", {"plays": "draw"}), "bad_action"),
        (DRAW, timeout({"type": "timeout"}), "bad_action"),
        (DRAW, timeout({"type": "close_window"}), "bad_action"),
        (DRAW, timeout("draw"), "bad_action"),
        (
            DRAW,
            timeout(*[{"type": "draw", "source": "stock"}] * (MAX_AUTO_STEPS + 1)),
            "bad_action",
        ),
    ],
)
def test_a_timeout_with_an_illegal_play_is_refused(kw, action, code):
    refused(make_state(**kw), None, action, code)


def test_recorded_plays_are_played_as_they_are():
    st = make_state(**DRAW)
    action = {
        "type": "timeout",
        "plays": [{"type": "draw", "source": "discard"}, {"type": "discard", "card": "w9I"}],
    }
    new, events = apply(st, None, action)
    assert events[0] == {"type": "timed_out", "seat": 0}
    assert [(e["type"], e.get("card")) for e in events if e["type"] in ("drew", "discarded")] == [
        ("drew", "w13Y"),
        ("discarded", "w9I"),
    ]
    assert all(e.get("auto") for e in events[1:])
    assert new["active"] == 1 and new["moves"] == st["moves"] + 1
    # With plays, the level is only a label: one that is no level any more still replays.
    assert apply(st, None, {**action, "level": "retired"}) == (new, events)


@pytest.mark.parametrize("level", [*TIMEOUT_LEVELS, None])
def test_old_bare_timeouts_still_replay(level):
    """A timeout recorded before (no plays) plays its level's bot as today; no level: the
    frozen heuristic."""
    state = turn_states("bga", "old-form")[2]
    bare = {"type": "timeout"} if level is None else {"type": "timeout", "level": level}
    new, events = apply(state, None, bare)
    assert events[0]["type"] == "timed_out"
    plays = []
    st = state
    while st["active"] == state["active"] and st["phase"] in ("draw", "play"):
        play = choose_action(st, st["active"], level or "heuristic")
        plays.append(play)
        st, _ = apply(st, st["active"], play)
    assert concrete_action(state, None, bare)["plays"] == plays
    assert {k: v for k, v in new.items() if k != "moves"} == {
        k: v for k, v in st.items() if k != "moves"
    }


# -- old timeouts made concrete from their events (games/engine/recorded.py) ------------------
def old_game(ruleset: str, seed: str) -> tuple[dict, list]:
    """Bots of three levels play a game in which a fifth of the turns time out, recorded bare
    as before: ``(final, [(seat, action, events)])``."""
    log: list = []
    final, _, _ = play_game(
        4,
        seed,
        ruleset,
        policies=("normal", "strong", "easy"),
        checks=False,
        timeouts=0.2,
        record=log,
    )
    state = new_game(4, seed, ruleset)
    out = []
    for seat, action in log:
        state, events = apply(state, seat, action)
        out.append((seat, action, events))
    assert state == final
    return final, out


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("changed", [False, True])
def test_old_timeouts_get_their_plays_from_their_events(ruleset, changed, monkeypatch):
    final, log = old_game(ruleset, f"old-{ruleset}")
    bare = [i for i, (s, a, _) in enumerate(log) if s is None and a["type"] == "timeout"]
    assert len(bare) > 20
    if changed:
        change_the_bots(monkeypatch)  # found from the events, not by asking the bots again
    found = timeouts_with_plays(final, log)
    assert found.problem is None
    assert sorted(found.actions) == bare
    rewritten = [(s, found.actions.get(i, a)) for i, (s, a, _) in enumerate(log)]
    change_the_bots(monkeypatch)
    *_, (rebuilt, _) = replay(new_game(4, f"old-{ruleset}", ruleset), rewritten)
    assert rebuilt == final


def test_a_log_that_does_not_rebuild_the_game_is_left_alone():
    final, log = old_game("bga", "old-broken")
    i = next(i for i, (s, a, _) in enumerate(log) if s is None and a["type"] == "timeout")
    seat, action, events = log[i]
    # Events no action makes (a discard of a card the seat does not hold).
    forged = [*events[:1], {"type": "discarded", "seat": 9, "card": "w1M", "auto": True}]
    found = timeouts_with_plays(final, [*log[:i], (seat, action, forged), *log[i + 1 :]])
    assert found.problem and f"move {i + 1}" in found.problem
    # A stored state the log does not reach.
    other = dict(final, totals=[t + 1 for t in final["totals"]])
    assert "does not rebuild" in (timeouts_with_plays(other, log).problem or "")
    # Once rewritten, there is nothing more to do (and a second run finds the same game).
    first = timeouts_with_plays(final, log)
    done = [(s, first.actions.get(n, a), e) for n, (s, a, e) in enumerate(log)]
    again = timeouts_with_plays(final, done)
    assert again.problem is None and again.actions == {}
