"""The game log that travels with views (deltalog): in the answers of GET and POST actions
(200 and 409), paged by GET /api/tables/<id>/log, redacted per seat, in constant queries."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine, services
from games.api_schemas import LogPageOut, StaleOut, TableOut
from games.engine.bots import choose_action
from games.engine.public import public_events
from games.models import Move, Seat, Table

from .conftest import SEED, error_of


def whose_turn(table: Table) -> int:
    return engine.view(table.state, None)["active_seat"]


def play_for(client: Any, table: Table, seat: int) -> Any:
    """One bot-chosen action for ``seat`` through the API."""
    table.refresh_from_db()
    action = choose_action(table.state, seat) or {"type": "no_thanks"}
    return client.act(table.pk, table.version, **action)


def mixed_table(alice: Any, bob: Any) -> Table:
    """alice, bob (standing order: never buy) and a bot: one of alice's actions commits with
    bob's standing answers and the bot's moves."""
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed=SEED)
    services.seat_set_buy_order(table_id=table.pk, user=bob, order="never", limit=None)
    table.refresh_from_db()
    return table


def drive(table: Table, clients: dict[int, Any], steps: int) -> list[dict]:
    """Play ``steps`` API actions for the people; the bodies of the answers."""
    bodies = []
    for _ in range(steps):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        seats = engine.seats_to_act(table.state)
        people = [s for s in seats if s in clients]
        if not people:
            break
        response = play_for(clients[people[0]], table, people[0])
        assert response.status_code == 200, response.content
        bodies.append(response.json())
    return bodies


def test_each_answer_logs_the_moves_of_its_commit_bots_and_standing_orders_included(
    alice, bob, api_for
):
    table = mixed_table(alice, bob)
    clients = {0: api_for(alice), 1: api_for(bob)}
    version = table.version
    bodies = drive(table, clients, 12)
    kinds = set()
    for body in bodies:
        TableOut.model_validate(body)
        seat = body["table"]["my_seat"]
        new = list(
            Move.objects.filter(
                table=table, version__gt=version, version__lte=body["table"]["version"]
            )
        )
        assert [e["seq"] for e in body["log"]] == [m.seq for m in new]
        for entry, move in zip(body["log"], new, strict=True):
            assert entry["seat"] == move.seat and entry["by_bot"] == move.by_bot
            assert entry["version"] == body["table"]["version"]
            assert entry["events"] == public_events(move.events, seat)
            assert entry["at"] == move.created.isoformat()
            kinds.add((move.by_bot, move.action.get("standing_order", False)))
        version = body["table"]["version"]
    assert (True, False) in kinds, "no bot move was logged"
    assert any(len(b["log"]) > 1 for b in bodies), "no commit carried several moves"


def test_a_stock_draw_shows_its_card_in_the_drawers_log_only(three_player_game, api_for):
    table = three_player_game
    seat = whose_turn(table)
    users = {s.position: s.user for s in Seat.objects.filter(table=table)}
    response = api_for(users[seat]).act(table.pk, table.version, type="draw", source="stock")
    drew = next(e for e in response.json()["log"][0]["events"] if e["type"] == "drew")
    table.refresh_from_db()
    assert drew["card"] == table.state["hands"][seat][-1]
    other = (seat + 1) % 3
    body = api_for(users[other]).get(f"/api/tables/{table.pk}?since=0").json()
    their = next(e for e in body["log"][0]["events"] if e["type"] == "drew")
    assert their == {"type": "drew", "seat": seat, "source": "stock"}


def test_get_since_a_version_and_409_carry_the_moves_after_it(alice, bob, api_for, snapshot):
    table = mixed_table(alice, bob)
    clients = {0: api_for(alice), 1: api_for(bob)}
    start = table.version
    drive(table, clients, 6)
    table.refresh_from_db()
    moves = list(Move.objects.filter(table=table).order_by("seq"))
    whole = clients[0].get(f"/api/tables/{table.pk}").json()["log"]
    assert [e["seq"] for e in whole] == [m.seq for m in moves]
    middle = moves[len(moves) // 2].version
    since = clients[0].get(f"/api/tables/{table.pk}?since={middle}").json()["log"]
    assert [e["seq"] for e in since] == [m.seq for m in moves if m.version > middle]
    assert clients[0].get(f"/api/tables/{table.pk}?since={table.version}").json()["log"] == []
    # A stale action: the 409 carries the moves the client missed since its version.
    seat = next(s for s in (0, 1) if s in engine.seats_to_act(table.state))
    snap = snapshot(table)
    stale = clients[seat].act(table.pk, start, type="draw", source="stock")
    snap.assert_unchanged()
    assert error_of(stale) == (409, "stale_version")
    StaleOut.model_validate(stale.json())
    assert [e["seq"] for e in stale.json()["log"]] == [m.seq for m in moves if m.version > start]


def test_the_log_pages_back_with_the_same_redaction_and_access(
    alice, bob, charlie, api_for, monkeypatch
):
    table = mixed_table(alice, bob)
    drive(table, {0: api_for(alice), 1: api_for(bob)}, 8)
    table.refresh_from_db()
    moves = list(Move.objects.filter(table=table).order_by("seq"))
    assert len(moves) > 6
    url = f"/api/tables/{table.pk}/log"
    newest = api_for(alice).get(f"{url}?limit=3").json()
    LogPageOut.model_validate(newest)
    assert [e["seq"] for e in newest["log"]] == [m.seq for m in moves[-3:]]
    assert newest["more"] is True
    older = api_for(alice).get(f"{url}?before={newest['log'][0]['seq']}&limit=3").json()
    assert [e["seq"] for e in older["log"]] == [m.seq for m in moves[-6:-3]]
    first = api_for(alice).get(f"{url}?before=3&limit=50").json()
    assert [e["seq"] for e in first["log"]] == [1, 2] and first["more"] is False
    # A spectator of a public table gets the public form; of a private one, nothing.
    spectator = api_for(charlie).get(f"{url}?limit=200").json()["log"]
    assert [e["events"] for e in spectator] == [public_events(m.events, None) for m in moves]
    Table.objects.filter(pk=table.pk).update(public=False)
    assert error_of(api_for(charlie).get(url)) == (403, "not_seated")
    assert error_of(api_for(alice).get("/api/tables/999999/log")) == (404, "table_not_found")
    assert error_of(api_for(alice).get(f"{url}?before=x"))[0] == 400


def test_the_log_is_capped_to_the_last_moves(alice, bob, api_for, monkeypatch):
    from games.services import log

    monkeypatch.setattr(log, "LOG_LIMIT", 4)
    table = mixed_table(alice, bob)
    drive(table, {0: api_for(alice), 1: api_for(bob)}, 8)
    table.refresh_from_db()
    body = api_for(alice).get(f"/api/tables/{table.pk}").json()
    assert [e["seq"] for e in body["log"]] == list(
        range(table.move_count - 3, table.move_count + 1)
    )


def test_reading_the_log_takes_constant_queries(alice, bob, api_for):
    table = mixed_table(alice, bob)
    clients = {0: api_for(alice), 1: api_for(bob)}
    gets, pages = [], []
    for _ in range(3):
        drive(table, clients, 5)
        with CaptureQueriesContext(connection) as ctx:
            body = clients[0].get(f"/api/tables/{table.pk}?since=1").json()
        assert body["log"]
        gets.append(len(ctx.captured_queries))
        moves = [q["sql"] for q in ctx.captured_queries if "games_move" in q["sql"]]
        assert len(moves) == 1, moves
        with CaptureQueriesContext(connection) as page:
            clients[0].get(f"/api/tables/{table.pk}/log?limit=50")
        pages.append(len(page.captured_queries))
    assert len(set(gets)) == 1, gets
    assert len(set(pages)) == 1, pages


def test_an_action_answer_carries_its_log_without_reading_moves(bot_game, api_for):
    table = bot_game
    client = api_for(alice_of(table))
    for _ in range(20):
        table.refresh_from_db()
        if 0 in engine.seats_to_act(table.state):
            break
    action = choose_action(table.state, 0)
    with CaptureQueriesContext(connection) as ctx:
        response = client.act(table.pk, table.version, **action)
    assert response.status_code == 200, response.content
    reads = [q["sql"] for q in ctx.captured_queries if q["sql"].lstrip().startswith("SELECT")]
    assert not [q for q in reads if "games_move" in q], reads
    assert response.json()["log"], "the answer logs the move (and the bots' after it)"


def alice_of(table: Table) -> Any:
    return Seat.objects.get(table=table, position=0).user


def test_last_seen_version_is_the_one_before_this_read(alice, bob, api_for):
    table = mixed_table(alice, bob)
    bob_api = api_for(bob)
    first = bob_api.get(f"/api/tables/{table.pk}").json()
    assert first["table"]["last_seen_version"] is None
    drive(table, {0: api_for(alice)}, 2)
    table.refresh_from_db()
    second = bob_api.get(f"/api/tables/{table.pk}").json()
    assert second["table"]["last_seen_version"] == first["table"]["version"]
    new = [e for e in second["log"] if e["version"] > second["table"]["last_seen_version"]]
    assert new, "the moves since bob last looked"
    with CaptureQueriesContext(connection) as ctx:
        third = bob_api.get(f"/api/tables/{table.pk}").json()
    assert third["table"]["last_seen_version"] == table.version
    assert not [q for q in ctx.captured_queries if q["sql"].startswith("UPDATE")], "nothing new"
    assert (
        api_for(alice).get(f"/api/tables/{table.pk}").json()["table"]["last_seen_version"] is None
    )


def test_a_slow_read_never_takes_the_seen_version_back(alice, bob):
    # Two reads of bob's race: the one that read the older version writes last. Its seat came
    # with an older mark, so only the database's condition keeps the newer one.
    table = mixed_table(alice, bob)
    table_now, seats = services.table_read(table_id=table.pk)
    _, slow = services.table_read(table_id=table.pk)
    assert services.seat_mark_seen(seats=seats, user=bob, version=table_now.version)
    assert not services.seat_mark_seen(seats=slow, user=bob, version=table_now.version - 1)
    assert Seat.objects.get(table=table, user=bob).last_seen_version == table_now.version
    # The seat it was given now says what is stored: asked again, it writes nothing.
    assert not services.seat_mark_seen(seats=seats, user=bob, version=table_now.version)


def test_a_read_from_a_tab_in_the_background_is_not_looked_at(alice, bob, api_for):
    # A page in a background tab re-reads the table (a missed frame): that read marked every
    # move as seen, and the other device's "Since you last looked" had nothing to say.
    table = mixed_table(alice, bob)
    bob_api = api_for(bob)
    first = bob_api.get(f"/api/tables/{table.pk}").json()
    drive(table, {0: api_for(alice)}, 2)
    table.refresh_from_db()
    hidden = bob_api.get(f"/api/tables/{table.pk}?hidden=1").json()
    assert hidden["table"]["version"] == table.version
    assert Seat.objects.get(table=table, user=bob).last_seen_version == first["table"]["version"]
    shown = bob_api.get(f"/api/tables/{table.pk}").json()
    assert shown["table"]["last_seen_version"] == first["table"]["version"]
    assert Seat.objects.get(table=table, user=bob).last_seen_version == table.version
