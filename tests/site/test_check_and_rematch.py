"""POST /api/tables/<id>/check (the page's contract meter) and POST /api/tables/<id>/rematch
("play again" with the same players, one table however many clicks)."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine, services
from games.api_schemas import CheckOut, TableOut
from games.engine.simulate import play_game
from games.models import Seat, Table
from tests.engine.helpers import make_state

from .conftest import error_of


def finish(table: Table) -> None:
    """Fast-forward a started table to a finished game (the engine's bots play it)."""
    state, _, _ = play_game(table.seat_count, "finished-seed", table.ruleset, checks=False)
    Table.objects.filter(pk=table.pk).update(state=state, status=Table.Status.FINISHED)
    table.refresh_from_db()


def test_check_answers_what_my_selection_makes(three_player_game, api_for, charlie):
    table = three_player_game
    seat = engine.view(table.state, None)["active_seat"]
    user = Seat.objects.get(table=table, position=seat).user
    hand = table.state["hands"][seat]
    url = f"/api/tables/{table.pk}/check"
    body = api_for(user).post(url, {"cards": hand[:3], "melds": []})
    assert body.status_code == 200, body.content
    out = body.json()
    CheckOut.model_validate(out)
    assert out["needs"] == {"books": 2, "runs": 0}
    assert out["message"] and not any(c in out["message"] for c in hand)
    # A card of another hand is refused like any card not held: nothing says where it is.
    other = table.state["hands"][(seat + 1) % 3][0]
    assert error_of(api_for(user).post(url, {"cards": [other]})) == (400, "card_not_in_hand")
    assert error_of(api_for(charlie).post(url, {"cards": hand[:1]})) == (403, "not_seated")
    assert error_of(api_for(user).post(url, {"cards": "w7M"}))[0] == 400
    with CaptureQueriesContext(connection) as ctx:
        api_for(user).post(url, {"cards": hand[:2]})
    assert not [q for q in ctx.captured_queries if not q["sql"].lstrip().startswith("SELECT")]


def test_my_view_groups_my_hand_into_the_round_s_melds(three_player_game, api_for, charlie):
    """The page's melds sort reads ``hand_melds`` from my own view (the engine's grouping of
    my hand), the same on every read; a spectator's view has none."""
    table = three_player_game
    bob = Seat.objects.get(table=table, user__username="bob")
    state = make_state(
        players=3, round=2, hands={bob.position: "w5M w5A w5Y w5I w6I w7I w8I w12Y w3M"}
    )
    Table.objects.filter(pk=table.pk).update(state=state, version=table.version + 1)
    answer = api_for(bob.user).get(f"/api/tables/{table.pk}").json()
    TableOut.model_validate(answer)
    # Round 2 is a book and a run: 5I goes to the run, not to the book of 5s.
    assert answer["view"]["hand_melds"] == [
        {"kind": "book", "cards": ["w5M", "w5A", "w5Y"]},
        {"kind": "run", "cards": ["w5I", "w6I", "w7I", "w8I"]},
    ]
    assert "hand_melds" not in api_for(charlie).get(f"/api/tables/{table.pk}").json()["view"]


def test_check_needs_a_game_in_play(alice, api_for):
    table = services.table_create(host=alice, seats=3)
    response = api_for(alice).post(f"/api/tables/{table.pk}/check", {"cards": []})
    assert error_of(response) == (409, "game_not_started")


def mixed(alice: Any, bob: Any) -> Table:
    table = services.table_create(host=alice, seats=3, public=False, turn_seconds=3600)
    services.table_join(user=bob, invite_code=table.invite_code)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="rematch-seed")
    table.refresh_from_db()
    return table


def test_rematch_makes_one_table_with_the_same_players(alice, bob, charlie, api_for):
    old = mixed(alice, bob)
    url = f"/api/tables/{old.pk}/rematch"
    assert error_of(api_for(alice).post(url)) == (409, "game_not_over")
    finish(old)
    assert error_of(api_for(charlie).post(url)) == (403, "not_seated")
    first = api_for(bob).post(url)
    assert first.status_code == 200, first.content
    TableOut.model_validate(first.json())
    new_id = first.json()["table"]["id"]
    # Two clicks, and the other player's click: the same table.
    assert api_for(bob).post(url).json()["table"]["id"] == new_id
    assert api_for(alice).post(url).json()["table"]["id"] == new_id
    assert Table.objects.filter(rematch_of=old).count() == 1
    new = Table.objects.get(pk=new_id)
    assert (new.ruleset, new.options, new.public) == (old.ruleset, old.options, old.public)
    assert new.host == bob and new.status == Table.Status.OPEN
    seats = {(s.position, s.user_id, s.is_bot) for s in Seat.objects.filter(table=new)}
    assert seats == {(s.position, s.user_id, s.is_bot) for s in Seat.objects.filter(table=old)}
    # Everyone at the old table is told where the new game is.
    assert api_for(alice).get(f"/api/tables/{old.pk}").json()["table"]["rematch"] == new_id
    assert api_for(alice).get(f"/api/tables/{new_id}").json()["table"]["my_seat"] is not None


def test_a_rematch_against_bots_starts_at_once(bot_game, api_for):
    old = bot_game
    finish(old)
    alice = Seat.objects.get(table=old, position=0).user
    body = api_for(alice).post(f"/api/tables/{old.pk}/rematch").json()
    assert body["table"]["status"] == "playing" and body["view"] is not None
    assert body["table"]["id"] != old.pk
