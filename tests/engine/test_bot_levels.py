"""Issue 15: bot levels. Each level decides only from what its seat may know (its own view and
the public history), is deterministic, plays legal moves in every ruleset, and the levels
are ordered the way their names say."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from games.engine import apply, legal_actions, new_game, view
from games.engine.bots import TIMEOUT_LEVELS, choose_action, fallback_action
from games.engine.bots.expert import expert_action
from games.engine.bots.strong import cards_to_draw, strong_action
from games.engine.bots.tuning import expert_tuning, tuning_for
from games.engine.invariants import check_invariants
from games.engine.legal import answerers
from games.engine.rulesets import get_ruleset
from games.engine.simulate import play_game

from .helpers import act, make_state

RULESETS = ["bga", "petras", "classic", "rook"]
# The fast levels (the expert searches: tests/engine/test_analysis.py checks it the same ways,
# with a small budget).
LEVELS = TIMEOUT_LEVELS
MIXED = ["strong", "normal", "easy", "baseline"]


def states_of_a_game(ruleset: str, seed: str, every: int = 9, most: int = 14) -> list[dict]:
    """States met while bots of mixed levels play a game (one every ``every`` actions)."""
    players = 4
    state = new_game(players, seed, ruleset)
    out = []
    actions = 0
    while not state["game_over"] and len(out) < most and actions < 5000:
        waiting = answerers(state)
        seat = waiting[0] if waiting else state["active"]
        action = choose_action(state, seat, MIXED[seat % len(MIXED)])
        if action is None:
            action = {"type": "no_thanks"} if waiting else fallback_action(state, seat)
        state, _ = apply(state, seat, action)
        actions += 1
        if actions % every == 0:
            out.append(state)
    return out


def redeal(state: dict, seat: int, rng: random.Random) -> dict:
    """The same state as far as ``seat`` can tell: the other hands and the stock dealt again
    from their cards, each hand keeping its size and the cards everyone saw it take."""
    new = {**state, "hands": [h[:] for h in state["hands"]], "stock": state["stock"][:]}
    pinned: dict[int, set[str]] = {}
    for s, card in state.get("taken") or []:
        if s != seat and card in state["hands"][s]:
            pinned.setdefault(s, set()).add(card)
    others = [s for s in range(state["players"]) if s != seat]
    pool = list(new["stock"])
    for s in others:
        pool += [c for c in new["hands"][s] if c not in pinned.get(s, set())]
    rng.shuffle(pool)
    for s in others:
        keep = [c for c in new["hands"][s] if c in pinned.get(s, set())]
        need = len(new["hands"][s]) - len(keep)
        new["hands"][s] = keep + [pool.pop() for _ in range(need)]
    new["stock"] = pool
    assert not check_invariants(new)
    assert view(new, seat) == view(state, seat)  # nothing the seat sees has changed
    return new


def deciders(state: dict) -> list[int]:
    waiting = answerers(state)
    if waiting:
        return waiting
    return [state["active"]] if state["phase"] in ("draw", "play") else []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_level_looks_at_hidden_cards(ruleset):
    """Re-dealing the cards a seat cannot see never changes what its bot does."""
    rng = random.Random(f"redeal:{ruleset}")
    checked = 0
    for state in states_of_a_game(ruleset, f"infoset-{ruleset}"):
        for seat in deciders(state):
            for level in LEVELS:
                decided = choose_action(state, seat, level)
                for _ in range(2):
                    assert choose_action(redeal(state, seat, rng), seat, level) == decided, (
                        f"{level} bot of seat {seat} decided otherwise with other hidden cards"
                    )
                checked += 1
    assert checked >= 20


@settings(max_examples=8, deadline=None)
@given(seed=hs.integers(0, 10**6), ruleset=hs.sampled_from(RULESETS), pick=hs.integers(0, 99))
def test_no_level_looks_at_hidden_cards_property(seed, ruleset, pick):
    states = states_of_a_game(ruleset, f"prop-{seed}", every=5, most=20)
    state = states[pick % len(states)]
    rng = random.Random(seed)
    for seat in deciders(state):
        for level in LEVELS:
            decided = choose_action(state, seat, level)
            assert choose_action(redeal(state, seat, rng), seat, level) == decided


def test_the_public_history_records_pick_ups_and_the_view_shows_it():
    st = make_state(players=3, round=1, active=0, phase="draw", discard="w4M w9A")
    st, _ = act(st, 0, "draw", source="discard")
    assert st["taken"] == [[0, "w9A"]]
    assert all(view(st, s)["taken"] == [[0, "w9A"]] for s in (0, 1, 2, None))
    assert view(st, 1)["faces"]["w9A"]["rank"] == 9


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_level_finishes_games_legally_in_every_ruleset(ruleset):
    # An illegal choice is a problem even without the invariant checks (the slow part).
    for players, checks in ((4, True), (5, False)):
        final, _, problems = play_game(
            players, f"legal-{ruleset}", ruleset, ("strong", "easy", "normal"), checks=checks
        )
        assert final["game_over"] and not problems


def test_levels_are_deterministic():
    for state in states_of_a_game("bga", "again", every=11, most=6):
        for seat in deciders(state):
            for level in LEVELS:
                assert choose_action(state, seat, level) == choose_action(state, seat, level)


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        choose_action(new_game(3, "x"), 0, "grandmaster")


def test_old_names_still_play_the_frozen_heuristic():
    st = new_game(4, "names")
    seat = st["active"]
    assert choose_action(st, seat, "heuristic") == choose_action(st, seat, "baseline")
    assert choose_action(st, seat, "random") in legal_actions(st, seat)


def test_timeout_plays_at_the_level_the_action_names():
    st = new_game(4, "timeout-level")
    for level in LEVELS:
        new, events = apply(st, None, {"type": "timeout", "level": level})
        assert new["active"] != st["active"] or new["phase"] == "done"
    from games.engine import IllegalMove

    with pytest.raises(IllegalMove):
        apply(st, None, {"type": "timeout", "level": "godlike"})
    with pytest.raises(IllegalMove):  # a timed-out turn is played fast: never by the expert
        apply(st, None, {"type": "timeout", "level": "expert"})


def test_strong_keeps_its_hand_cheap_when_someone_may_go_out():
    # Seat 1 is down with one card: seat 0, far from its contract, sheds its dearest card.
    st = make_state(
        players=3,
        round=1,
        active=0,
        phase="play",
        hands={0: "w13M w2A w5Y w8I w3M w11A w6I", 1: "w4I"},
        melds={1: "w9M b9M w9A | w7M b7M w7A"},
    )
    action = choose_action(st, 0, "strong")
    assert action["type"] == "discard" and action["card"] in ("w13M", "w11A")


def test_normal_sheds_dear_cards_in_bga_when_someone_may_go_out():
    # Seat 1 is down with one card: normal breaks its pair of 10s (15 points each) rather
    # than the heuristic's least useful card, an 8.
    hands = {0: "w10M w10A w2Y w3Y w8M w5A w6I", 1: "w4I"}
    st = make_state(
        players=3,
        round=1,
        active=0,
        phase="play",
        hands=hands,
        melds={1: "w9M b9M w9A | w7M b7M w7A"},
    )
    assert choose_action(st, 0, "baseline") == {"type": "discard", "card": "w8M"}
    assert choose_action(st, 0, "normal") == {"type": "discard", "card": "w10A"}
    # With nobody near the end (no seat down, the stock full) it discards as the heuristic.
    calm = make_state(players=3, round=1, active=0, phase="play", hands={0: hands[0]})
    assert choose_action(calm, 0, "normal") == {"type": "discard", "card": "w8M"}


# -- bga: MAYI melds that draw replacements (issue 15: rounds that end with nobody out) ------
# A MAYI meld made before the contract is down draws four replacement cards from the stock; four
# strong bots that made every one ran the stock dry before anyone was out in 44% of rounds.
MAYI_HAND = "w4M w5A w6Y w7I w1M w9A w11Y w13I"
HOLDERS = ["strong", "easy"]  # normal only in long contracts (below); the baseline never
# A stock of 20 cards, and no rebuild left.
SHORT = {"stock": " ".join(f"b{r}{s}" for r in range(8, 13) for s in "MAYI"), "rest": "discard"}


@pytest.mark.parametrize("level", HOLDERS)
def test_bots_keep_a_mayi_meld_for_after_the_lay_down_while_nobody_drains_the_stock(level):
    st = make_state(players=4, round=3, active=0, phase="draw", hands={0: MAYI_HAND})
    assert choose_action(st, 0, level)["type"] == "draw"
    # normal (round 3's contract is short) and the frozen yardstick meld at once.
    assert choose_action(st, 0, "normal")["type"] == "mayi_meld"
    assert choose_action(st, 0, "baseline")["type"] == "mayi_meld"


LONG_HAND = "w4M w5A w6Y w7I w1M w9A w11Y w13I w2Y w3Y w12A"


@pytest.mark.parametrize("round_no", [5, 6, 7])
def test_normal_keeps_a_mayi_meld_in_a_long_contract_until_another_seat_drains_the_stock(
    round_no,
):
    # bga's rounds 5 to 7 (ten cards or more), where four normal bots that melded at once ran
    # the stock dry: normal keeps the meld, then melds once another seat drew replacements.
    st = make_state(players=4, round=round_no, active=0, phase="draw", hands={0: LONG_HAND})
    assert choose_action(st, 0, "normal")["type"] == "draw"
    drained = make_state(
        players=4,
        round=round_no,
        active=0,
        phase="draw",
        hands={0: LONG_HAND},
        mayi={2: "w8M w8A w8Y w8I"},
    )
    assert choose_action(drained, 0, "normal")["type"] == "mayi_meld"


def test_normal_keeps_the_held_meld_cards_when_it_discards():
    st = make_state(players=4, round=6, active=0, phase="play", hands={0: LONG_HAND + " b13M"})
    action = choose_action(st, 0, "normal")
    assert action["type"] == "discard"
    assert action["card"] not in ("w4M", "w5A", "w6Y", "w7I")


def holding_a_mayi_meld(few_left: bool, **more) -> dict:
    """Seat 0 of 4 to draw in round 3 holding MAYI_HAND (a MAYI meld), before its contract;
    ``few_left``: 20 cards left to draw (SHORT, no rebuild), else a full stock."""
    st = make_state(
        players=4,
        round=3,
        active=0,
        phase="draw",
        hands={0: MAYI_HAND},
        **({"reshuffles": 1, **SHORT} if few_left else {}),
        **more,
    )
    assert (cards_to_draw(st) == 20) is few_left
    return st


@pytest.mark.parametrize("level", [*HOLDERS, "expert"])
@pytest.mark.parametrize("few_left", [False, True])
def test_bots_meld_once_another_seat_drew_replacements(level, few_left):
    # Seat 2 tabled a MAYI meld before its contract: the stock is being drained anyway, and
    # matching it has no limit, however few cards are left to draw (20: SHORT, below).
    st = holding_a_mayi_meld(few_left, mayi={2: "w8M w8A w8Y w8I"})
    assert choose_action(st, 0, level)["type"] == "mayi_meld"


@pytest.mark.parametrize("level", [*HOLDERS, "normal"])
def test_bots_meld_at_once_when_down(level):
    # Down, a MAYI meld draws nothing: the hand only shrinks.
    st = make_state(
        players=4,
        round=3,
        active=0,
        phase="play",
        hands={0: "w4M w5A w6Y w7I w13I"},
        melds={0: "w1A w2A w3A w4A | w8Y w9Y w10Y w11Y"},
    )
    assert choose_action(st, 0, level)["type"] == "mayi_meld"


MELD_FIRST = replace(tuning_for(get_ruleset("bga")), mayi_first=True, mayi_stock=60)


def test_the_meld_first_weights_meld_while_enough_cards_are_left_to_draw():
    # bench/bots.py --tuning mayi_first=true,mayi_stock=60 (docs/ANALYSIS.md: measured):
    # nobody drew replacements, yet the seat melds while 60 cards are left to draw.
    st = holding_a_mayi_meld(few_left=False)
    assert strong_action(st, 0)["type"] == "draw"
    assert strong_action(st, 0, MELD_FIRST) == {
        "type": "mayi_meld",
        "cards": ["w4M", "w5A", "w6Y", "w7I"],
    }
    short = holding_a_mayi_meld(few_left=True)
    assert strong_action(short, 0, MELD_FIRST)["type"] == "draw"
    # With a rebuild still allowed the pile counts too.
    ample = {**short, "reshuffles": 0}
    assert cards_to_draw(ample) >= 60
    assert strong_action(ample, 0, MELD_FIRST)["type"] == "mayi_meld"


@pytest.mark.parametrize("few_left", [False, True])
def test_the_expert_makes_its_mayi_melds_first_however_few_cards_are_left(few_left):
    # Nobody drew replacements: the strong bot keeps the meld, the expert makes it (its -10
    # and four fresh cards), even with 20 cards left to draw and no rebuild.
    st = holding_a_mayi_meld(few_left)
    assert choose_action(st, 0, "strong")["type"] == "draw"
    assert choose_action(st, 0, "expert") == {
        "type": "mayi_meld",
        "cards": ["w4M", "w5A", "w6Y", "w7I"],
    }


@pytest.mark.parametrize("level", HOLDERS)
def test_a_mayi_meld_tabled_after_the_contract_drew_nothing(level):
    # Seat 1 melded its MAYI meld once down (no replacements) and seat 0 once before: seat 0
    # keeps its second one.
    st = make_state(
        players=4,
        round=3,
        active=0,
        phase="draw",
        hands={0: MAYI_HAND},
        melds={1: "w1Y w2Y w3Y w4Y | w8I w9I w10I w11I"},
        mayi={1: "w8M b8A w8Y b8I", 0: "b9M b9A b9Y b9I"},
    )
    assert choose_action(st, 0, level)["type"] == "draw"


@pytest.mark.parametrize("round_no", [6, 7])
def test_the_expert_sheds_dear_cards_in_the_last_round(round_no):
    # bga's last round (three runs, no final discard) ends with nobody out in nearly every
    # table with an expert: the hand at its end is the score, so the expert counts a penalty
    # point for more there (tuning.w_pen_last) and breaks its pair of 10s (15 points each)
    # where the strong bot sheds a 12 (10 points). In round 6 both keep the pair.
    hand = "w10A w1M w8M w1Y w12A w3I w10I w4M w2I w4I w8A w6Y w9M"
    st = make_state(players=4, round=round_no, active=0, phase="play", hands={0: hand})
    assert choose_action(st, 0, "strong") == {"type": "discard", "card": "w12A"}
    expected = "w10I" if round_no == 7 else "w12A"
    assert choose_action(st, 0, "expert") == {"type": "discard", "card": expected}
    # Without the last round's weight (bench/bots.py --tuning w_pen_last=none) it keeps them.
    unset = replace(expert_tuning(get_ruleset("bga")), w_pen_last=None)
    assert expert_action(st, 0, tuning=unset) == {"type": "discard", "card": "w12A"}
