"""The API's refusals in players' words: request-validation errors become sentences about the
move (code bad_request); the engine's refusals name card faces, never card ids."""

from __future__ import annotations

import re

import pytest

from tests.engine.test_messages import CARD_ID

from .conftest import error_of

pytestmark = pytest.mark.django_db

# A validator's phrases that must never reach a player.
VALIDATOR_TEXT = re.compile(
    r"Input should|Field required|List should|after validation|Value error|Extra inputs|"
    r"Unable to extract|discriminator|String should|\w+\.\w+:"
)


def message_of(response) -> str:
    return response.json()["error"]["message"]


def test_request_errors_are_sentences_about_the_move(three_player_game, alice, api_for):
    me = api_for(alice)
    tid, v = three_player_game.pk, three_player_game.version
    expected = [
        (me.act(tid, v, type="mayi_meld", cards=["w1M"]), "A MAYI meld needs exactly 4 cards"),
        (me.act(tid, v, type="draw"), "A draw needs where to draw from"),
        (me.act(tid, v, type="draw", source="deck"), "Where to draw from"),
        (me.act(tid, v, type="fly"), "There is no such move"),
        (me.act(tid, v, type="lay_down", cards=["w7M"], melds=[["w7M"]]), "A lay-down gives"),
        (me.act(tid, v, type="discard", card=7), "That is not a card of this game"),
        (me.post(f"/api/tables/{tid}/actions", {"type": "pass"}), "A pass needs the table version"),
        (me.act(tid, v, type="discard", card="w7M", colour=1), "A discard has no such field"),
        (me.post(f"/api/tables/{tid}/actions", [1, 2]), "The request must be an object"),
        (me.post("/api/tables", {"seats": "4"}), "The number of seats must be a whole number"),
    ]
    for response, start in expected:
        assert error_of(response)[1] == "bad_request"
        text = message_of(response)
        assert text.startswith(start), text
        assert not VALIDATOR_TEXT.search(text), text


def test_engine_refusals_through_the_api_show_faces(three_player_game, api_for):
    table = three_player_game
    seat = table.state["active"]
    user = table.seats.get(position=seat).user
    me = api_for(user)
    me.act(table.pk, table.version, type="draw", source="stock")
    table.refresh_from_db()
    hand = table.state["hands"][seat]
    foreign = next(c for c in table.state["hands"][(seat + 1) % 3] if c not in hand)
    response = me.act(table.pk, table.version, type="discard", card=foreign)
    assert error_of(response) == (400, "card_not_in_hand")
    assert message_of(response) == f"{foreign[1:]} is not in your hand"
    response = me.act(table.pk, table.version, type="lay_down", cards=hand[:3])
    assert error_of(response)[1] in {"no_contract", "keep_a_discard"}
    assert not CARD_ID.search(message_of(response)), message_of(response)
