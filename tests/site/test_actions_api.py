"""Actions through the API: each refusal has its code, writes nothing, and never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.api_schemas import TableOut
from games.engine.bots import choose_action
from games.models import Move, Seat, Table

from .conftest import error_of


def whose_turn(table: Table) -> int:
    return engine.view(table.state, None)["active_seat"]


def players(table: Table) -> dict[int, Any]:
    return {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}


def test_an_action_applies_bumps_the_version_and_logs_a_move(three_player_game, api_for):
    table = three_player_game
    seat = whose_turn(table)
    client = api_for(players(table)[seat])
    response = client.act(table.pk, table.version, type="draw", source="stock")
    assert response.status_code == 200, response.content
    body = response.json()
    TableOut.model_validate(body)  # the documented shape, though the view skips validation
    assert body["table"]["version"] == table.version + 1
    assert body["view"]["phase"] == "play" and body["view"]["seat"] == seat
    move = Move.objects.get(table=table)
    assert (move.seq, move.seat, move.action) == (1, seat, {"type": "draw", "source": "stock"})
    assert move.events and not move.by_bot
    table.refresh_from_db()
    assert table.move_count == 1 and table.state["phase"] == "play"


def test_a_stale_version_gets_409_with_the_fresh_view(three_player_game, api_for, snapshot):
    table = three_player_game
    seat = whose_turn(table)
    client = api_for(players(table)[seat])
    seen = table.version
    client.act(table.pk, seen, type="draw", source="stock")
    snap = snapshot(table)
    again = client.act(table.pk, seen, type="draw", source="stock")
    snap.assert_unchanged()
    assert error_of(again) == (409, "stale_version")
    body = again.json()
    assert body["table"]["version"] == snap.version
    assert body["view"]["phase"] == "play" and body["view"]["seat"] == seat


def test_a_version_this_process_committed_past_gets_409_without_the_lock(
    three_player_game, api_for, alice, django_capture_on_commit_callbacks
):
    """The stale check before the lock (games/services/play.py): the same 409 and fresh view
    as under the lock, in one unlocked read; a seat-less or expelled player is still refused
    as such."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table = three_player_game
    seat = whose_turn(table)
    client = api_for(players(table)[seat])
    seen = table.version
    with django_capture_on_commit_callbacks(execute=True):
        assert client.act(table.pk, seen, type="draw", source="stock").status_code == 200
    with CaptureQueriesContext(connection) as captured:
        again = client.act(table.pk, seen, type="draw", source="stock")
    assert error_of(again) == (409, "stale_version")
    body = again.json()
    assert body["table"]["version"] == seen + 1
    assert [m["version"] for m in body["log"]] == [seen + 1]
    assert body["view"]["seat"] == seat
    sql = " ".join(q["sql"].upper() for q in captured.captured_queries)
    assert "FOR UPDATE" not in sql and "SAVEPOINT" not in sql
    Seat.objects.filter(table=table, position=seat).update(expelled=True)
    assert error_of(client.act(table.pk, seen, type="draw", source="stock")) == (403, "expelled")


def test_each_refusal_has_its_code_and_writes_nothing(
    three_player_game, alice, bob, carol, charlie, api_for, snapshot
):
    table = three_player_game
    snap = snapshot(table)
    seat = whose_turn(table)
    me = api_for(players(table)[seat])
    other = api_for(players(table)[(seat + 1) % 3])
    tid, v = table.pk, table.version
    cases = [
        (me.post(f"/api/tables/{tid}/actions", raw="{not json"), (400, "bad_json")),
        (me.post(f"/api/tables/{tid}/actions", raw=b"\xff\xfe"), (400, "bad_json")),
        (me.post(f"/api/tables/{tid}/actions", raw=""), (400, "bad_request")),
        (me.post(f"/api/tables/{tid}/actions", [1, 2]), (400, "bad_request")),
        (me.act(tid, v, type="fly"), (400, "bad_request")),
        (me.act(tid, v, type="draw"), (400, "bad_request")),
        (me.act(tid, v, type="draw", source="deck"), (400, "bad_request")),
        (
            me.post(f"/api/tables/{tid}/actions", {"type": "pass", "expect_version": "1"}),
            (400, "bad_request"),
        ),
        (me.post(f"/api/tables/{tid}/actions", {"type": "pass"}), (400, "bad_request")),
        (me.act(tid, v, type="discard", card=7), (400, "bad_request")),
        (me.act(tid, v, type="draw", source="stock", extra=1), (400, "bad_request")),
        (me.act(tid, v, type="close_window"), (400, "bad_request")),
        (me.act(tid, v, type="timeout"), (400, "bad_request")),
        (me.act(tid, v, type="lay_down", cards=["w7M"], melds=[["w7M"]]), (400, "bad_request")),
        (me.act(999999, v, type="draw", source="stock"), (404, "table_not_found")),
        (api_for(charlie).act(tid, v, type="draw", source="stock"), (403, "not_seated")),
        (other.act(tid, v, type="draw", source="stock"), (400, "not_your_turn")),
        (me.act(tid, v, type="discard", card="w7M"), (400, "must_draw")),
        (me.act(tid, v + 5, type="draw", source="stock"), (409, "stale_version")),
    ]
    for response, expected in cases:
        assert error_of(response) == expected, (expected, response.content)
    snap.assert_unchanged()

    me.act(tid, v, type="draw", source="stock")
    table.refresh_from_db()
    hand = set(table.state["hands"][seat])
    foreign = next(c for c in table.state["hands"][(seat + 1) % 3] if c not in hand)
    snap = snapshot(table)
    assert error_of(me.act(tid, table.version, type="discard", card=foreign)) == (
        400,
        "card_not_in_hand",
    )
    assert error_of(me.act(tid, table.version, type="discard", card="zz")) == (400, "bad_card")
    assert error_of(me.act(tid, table.version, type="lay_off", card=foreign, meld="m99")) in {
        (400, "card_not_in_hand"),
        (400, "unknown_meld"),
        (400, "contract_not_down"),
    }
    # A lay-down may name its contract (rook's round-7 choice): the engine checks it.
    mine = sorted(hand)[:6]
    assert error_of(
        me.act(tid, table.version, type="lay_down", cards=mine, contract={"books": 0, "runs": 3})
    ) == (400, "wrong_contract")
    assert error_of(me.act(tid, table.version, type="lay_down", cards=mine, contract="books")) == (
        400,
        "bad_request",
    )
    assert error_of(
        me.act(tid, table.version, type="lay_down", cards=mine, wilds={"w7M": "five"})
    ) == (400, "bad_request")
    snap.assert_unchanged()


def test_unauthenticated_and_bad_tokens_are_refused(three_player_game, snapshot):
    snap = snapshot(three_player_game)
    path = f"/api/tables/{three_player_game.pk}/actions"
    assert error_of(Client().get("/api/tables")) == (401, "not_authenticated")
    assert error_of(Client().post(path, "{}", content_type="application/json")) == (
        401,
        "not_authenticated",
    )
    bad = Client(HTTP_AUTHORIZATION="Bearer mayi_wrong")
    assert error_of(bad.get("/api/tables")) == (401, "bad_token")
    snap.assert_unchanged()


def test_browser_sessions_need_the_csrf_token(three_player_game, snapshot):
    table = three_player_game
    seat = whose_turn(table)
    client = Client(enforce_csrf_checks=True)
    client.force_login(players(table)[seat])
    snap = snapshot(table)
    body = {"type": "draw", "source": "stock", "expect_version": table.version}
    path = f"/api/tables/{table.pk}/actions"
    refused = client.post(path, body, content_type="application/json")
    assert error_of(refused) == (403, "csrf_failed")
    snap.assert_unchanged()

    # The table page sets the CSRF cookie; the page's script sends it back as a header.
    assert client.get(f"/tables/{table.pk}/").status_code == 200
    token = client.cookies["csrftoken"].value
    ok = client.post(path, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert ok.status_code == 200, ok.content
    # Reading needs no CSRF token.
    assert client.get(f"/api/tables/{table.pk}").status_code == 200


def test_not_started_finished_and_expelled(alice, bob, api_for, three_player_game, snapshot):
    open_table = api_for(alice).post("/api/tables", {"seats": 3}).json()["table"]
    response = api_for(alice).act(
        open_table["id"], open_table["version"], type="draw", source="stock"
    )
    assert error_of(response) == (409, "game_not_started")

    table = three_player_game
    seat = whose_turn(table)
    user = players(table)[seat]
    Seat.objects.filter(table=table, user=user).update(expelled=True)
    snap = snapshot(table)
    response = api_for(user).act(table.pk, table.version, type="draw", source="stock")
    assert error_of(response) == (403, "expelled")
    snap.assert_unchanged()

    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    response = api_for(user).act(table.pk, table.version, type="draw", source="stock")
    assert error_of(response) == (409, "game_finished")
    snap.assert_unchanged()


def test_unknown_routes_and_methods_are_4xx(alice, api_for):
    client = api_for(alice)
    assert error_of(client.get("/api/nothing/here")) == (404, "not_found")
    assert error_of(client.get("/api/tables/abc")) == (404, "not_found")
    assert client.client.delete("/api/tables").status_code == 405
    assert client.client.put("/api/tables/1/actions").status_code == 405


def test_lock_contention_is_busy_not_a_server_error(
    three_player_game, api_for, monkeypatch, snapshot
):
    from django.db import OperationalError

    import games.services.play as play

    def locked(table_id: int) -> tuple[Table, list]:
        raise OperationalError("database is locked")

    monkeypatch.setattr(play, "lock_table_with_seats", locked)
    table = three_player_game
    snap = snapshot(table)
    client = api_for(players(table)[whose_turn(table)])
    response = client.act(table.pk, table.version, type="draw", source="stock")
    assert error_of(response) == (503, "busy")
    snap.assert_unchanged()


@pytest.mark.django_db(transaction=True)
def test_lock_contention_is_retried(alice, bob, carol, monkeypatch):
    from django.db import OperationalError

    import games.services.play as play
    from games import services

    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="retry")
    table.refresh_from_db()
    real, calls = play.lock_table_with_seats, []

    def flaky(table_id: int) -> tuple[Table, list]:
        calls.append(table_id)
        if len(calls) == 1:
            raise OperationalError("database is locked")
        return real(table_id)

    monkeypatch.setattr(play, "lock_table_with_seats", flaky)
    seat = whose_turn(table)
    user = players(table)[seat]
    action = choose_action(table.state, seat)
    services.table_submit_action(
        table_id=table.pk, user=user, action=action, expect_version=table.version
    )
    assert len(calls) == 2
    assert Move.objects.filter(table=table).count() == 1


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=10,
)
action_like = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "draw",
                "lay_down",
                "lay_off",
                "mayi_meld",
                "discard",
                "pass",
                "may_i",
                "no_thanks",
                "x",
            ]
        )
    },
    optional={
        "expect_version": st.integers(min_value=-2, max_value=3) | json_values,
        "source": st.sampled_from(["stock", "discard"]) | json_values,
        "card": st.sampled_from(["w7M", "b?", "w13I", "g1A"]) | json_values,
        "cards": st.lists(st.sampled_from(["w7M", "b7A", "w7Y", "b?"]), max_size=5) | json_values,
        "melds": json_values,
        "meld": st.sampled_from(["m1", "m0"]) | json_values,
        "end": st.sampled_from(["low", "high"]) | json_values,
        "contract": st.fixed_dictionaries({"books": st.integers(0, 4), "runs": st.integers(0, 4)})
        | json_values,
        "wilds": st.dictionaries(st.sampled_from(["w?", "b?", "w7M"]), st.integers(0, 15))
        | json_values,
    },
)


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=st.one_of(action_like, json_values))
def test_no_body_gives_a_server_error(three_player_game, api_for, body):
    table = three_player_game
    seat = whose_turn(table)
    client = api_for(players(table)[seat])
    response = client.post(f"/api/tables/{table.pk}/actions", body)
    assert response.status_code < 500, response.content
    if response.status_code != 200:
        error_of(response)
