"""Table life through the API: create, list, join, leave, bots, start, and who may see what."""

from __future__ import annotations

import json

from games.models import Seat, Table

from .conftest import error_of


def create(client, **options):  # type: ignore[no-untyped-def]
    response = client.post("/api/tables", {"seats": 3, **options})
    assert response.status_code == 201, response.content
    return response.json()


def test_create_seats_the_host_and_shows_the_invite_code_to_insiders_only(alice, bob, api_for):
    body = create(api_for(alice), turn_seconds=600, window_seconds=60, strikes=2)
    meta = body["table"]
    assert body["view"] is None
    assert meta["status"] == "open" and meta["host"] == "alice" and meta["my_seat"] == 0
    assert meta["seats"] == [
        {
            "position": 0,
            "user": "alice",
            "is_bot": False,
            "missed_turns": 0,
            "expelled": False,
            "bot_level": None,
            "online": False,  # an API client is no socket or page request
        }
    ]
    assert (meta["turn_seconds"], meta["window_seconds"], meta["strikes"]) == (600, 60, 2)
    assert meta["invite_code"]

    listed = api_for(bob).get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [meta["id"]]
    assert listed[0]["invite_code"] is None and listed[0]["my_seat"] is None


def test_create_refuses_bad_options(alice, api_for):
    client = api_for(alice)
    assert error_of(client.post("/api/tables", {"seats": 9})) == (400, "bad_options")
    assert error_of(client.post("/api/tables", {"seats": 2})) == (400, "bad_options")
    assert error_of(client.post("/api/tables", {"ruleset": "nope"})) == (400, "bad_options")
    assert error_of(client.post("/api/tables", {"turn_seconds": 1})) == (400, "bad_options")
    assert error_of(client.post("/api/tables", {"seats": "4"})) == (400, "bad_request")
    assert error_of(client.post("/api/tables", {"colour": "red"})) == (400, "bad_request")
    assert error_of(client.post("/api/tables", raw="{")) == (400, "bad_json")
    assert not Table.objects.exists()


def test_join_fill_and_errors(alice, bob, carol, charlie, api_for):
    table = create(api_for(alice))["table"]
    tid = table["id"]
    joined = api_for(bob).post(f"/api/tables/{tid}/join").json()["table"]
    assert joined["my_seat"] == 1 and joined["version"] == table["version"] + 1
    assert error_of(api_for(bob).post(f"/api/tables/{tid}/join")) == (409, "already_seated")
    api_for(carol).post(f"/api/tables/{tid}/join")
    assert error_of(api_for(charlie).post(f"/api/tables/{tid}/join")) == (409, "table_full")
    assert error_of(api_for(charlie).post("/api/tables/999999/join")) == (404, "table_not_found")
    assert Seat.objects.filter(table_id=tid).count() == 3


def test_private_table_needs_its_invite_code(alice, bob, charlie, api_for):
    table = create(api_for(alice), public=False)["table"]
    tid, code = table["id"], table["invite_code"]
    assert api_for(charlie).get("/api/tables").json()["tables"] == []
    assert error_of(api_for(charlie).get(f"/api/tables/{tid}")) == (403, "not_seated")
    assert error_of(api_for(bob).post(f"/api/tables/{tid}/join")) == (403, "invite_required")
    bad = api_for(bob).post("/api/tables/join", {"invite_code": "nope"})
    assert error_of(bad) == (404, "invite_not_found")
    response = api_for(bob).post("/api/tables/join", {"invite_code": code})
    assert response.status_code == 200
    assert response.json()["table"]["my_seat"] == 1
    assert response.json()["table"]["invite_code"] == code
    assert api_for(bob).get(f"/api/tables/{tid}").status_code == 200


def test_leave_hands_the_table_on_or_closes_it(alice, bob, charlie, api_for):
    tid = create(api_for(alice))["table"]["id"]
    api_for(bob).post(f"/api/tables/{tid}/join")
    assert error_of(api_for(charlie).post(f"/api/tables/{tid}/leave")) == (403, "not_seated")

    left = api_for(alice).post(f"/api/tables/{tid}/leave").json()["table"]
    assert left["host"] == "bob" and left["my_seat"] is None
    assert [s["user"] for s in left["seats"]] == ["bob"]

    closed = api_for(bob).post(f"/api/tables/{tid}/leave").json()["table"]
    assert closed["status"] == "aborted" and closed["seats"] == []
    assert api_for(bob).get("/api/tables").json()["tables"] == []


def test_host_fills_with_bots_and_starts(alice, bob, charlie, api_for):
    tid = create(api_for(alice), seats=4)["table"]["id"]
    api_for(bob).post(f"/api/tables/{tid}/join")
    assert error_of(api_for(alice).post(f"/api/tables/{tid}/start")) == (409, "table_not_full")
    assert error_of(api_for(charlie).post(f"/api/tables/{tid}/bots")) == (403, "not_host")
    assert error_of(api_for(bob).post(f"/api/tables/{tid}/bots")) == (403, "not_host")

    filled = api_for(alice).post(f"/api/tables/{tid}/bots").json()["table"]
    assert [s["is_bot"] for s in filled["seats"]] == [False, False, True, True]
    assert error_of(api_for(alice).post(f"/api/tables/{tid}/bots")) == (409, "table_full")
    assert error_of(api_for(bob).post(f"/api/tables/{tid}/start")) == (403, "not_host")

    started = api_for(alice).post(f"/api/tables/{tid}/start").json()
    assert started["table"]["status"] == "playing"
    assert started["view"]["round"] == 1 and len(started["view"]["hand"]) >= 6
    # A clock runs: the turn's, or only the window's while a bot's discard waits on it.
    assert started["table"]["turn_deadline"] or started["table"]["window_deadline"]

    assert error_of(api_for(alice).post(f"/api/tables/{tid}/start")) == (409, "table_started")
    assert error_of(api_for(charlie).post(f"/api/tables/{tid}/join")) == (409, "table_started")
    assert error_of(api_for(bob).post(f"/api/tables/{tid}/leave")) == (409, "table_started")


def test_views_hide_other_hands_and_the_seed(three_player_game, alice, bob, charlie, api_for):
    tid = three_player_game.pk
    alice_view = api_for(alice).get(f"/api/tables/{tid}").json()["view"]
    bob_body = api_for(bob).get(f"/api/tables/{tid}").json()
    assert bob_body["table"]["my_seat"] == 1
    bob_text = json.dumps(bob_body)
    assert not [card for card in alice_view["hand"] if card in bob_text]
    assert three_player_game.state["seed"] not in bob_text
    assert "stock" not in bob_body["view"]

    # charlie, not seated, watches a public table as a spectator.
    spectator = api_for(charlie).get(f"/api/tables/{tid}").json()
    assert spectator["view"]["hand"] is None and spectator["table"]["my_seat"] is None
    spectator_text = json.dumps(spectator)
    assert not [card for card in alice_view["hand"] if card in spectator_text]
    assert spectator["table"]["invite_code"] is None


def test_list_shows_my_tables_in_any_state(three_player_game, alice, charlie, api_for):
    mine = api_for(alice).get("/api/tables").json()["tables"]
    assert [t["id"] for t in mine] == [three_player_game.pk]
    assert mine[0]["status"] == "playing"
    # A started table is no longer in the lobby for others.
    assert api_for(charlie).get("/api/tables").json()["tables"] == []


def test_the_table_says_which_players_are_online(alice, bob, api_for):
    from games import presence, services

    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="online")
    for user in (alice, bob):
        presence.mark_offline(user.pk)
    presence.mark_online(alice.pk)  # as her page's socket does

    def online() -> dict[str, object]:
        seats = api_for(alice).get(f"/api/tables/{table.pk}").json()["table"]["seats"]
        return {s["user"] or f"bot {s['position']}": s["online"] for s in seats}

    # alice is here; bob has not been seen; a bot is neither.
    shown = online()
    assert shown["alice"] is True and shown["bob"] is False
    assert [v for k, v in shown.items() if k.startswith("bot")] == [None]
    presence.mark_online(bob.pk)
    assert online()["bob"] is True
