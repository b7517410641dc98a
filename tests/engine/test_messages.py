"""Refusals in players' words: every message a player can get names card faces, never a card
id, a seat number or a meld id (the codes stay as they were)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as hs

from games.engine import IllegalMove, apply
from games.engine.words import faces

from .helpers import make_state, refused
from .test_errors import CASES, play_state
from .test_properties import SCALE, SETTINGS, garbage, position_pool

# A card id of any card set (bga w7M b? g13I; standard pQH q10S p*R; rook x14R y* x_), a
# meld id (m3), a seat number ("seat 2"): none of them belongs in a player's message.
CARD_ID = re.compile(
    r"(?<![\w?*])(?:[wbg](?:\d{1,2}[MAYI]|\?)|[pqrs](?:[2-9]|10|[AJQK])[SHDC]|[pqrs]\*[RB]"
    r"|[xyz](?:\d{1,2}[RGYK]|\*|_))(?![\w])"
)
INTERNAL = re.compile(r"\bm\d+\b|\bseat \d|\b(?:may_i|no_thanks|lay_off|lay_down|mayi_meld)\b")
# Refusals only the platform can meet (it sends the seat and the timers' actions).
PLATFORM_CODES = {"bad_seat", "bad_state", "platform_only", "no_turn_pending"}


def assert_in_words(message: str) -> None:
    assert not CARD_ID.search(message), message
    assert not INTERNAL.search(message), message


def test_the_card_id_pattern_finds_ids_and_spares_faces():
    for text in ("w7M", "b?", "g13I", "pQH", "q10S", "p*R", "x14R", "y*", "x_", "(w7M)"):
        assert CARD_ID.search(text), text
    for text in ("7M 7A ?", "Q♥ Joker", "14G Rook Wild", "how?", "draw", "xyz", "10 cards"):
        assert not CARD_ID.search(text), text


def test_faces_render_every_card_set():
    assert faces(["w7M", "b7A", "w?"]) == "7M 7A ?"
    assert faces(["pQH", "q10S", "p*R", "pAC"]) == "Q♥ 10♠ Joker A♣"
    assert faces(["x14G", "y*", "x_"]) == "14G Rook Wild"


def down_state(**kw):
    base = dict(
        phase="play",
        hands={0: "w5I w2M w9Y w3A"},
        down={0},
        melds=[(0, "7M 7A 7Y"), (1, "4I 5I 6I 7I")],
    )
    base.update(kw)
    return make_state(**base)


def test_a_lay_down_that_makes_part_of_the_contract_says_what_is_missing():
    st = make_state(phase="play", round=2, hands={0: "w7M w7A w? w2Y b9I w3M w4M w5M"})
    err = refused(st, 0, ("lay_down", {"cards": "w7M w7A w?"}), "no_contract")
    assert err.message == "7M 7A ? is one book; round 2 also needs a run of 4 or more in one letter"


def test_a_lay_down_short_of_cards_or_of_any_meld():
    st = make_state(phase="play", round=1, hands={0: "w7M w8A w2Y w9I b3M b4M"})
    err = refused(st, 0, ("lay_down", {"cards": "w7M w8A w2Y"}), "no_contract")
    assert err.message == "7M 8A 2Y: round 1 needs 2 books, at least 6 cards"
    err = refused(st, 0, ("lay_down", {"cards": "w7M w8A w2Y w9I b3M b4M"}), "no_contract")
    assert err.message == (
        "7M 8A 2Y 9I 3M 4M are not 2 books using every card: a book is 3 or more of one number"
    )


def test_standard_and_rook_cards_show_as_their_faces():
    st = make_state(
        ruleset="petras", phase="play", round=1, hands={0: "pQH qQS p*R p2C p5D p9S p7H"}
    )
    err = refused(st, 0, ("lay_down", {"cards": "pQH qQS p*R"}), "no_contract")
    assert (
        err.message
        == "Q♥ Q♠ Joker is one book; round 1 also needs a book of 3 or more of one number"
    )
    rook = make_state(
        ruleset="rook", players=3, phase="play", round=2, hands={0: "x14G y14R x* x2K"}
    )
    err = refused(rook, 0, ("lay_down", {"cards": "x14G y14R x*"}), "no_contract")
    assert err.message.startswith("14G 14R Rook is one book; round 2 also needs a run")
    assert err.message.endswith("in one colour")


def test_grouped_melds_name_the_group_that_is_no_meld():
    st = make_state(phase="play", round=1, hands={0: "w7M w7A w7Y w2I w5A w9Y w3M"})
    err = refused(st, 0, ("lay_down", {"melds": "w7M w7A w7Y | w2I w5A w9Y"}), "invalid_meld")
    assert err.message.startswith("2I 5A 9Y is neither a book")


def test_a_card_that_does_not_fit_names_the_card_and_the_meld():
    st = down_state()
    meld = st["melds"][1]["id"]
    err = refused(st, 0, ("lay_off", {"card": "w2M", "meld": meld}), "does_not_fit")
    assert err.message == "2M does not fit the run 4I 5I 6I 7I"
    err = refused(st, 0, ("lay_off", {"card": "w5I", "meld": "m99"}), "unknown_meld")
    assert err.message == "that meld is not on the table"


def test_a_card_not_in_hand_is_named_by_its_face_and_other_hands_stay_hidden():
    st = make_state(phase="play", hands={0: "w7M w7A w7Y w9I", 1: "b2M b3M"})
    err = refused(st, 0, {"type": "discard", "card": "b2M"}, "card_not_in_hand")
    assert err.message == "2M is not in your hand"
    err = refused(st, 0, {"type": "discard", "card": "w77M"}, "bad_card")
    assert_in_words(err.message)


def test_not_your_turn_and_not_now_name_no_seat():
    st = make_state(phase="play", hands={0: "w7M w7A w7Y w9I", 1: "b2M b3M"})
    err = refused(st, 1, {"type": "discard", "card": "b2M"}, "not_your_turn")
    assert err.message == "it is not your turn (the player to move is playing)"
    st = make_state(phase="draw", hands={0: "w7M w7A w7Y w9I"})
    err = refused(st, 0, {"type": "discard", "card": "w7M"}, "must_draw")
    assert err.message == "draw a card first: from the stock or the discard pile"


def test_a_mayi_meld_refusal_shows_the_cards():
    st = make_state(phase="play", hands={0: "w7M w7A w7Y w9I w2M"})
    err = refused(st, 0, ("mayi_meld", {"cards": "w7M w7A w7Y w9I"}), "invalid_meld")
    assert err.message.startswith("7M 7A 7Y 9I is no MAYI meld")


@settings(max_examples=400 * SCALE, **SETTINGS)
@given(data=hs.data())
def test_garbage_on_random_states_gets_messages_in_players_words(data):
    pool = position_pool()
    state = pool[data.draw(hs.integers(0, len(pool) - 1))]
    # A player acts from their own seat; the platform's own refusals are not theirs to see.
    seat = data.draw(hs.integers(0, state["players"] - 1), label="seat")
    action = data.draw(garbage(state))
    try:
        apply(state, seat, action)
    except IllegalMove as exc:
        if exc.code not in PLATFORM_CODES:
            assert_in_words(exc.message)


def test_every_refusal_case_of_the_engine_tests_is_in_words():
    # tests/engine/test_errors.py lists a refusal per way of getting one; the player's are
    # all in words here (the platform's own, bad_seat and the like, are not for players).
    for seat, action, code in CASES:
        if code in PLATFORM_CODES:
            continue
        assert_in_words(refused(play_state(), seat, action, code).message)


def test_rook_swaps_and_buys_are_refused_in_words():
    st = make_state(
        ruleset="rook",
        players=3,
        phase="play",
        hands={0: "x9R x2K"},
        melds=[(1, "x7R x8R x* x10R")],
    )
    meld = st["melds"][0]["id"]
    err = refused(st, 0, {"type": "swap_wild", "meld": meld, "card": "x2K"}, None)
    assert_in_words(err.message)
    assert "Rook" in err.message or "2K" in err.message or "down" in err.message
