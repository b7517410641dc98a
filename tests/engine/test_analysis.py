"""Issue 33: the analysis of a decision by determinized playouts, and the expert bot built on
it. Both read only the deciding seat's information (re-dealing every card it cannot see
changes nothing: with the same seed the same answer), are deterministic from a seed, and
find the known best choice of a hand-built position. Small sample counts: the suite stays
fast."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from games.engine import (
    ANALYSIS_VERSION,
    analyse_decision,
    analysis_choice,
    apply,
    decision_analysis,
    decision_kind,
    new_game,
    view,
)
from games.engine.bots import choose_action, fallback_action, fastplay
from games.engine.bots import expert as expert_module
from games.engine.bots.fastplay import Round, supported
from games.engine.bots.playout import determinize, known_held, unseen_pool
from games.engine.bots.search import KEEP, WAIT
from games.engine.invariants import check_invariants
from games.engine.legal import answerers, contract_melds
from games.engine.rulesets import RULESETS as ALL_RULESETS
from games.engine.scoring import cards_penalty

from .helpers import make_state
from .test_bot_levels import deciders, redeal, states_of_a_game

RULESETS = ["bga", "petras", "classic", "rook"]


@pytest.fixture
def small_expert(monkeypatch):
    """The expert at a budget of a few playouts: the same code, faster."""
    monkeypatch.setattr(expert_module, "PLAYOUTS", 4)


def decisions_of_a_game(ruleset: str, seed: str, most: int = 6) -> list[tuple[dict, int]]:
    """(state, seat) pairs with a decision to analyse, met in a game of mixed bots."""
    out = []
    for state in states_of_a_game(ruleset, seed, every=7, most=30):
        for seat in deciders(state):
            if decision_kind(state, seat) is not None and len(out) < most:
                out.append((state, seat))
    return out


def test_the_answer_has_the_pinned_shape_and_repeats_from_its_seed():
    st = new_game(4, "shape")
    seat = st["active"]
    result = analyse_decision(st, seat, samples=3, seed="s1")
    assert set(result) == {"choices", "best", "samples"}
    assert result["samples"] == 3
    assert all(set(c) == {"action", "cost", "low", "high"} for c in result["choices"])
    assert [c["action"] for c in result["choices"]] == [
        {"type": "draw", "source": "stock"},
        {"type": "draw", "source": "discard"},
    ]
    best = [c for c in result["choices"] if c["action"] == result["best"]]
    assert best and best[0]["cost"] == 0
    assert all(c["cost"] >= 0 and c["low"] <= c["cost"] <= c["high"] for c in result["choices"])
    assert analyse_decision(st, seat, samples=3, seed="s1") == result
    assert isinstance(ANALYSIS_VERSION, int)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_determinization_is_a_state_the_seat_cannot_tell_from_the_real_one(ruleset):
    for state, seat in decisions_of_a_game(ruleset, f"det-{ruleset}", most=8):
        det = determinize(state, seat, "k")
        assert not check_invariants(det)
        assert view(det, seat) == view(state, seat)
        # The seed that fixes the deals is the sample's, never the game's.
        assert det["seed"] != state["seed"]
        held = known_held(state, seat)
        assert all(set(cards) <= set(det["hands"][s]) for s, cards in enumerate(held))
        assert sorted(unseen_pool(det, seat, held)) == unseen_pool(state, seat, held)


@pytest.mark.parametrize("ruleset", ["bga", "rook"])
def test_re_dealing_the_hidden_cards_changes_no_analysis(ruleset):
    rng = random.Random(f"analysis-redeal:{ruleset}")
    checked = 0
    for state, seat in decisions_of_a_game(ruleset, f"hidden-{ruleset}", most=5):
        answer = analyse_decision(state, seat, samples=2, seed="same")
        for _ in range(2):
            other = redeal(state, seat, rng)
            assert other["hands"] != state["hands"] or other["stock"] != state["stock"]
            assert analyse_decision(other, seat, samples=2, seed="same") == answer
        checked += 1
    assert checked >= 4


@settings(max_examples=5, deadline=None)
@given(seed=hs.integers(0, 10**6), pick=hs.integers(0, 99))
def test_re_dealing_the_hidden_cards_changes_no_analysis_property(seed, pick):
    found = decisions_of_a_game("bga", f"hidden-prop-{seed}", most=12)
    state, seat = found[pick % len(found)]
    answer = analyse_decision(state, seat, samples=2, seed=str(seed))
    other = redeal(state, seat, random.Random(seed))
    assert analyse_decision(other, seat, samples=2, seed=str(seed)) == answer


@pytest.mark.usefixtures("small_expert")
@pytest.mark.parametrize("seed", ["a", "b"])
def test_re_dealing_the_hidden_cards_changes_no_move_of_the_expert(seed):
    # bga: the variants' expert plays as the strong bot (tests/engine/test_bot_levels.py).
    rng = random.Random(f"expert-redeal:{seed}")
    checked = 0
    for state in states_of_a_game("bga", f"expert-{seed}", every=5, most=16):
        for seat in deciders(state):
            decided = choose_action(state, seat, "expert")
            assert choose_action(redeal(state, seat, rng), seat, "expert") == decided
            checked += 1
    assert checked >= 10


def test_the_expert_weighs_every_draw_before_its_contract_but_buys_only_what_helps(monkeypatch):
    # A 13 of I does nothing for two books of 4s and 7s: the strong bot leaves it on the pile.
    # The expert still plays both draws out (holding it may cost less than the stock's card),
    # but never weighs buying it in a "May I?" window, which costs a penalty card too.
    weighed: list[list[dict]] = []
    real = expert_module.weigh

    def spy(state, seat, choices, *args, **kwargs):
        weighed.append(list(choices))
        return real(state, seat, choices, *args, **kwargs)

    monkeypatch.setattr(expert_module, "weigh", spy)
    monkeypatch.setattr(expert_module, "PLAYOUTS", 4)
    table = {"players": 4, "round": 1, "hands": {0: "w4M w4A w7Y w7I w9M w2A"}, "discard": "w13I"}
    draw = make_state(active=0, phase="draw", **table)
    assert choose_action(draw, 0, "strong") == {"type": "draw", "source": "stock"}
    assert choose_action(draw, 0, "expert")["type"] == "draw"
    assert weighed and {c.get("source") for c in weighed[0]} == {"stock", "discard"}
    weighed.clear()
    # Seat 2 drew from the stock: seats 3 and 0 may buy seat 1's discard.
    window = make_state(active=2, phase="play", window={"eligible": [3, 0]}, **table)
    assert choose_action(window, 0, "expert") == {"type": "no_thanks"}
    assert weighed == []


def test_the_dearest_card_is_the_discard_when_the_round_is_about_to_end():
    # The stock has one card left and may not be rebuilt again: the round ends within a turn
    # or two with nobody out, every hand counted. Nothing in this hand makes anything, so the
    # best discard is the dearest card (the 10: 15 points), and keeping it instead of the 2
    # costs 13 points.
    st = make_state(
        players=4,
        round=1,
        active=0,
        phase="play",
        hands={0: "w10M w13Y w2A w5Y w8I b3M w12A"},
        discard="w5I",
        stock="w4A",
        reshuffles=1,
        rest="discard",
    )
    assert decision_kind(st, 0) == "discard"
    result = decision_analysis(st, 0, samples=4, seed="dearest")
    assert result["best"] == {"type": "discard", "card": "w10M"}
    cost = {c["action"]["card"]: c for c in result["choices"]}
    assert cost["w10M"]["cost"] == 0
    assert all(c["cost"] > 0 for card, c in cost.items() if card != "w10M")
    assert cost["w2A"]["low"] > 0  # significantly worse, not only on average
    assert result["expected"] > 0


def test_what_each_kind_of_decision_offers_and_how_a_made_action_maps_to_it():
    # A lay-down: the engine's arrangement, or wait; any lay-down the player makes is the
    # first, a discard instead is waiting.
    st = make_state(
        players=3,
        round=1,
        active=0,
        phase="play",
        hands={0: "w7M w7A w7Y w9A w9Y b9I w2M"},
        discard="w5I",
    )
    assert decision_kind(st, 0) == "lay_down"
    down = {"type": "lay_down", "melds": contract_melds(st, 0)}
    assert (
        analysis_choice(
            st, 0, {"type": "lay_down", "melds": [["w9A", "w9Y", "b9I"], ["w7M", "w7A", "w7Y"]]}
        )
        == down
    )
    assert analysis_choice(st, 0, {"type": "discard", "card": "w2M"}) == WAIT
    assert analysis_choice(st, 0, {"type": "mayi_meld", "cards": []}) is None
    # A discard: one choice per face, a second copy is the same choice.
    st = make_state(
        players=3, round=1, active=0, phase="play", hands={0: "w4M b4M w9A w12Y w2I w6A w8Y"}
    )
    result = analyse_decision(st, 0, samples=1, seed="faces")
    cards = [c["action"]["card"] for c in result["choices"]]
    assert len(cards) == 6 and "b4M" not in cards
    assert analysis_choice(st, 0, {"type": "discard", "card": "b4M"}) == {
        "type": "discard",
        "card": "w4M",
    }
    # Lay-offs: one per card that fits, or keep; a discard instead keeps.
    st = make_state(
        players=3,
        round=1,
        active=0,
        phase="play",
        hands={0: "b7M w3A w11Y"},
        melds={0: "w7M w7A w7Y | w9A w9Y b9I"},
    )
    assert decision_kind(st, 0) == "lay_off"
    choice = analysis_choice(st, 0, {"type": "lay_off", "card": "b7M", "meld": "m1"})
    assert choice is not None and choice["card"] == "b7M"
    assert analysis_choice(st, 0, {"type": "discard", "card": "w3A"}) == KEEP
    # The draw, and a "May I?" answer for a seat that may buy (early, before the draw).
    st = new_game(4, "kinds")
    active = st["active"]
    assert decision_kind(st, active) == "draw"
    eligible = answerers(st)
    assert eligible and decision_kind(st, eligible[0]) == "buy"
    assert analysis_choice(st, eligible[0], {"type": "may_i"}) == {"type": "may_i"}
    assert analysis_choice(st, active, {"type": "timeout"}) is None
    # Nothing to decide: a seat that is neither active nor may answer, or a game over.
    st, _ = apply(st, active, {"type": "draw", "source": "discard"})
    assert decision_kind(st, (active + 1) % 4) is None
    with pytest.raises(ValueError):
        analyse_decision(st, (active + 1) % 4, samples=2, seed="none")


@pytest.mark.usefixtures("small_expert")
def test_the_expert_plays_legally_and_the_same_way_twice():
    def game() -> list:
        state = new_game(4, "expert-game")
        moves = []
        while not state["game_over"] and state["round"] <= 2:
            waiting = answerers(state)
            seat = waiting[0] if waiting else state["active"]
            level = "expert" if seat == 0 else "strong"
            action = choose_action(state, seat, level)
            if action is None:
                action = {"type": "no_thanks"} if waiting else fallback_action(state, seat)
            state, _ = apply(state, seat, action)  # an illegal choice raises
            moves.append((seat, action))
        return moves

    assert game() == game()


def test_the_fast_model_plays_rounds_out_keeping_every_card_and_its_seed():
    assert [name for name, rules in ALL_RULESETS.items() if supported(rules)] == ["bga"]
    played = 0
    for state in states_of_a_game("bga", "fast-model", every=13, most=12):
        if state["phase"] != "draw" or state["window"] is not None:
            continue
        det = determinize(state, state["active"], "k")
        total = sum(len(h) for h in det["hands"]) + len(det["discard"]) + len(det["stock"])
        total += sum(len(m["cards"]) for m in det["melds"])
        game = Round(det, "k", det["stock"])
        scores = game.play()
        again = Round(det, "k", det["stock"]).play()
        assert scores == again  # the same key, the same playout
        # Every card is somewhere: in a hand, the pile, the stock or a tabled meld.
        tabled = sum(b[1] + b[2] for b in game.books) + sum(r[3] + r[4] for r in game.runs)
        held = sum(len(h) for h in game.hands)
        assert held + len(game.pile) + game.stock_left + tabled == total
        for s, hand in enumerate(game.hands):
            mayi = det["mayi_count"][s] * -10
            expected = 0 if s == game.went_out else sum(game.c.penalty[x] for x in hand)
            assert scores[s] == expected + mayi
        if game.went_out is not None:
            assert game.hands[game.went_out] == [] and game.down[game.went_out]
        played += 1
    assert played >= 4
    # Scored as the engine scores a hand.
    assert cards_penalty(["w10M", "w?", "w3A"]) == 15 + 15 + 3


@settings(max_examples=300, deadline=None)
@given(
    hs.lists(
        hs.sampled_from([0] + [16 * s + r for s in range(4) for r in range(1, 14)]), max_size=16
    ),
    hs.integers(0, 3),
    hs.integers(0, 3),
)
def test_one_cards_worth_is_its_worth_in_the_whole_hands_values(hand, books, runs):
    # The fast model refuses most draws and offers on the one card's worth: it must be the
    # very number the hand's values give it (the same float), or searches would change.
    values = fastplay._values(tuple(sorted(hand)), books, runs)
    for card in hand:
        if card != fastplay.WILD:
            assert fastplay._card_value(hand, card, books, runs) == values[card]


def test_each_seats_order_of_the_stock_is_a_shuffle_fixed_by_its_key():
    orders = fastplay.draw_orders(8, "golden", 2)
    # Pinned: the searches' samples (and so every measured figure of the expert) follow them.
    assert orders == [[2, 4, 0, 1, 6, 7, 5, 3], [6, 0, 4, 2, 7, 1, 3, 5]]
    assert fastplay.draw_orders(60, "k:1", 4) == fastplay.draw_orders(60, "k:1", 4)
    assert all(sorted(order) == list(range(60)) for order in fastplay.draw_orders(60, "k:1", 4))
