"""Refusals: every malformed or out-of-turn action raises ``IllegalMove`` with a stable code and
leaves the state as it was."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, apply

from .helpers import make_state, refused

HAND = "w7M w7A w7Y w9I w9A w9Y w2M"


def play_state():
    """Seat 0 has drawn (7 cards); seat 1 holds b2M; m1 is seat 2's book of 5s."""
    return make_state(phase="play", hands={0: HAND, 1: "b2M b3M"}, melds={2: "5M 5A 5Y"})


CASES = [
    # (seat, action, code)
    (0, None, "bad_action"),
    (0, 5, "bad_action"),
    (0, "draw", "bad_action"),
    (0, ["draw"], "bad_action"),
    (0, ("draw", "stock"), "bad_action"),
    (0, {}, "unknown_action"),
    (0, {"type": "fly"}, "unknown_action"),
    (0, {"type": None}, "unknown_action"),
    (0, {"type": 3}, "unknown_action"),
    (0, {"type": ["discard"]}, "unknown_action"),
    (0, {"type": "DISCARD", "card": "w2M"}, "unknown_action"),
    (3, {"type": "discard", "card": "w2M"}, "bad_seat"),
    (-1, {"type": "discard", "card": "w2M"}, "bad_seat"),
    ("0", {"type": "discard", "card": "w2M"}, "bad_seat"),
    (True, {"type": "discard", "card": "w2M"}, "bad_seat"),
    (0.0, {"type": "discard", "card": "w2M"}, "bad_seat"),
    (None, {"type": "discard", "card": "w2M"}, "bad_seat"),
    (1, {"type": "discard", "card": "b2M"}, "not_your_turn"),
    (0, {"type": "discard"}, "bad_action"),
    (0, {"type": "discard", "card": None}, "bad_action"),
    (0, {"type": "discard", "card": 7}, "bad_action"),
    (0, {"type": "discard", "card": ["w2M"]}, "bad_action"),
    (0, {"type": "discard", "card": "zz"}, "bad_card"),
    (0, {"type": "discard", "card": "w14M"}, "bad_card"),
    (0, {"type": "discard", "card": "w0M"}, "bad_card"),
    (0, {"type": "discard", "card": "w07M"}, "bad_card"),
    (0, {"type": "discard", "card": "w7X"}, "bad_card"),
    (0, {"type": "discard", "card": "2M"}, "bad_card"),
    (0, {"type": "discard", "card": ""}, "bad_card"),
    (0, {"type": "discard", "card": "g2M"}, "card_not_in_hand"),  # no third deck for 3 players
    (0, {"type": "discard", "card": "b2M"}, "card_not_in_hand"),  # seat 1's card
    (0, {"type": "draw", "source": "stock"}, "wrong_phase"),
    (0, {"type": "lay_down", "cards": "w7M w7A w7Y"}, "bad_action"),
    (0, {"type": "lay_down", "cards": [1, 2, 3]}, "bad_action"),
    (0, {"type": "lay_down", "cards": [["w7M"]]}, "bad_action"),
    (0, {"type": "lay_down", "cards": None}, "bad_action"),
    (0, {"type": "lay_down", "melds": [["w7M", "w7A", "w7Y"], 5]}, "bad_action"),
    (0, {"type": "lay_down", "melds": "w7M"}, "bad_action"),
    (0, {"type": "lay_down", "melds": [[]]}, "bad_action"),
    (0, {"type": "lay_down", "cards": ["w7M", "w7M", "w7A"]}, "duplicate_card"),
    (0, {"type": "lay_off", "card": "w7M", "meld": None}, "contract_not_down"),
    (0, {"type": "mayi_meld", "cards": ["w7M", "w7A", "w7Y", "w7M"]}, "duplicate_card"),
    (0, {"type": "mayi_meld", "cards": {"w7M": 1}}, "bad_action"),
    (0, {"type": "pass"}, "no_pass"),
    (0, {"type": "may_i"}, "no_window"),
    (1, {"type": "no_thanks"}, "no_window"),
    (None, {"type": "close_window"}, "no_window"),
]


@pytest.mark.parametrize("seat, action, code", CASES)
def test_refused_with_a_stable_code(seat, action, code):
    err = refused(play_state(), seat, action, code)
    assert isinstance(err, ValueError) and err.message and str(err).startswith(code)


def test_refused_lay_off_fields_once_down():
    st = make_state(phase="play", hands={0: "b5I w2M"}, melds={0: "7M 7A 7Y | 9I 9A 9Y"})
    refused(st, 0, {"type": "lay_off", "card": "b5I", "meld": None}, "unknown_meld")
    refused(st, 0, {"type": "lay_off", "card": "b5I", "meld": 1}, "unknown_meld")
    refused(st, 0, {"type": "lay_off", "card": "b5I", "meld": ["m1"]}, "unknown_meld")
    refused(st, 0, {"type": "lay_off", "card": "b5I", "meld": "m1", "end": 1}, "bad_action")
    refused(st, 0, {"type": "lay_off", "meld": "m1"}, "bad_action")


def test_messages_name_the_refused_situation_in_players_words():
    err = refused(play_state(), 1, {"type": "discard", "card": "b2M"}, "not_your_turn")
    assert err.message == "it is not your turn (the player to move is playing)"
    err = refused(play_state(), 0, {"type": "discard", "card": "b2M"}, "card_not_in_hand")
    # The face, never the card id nor another hand's cards (tests/engine/test_messages.py).
    assert err.message == "2M is not in your hand"


def test_not_a_state():
    for bad in (None, {}, [], "state"):
        with pytest.raises(IllegalMove) as info:
            apply(bad, 0, {"type": "draw", "source": "stock"})
        assert info.value.code == "bad_state"
