"""The table websocket: who may connect, what each socket receives, and when.

The pushed frame equals a fresh GET for the same user, and no frame to one seat ever holds a
card of another seat's hand (Zulip's ``verify_action`` habit). Runs on the in-memory channel
layer (pass 1) and on Redis (pass 2, REDIS_URL set).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from games import engine, services
from games.engine.bots import choose_action
from games.models import Move, Seat, Table
from games.services.log import log_entries
from tests.live.wsutil import (  # noqa: F401 (close_db_pools: a fixture)
    TIMEOUT,
    as_get,
    close_db_pools,
    communicator,
    connect,
    fresh_get,
    refused_code,
    run,
    session_for,
    steady,
    strings_in,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_db_pools")]

SEED = "live-tests-seed"


def started(host: Any, *others: Any, seats: int = 3, public: bool = True, **options: Any) -> Table:
    table = services.table_create(host=host, seats=seats, public=public, **options)
    for user in others:
        services.table_join(user=user, invite_code=table.invite_code)
    if len(others) + 1 < seats:
        services.table_fill_with_bots(user=host, table_id=table.pk)
    services.table_start(user=host, table_id=table.pk, seed=SEED)
    table.refresh_from_db()
    return table


def test_a_seated_player_gets_their_own_view_on_connect(alice, bob, carol, api_for):
    table = started(alice, bob, carol, public=False)
    key = session_for(bob)

    async def scenario() -> None:
        comm, frame = await connect(table.pk, key)
        assert frame["version"] == table.version
        assert frame["table"]["my_seat"] == 1
        assert frame["view"]["hand"] == table.state["hands"][1]
        assert as_get(frame) == await fresh_get(api_for, bob, table.pk)
        await comm.disconnect()

    run(scenario)


def test_refusals(alice, bob, carol, charlie):
    private = started(alice, bob, carol, public=False)
    charlie_key = session_for(charlie)
    alice_key = session_for(alice)

    async def scenario() -> None:
        # Not signed in, not seated at a private table, no such table: a 4xxx close code.
        for table_id, key, code in [
            (private.pk, None, 4401),
            (private.pk, "not-a-session", 4401),
            (private.pk, "odd$chars%in~a=cookie", 4401),
            (private.pk, charlie_key, 4403),
            (private.pk + 1000, alice_key, 4404),
        ]:
            comm = communicator(table_id, key)
            connected, _ = await comm.connect(timeout=TIMEOUT)
            assert connected
            assert await refused_code(comm) == code
            await comm.disconnect()
        # Another site's page, or no Origin at all: refused at the handshake.
        for origin in (b"http://evil.example", None):
            comm = communicator(private.pk, alice_key, origin=origin)
            connected, _ = await comm.connect(timeout=TIMEOUT)
            assert not connected
            await comm.disconnect()

    run(scenario)


def test_a_spectator_of_a_public_table_gets_the_spectator_view(alice, bob, carol, charlie, api_for):
    table = started(alice, bob, carol, public=True)
    key = session_for(charlie)

    async def scenario() -> None:
        comm, frame = await connect(table.pk, key)
        assert frame["view"]["hand"] is None
        assert frame["table"]["my_seat"] is None
        assert frame["table"]["invite_code"] is None
        assert not strings_in(frame) & set().union(*table.state["hands"])
        assert as_get(frame) == await fresh_get(api_for, charlie, table.pk)
        await comm.disconnect()

    run(scenario)


def _act(table_id: int, user: Any) -> int:
    """The user plays what the heuristic bot would; returns the new version."""
    table = Table.objects.get(pk=table_id)
    seat = Seat.objects.get(table=table, user=user).position
    action = choose_action(table.state, seat, "heuristic")
    assert action is not None
    table, _ = services.table_submit_action(
        table_id=table_id, user=user, action=action, expect_version=table.version
    )
    return table.version


def _next_player(table_id: int, people: dict[int, Any]) -> Any | None:
    state = Table.objects.get(pk=table_id).state
    if state["game_over"]:
        return None
    for seat in engine.seats_to_act(state):
        if seat in people:
            return people[seat]
    return None


def test_every_seat_gets_each_committed_change_equal_to_a_fresh_get(
    alice, bob, carol, charlie, api_for
):
    table = started(alice, bob, carol, public=True)
    users = [alice, bob, carol, charlie]
    keys = [session_for(u) for u in users]
    people = {0: alice, 1: bob, 2: carol}

    async def scenario() -> None:
        comms = [(await connect(table.pk, key))[0] for key in keys]
        for _ in range(3):
            user = await database_sync_to_async(_next_player)(table.pk, people)
            version = await database_sync_to_async(_act)(table.pk, user)
            for comm, who in zip(comms, users, strict=True):
                frame = await comm.receive_json_from(timeout=TIMEOUT)
                assert frame["version"] == version
                # Stamped in the on_commit hook, before the frame was built.
                assert frame["committed_at"] <= timezone.now().timestamp()
                assert as_get(frame) == await fresh_get(api_for, who, table.pk)
        for comm in comms:
            assert await comm.receive_nothing(0.05)
            await comm.disconnect()

    run(scenario)


def test_no_frame_holds_another_seats_cards(alice, bob, carol, charlie):
    # Three people and a bot; the bot's replies land in the same commits as the people's moves.
    table = started(alice, bob, carol, seats=4, public=True)
    users = [alice, bob, carol, charlie]
    keys = [session_for(u) for u in users]
    people = {0: alice, 1: bob, 2: carol}
    states: dict[int, dict] = {table.version: table.state}
    received: list[tuple[int | None, dict]] = []

    async def scenario() -> None:
        comms = []
        for key, seat in zip(keys, [0, 1, 2, None], strict=True):
            comm, frame = await connect(table.pk, key)
            comms.append((comm, seat))
            received.append((seat, frame))
        for _ in range(40):
            user = await database_sync_to_async(_next_player)(table.pk, people)
            if user is None:
                break
            version = await database_sync_to_async(_act)(table.pk, user)
            states[version] = await database_sync_to_async(
                lambda: Table.objects.get(pk=table.pk).state
            )()
            for comm, seat in comms:
                frame = await comm.receive_json_from(timeout=TIMEOUT)
                assert frame["version"] == version
                received.append((seat, frame))
        for comm, _ in comms:
            await comm.disconnect()

    run(scenario)
    assert len(received) > 4 * 10
    moves = list(Move.objects.filter(table=table).order_by("seq"))
    previous: dict[int | None, int] = {}
    for seat, frame in received:
        state = states[frame["version"]]
        assert not state["game_over"]
        others = set().union(*(h for s, h in enumerate(state["hands"]) if s != seat))
        # Cards taken from the discard pile were seen by all (the view's public ``taken``).
        others -= {card for _, card in state.get("taken") or []}
        # The log tells what everyone saw happen (a card taken from the pile is in a hand
        # now): it is the engine's redaction for this seat of exactly the moves since the
        # socket's previous frame (tests/engine/test_public.py proves the redaction hides
        # every hidden card over whole games).
        assert not strings_in({**frame, "log": None}) & others, (seat, frame["version"])
        seen = previous.get(seat, -1)
        expected = log_entries([m for m in moves if seen < m.version <= frame["version"]], seat)
        if seen >= 0:
            assert frame["log"] == expected
        previous[seat] = frame["version"]
        expected = None if seat is None else state["hands"][seat]
        assert frame["view"]["hand"] == expected


def test_an_expelled_player_stops_receiving(alice, bob, carol):
    # One missed turn expels (strikes=1); the table is private, so the socket closes.
    table = started(alice, bob, carol, public=False, strikes=1)
    active = engine.view(table.state, None)["active_seat"]
    users = {0: alice, 1: bob, 2: carol}
    keys = {seat: session_for(user) for seat, user in users.items()}

    async def scenario() -> None:
        comms = {seat: (await connect(table.pk, key))[0] for seat, key in keys.items()}
        later = timezone.now() + timedelta(seconds=table.options["turn_seconds"] + 1)
        fired = await database_sync_to_async(services.table_timeout_turn)(
            table_id=table.pk, now=later
        )
        assert fired
        assert await refused_code(comms[active]) == 4403
        for seat, comm in comms.items():
            if seat != active:
                frame = await comm.receive_json_from(timeout=TIMEOUT)
                assert frame["table"]["seats"][active]["expelled"] is True
            await comm.disconnect()

    run(scenario)


def test_an_expelled_player_of_a_public_table_becomes_a_spectator(alice, bob, carol):
    table = started(alice, bob, carol, public=True, strikes=1)
    active = engine.view(table.state, None)["active_seat"]
    user = [alice, bob, carol][active]
    key = session_for(user)

    async def scenario() -> None:
        comm, frame = await connect(table.pk, key)
        assert frame["view"]["hand"] is not None
        later = timezone.now() + timedelta(seconds=table.options["turn_seconds"] + 1)
        await database_sync_to_async(services.table_timeout_turn)(table_id=table.pk, now=later)
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        assert frame["view"]["hand"] is None
        assert frame["table"]["my_seat"] is None
        await comm.disconnect()

    run(scenario)


def test_a_player_who_left_stops_receiving(alice, bob):
    table = services.table_create(host=alice, seats=3, public=False)
    services.table_join(user=bob, invite_code=table.invite_code)
    key = session_for(bob)

    async def scenario() -> None:
        comm, frame = await connect(table.pk, key)
        assert frame["view"] is None and frame["table"]["my_seat"] == 1
        await database_sync_to_async(services.table_leave)(user=bob, table_id=table.pk)
        assert await refused_code(comm) == 4403
        await comm.disconnect()

    run(scenario)


def test_a_signed_out_session_stops_receiving(alice, bob, carol):
    table = started(alice, bob, carol, public=True)
    key = session_for(bob)
    people = {0: alice, 1: bob, 2: carol}

    async def scenario() -> None:
        comm, _ = await connect(table.pk, key)
        # Logging out deletes the session row; the next change finds no user behind the socket.
        await database_sync_to_async(Session.objects.filter(session_key=key).delete)()
        user = await database_sync_to_async(_next_player)(table.pk, people)
        await database_sync_to_async(_act)(table.pk, user)
        assert await refused_code(comm) == 4401
        await comm.disconnect()

    run(scenario)


def test_resync_by_version_and_coalescing(alice, bob, carol, api_for):
    table = started(alice, bob, carol, public=True)
    key = session_for(alice)
    people = {0: alice, 1: bob, 2: carol}

    async def scenario() -> None:
        comm, frame = await connect(table.pk, key)
        version = frame["version"]
        await comm.send_json_to({"type": "sync", "version": version})
        assert await comm.receive_json_from(timeout=TIMEOUT) == {
            "type": "current",
            "version": version,
        }
        # A client that missed frames (here: it claims an older version) gets a fresh one.
        await comm.send_json_to({"type": "sync", "version": version - 1})
        frame = await comm.receive_json_from(timeout=TIMEOUT)
        assert frame["type"] == "table" and frame["version"] == version
        assert as_get(frame) == await fresh_get(api_for, alice, table.pk)
        # An announcement of a version the socket already has sends nothing.
        await comm.send_input({"type": "websocket.receive", "text": "null"})
        assert (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "error"
        user = await database_sync_to_async(_next_player)(table.pk, people)
        new = await database_sync_to_async(_act)(table.pk, user)
        assert (await comm.receive_json_from(timeout=TIMEOUT))["version"] == new
        from games.broadcast import table_changed

        await database_sync_to_async(table_changed)(table.pk, new)
        assert await comm.receive_nothing(0.1)
        await comm.disconnect()

    run(scenario)


def test_actions_over_the_socket(alice, bob, carol, api_for):
    table = started(alice, bob, carol, public=True)
    people = {0: alice, 1: bob, 2: carol}
    keys = {seat: session_for(user) for seat, user in people.items()}

    async def scenario() -> None:
        comms = {seat: (await connect(table.pk, key))[0] for seat, key in keys.items()}
        state = table.state
        seat = next(s for s in engine.seats_to_act(state) if s in people)
        action = choose_action(state, seat, "heuristic")
        comm = comms[seat]
        # Stale, malformed, illegal: an error in the API's shape, nothing written. A stale
        # one carries the fresh table, as the API's 409 does, in the same message.
        await comm.send_json_to(
            {"type": "action", "action": action, "expect_version": 0, "ref": "s0"}
        )
        error = await comm.receive_json_from(timeout=TIMEOUT)
        assert error["type"] == "error" and error["error"]["code"] == "stale_version"
        assert error["ref"] == "s0" and error["version"] == table.version
        fresh = {k: v for k, v in error.items() if k != "error"}
        assert as_get({**fresh, "type": "table"}) == await fresh_get(
            api_for, people[seat], table.pk
        )
        # The same as the API answers the same move: its 409's error, table, view and log.
        api = await database_sync_to_async(
            lambda: api_for(people[seat]).act(table.pk, 0, **action)
        )()
        assert api.status_code == 409
        assert steady(api.json()) == steady(
            {k: v for k, v in error.items() if k not in ("type", "ref", "version")}
        )
        assert api.json()["log"] == error["log"]
        assert await comm.receive_nothing(0.05)
        await comm.send_json_to(
            {"type": "action", "action": {"type": "fly"}, "expect_version": table.version}
        )
        error = await comm.receive_json_from(timeout=TIMEOUT)
        assert error["error"]["code"] == "bad_request" and "ref" not in error
        # A client's ref names the answer to its action (frames of other seats' moves may
        # come between); one that is not a short string is ignored.
        await comm.send_json_to(
            {"type": "action", "action": {"type": "fly"}, "expect_version": 0, "ref": "a1"}
        )
        assert (await comm.receive_json_from(timeout=TIMEOUT))["ref"] == "a1"
        await comm.send_json_to(
            {"type": "action", "action": {"type": "fly"}, "expect_version": 0, "ref": "x" * 65}
        )
        assert "ref" not in await comm.receive_json_from(timeout=TIMEOUT)
        await comm.send_json_to(
            {
                "type": "action",
                "action": {"type": "discard", "card": "w1Z"},
                "expect_version": table.version,
            }
        )
        error = await comm.receive_json_from(timeout=TIMEOUT)
        assert error["type"] == "error" and error["error"]["code"] not in {"bad_request", ""}
        # A legal one: the actor's answer is the fresh frame, with its ref; every seat gets
        # it once.
        await comm.send_json_to(
            {"type": "action", "action": action, "expect_version": table.version, "ref": "b2"}
        )
        for other_seat, other in comms.items():
            frame = await other.receive_json_from(timeout=TIMEOUT)
            assert frame["type"] == "table" and frame["version"] == table.version + 1
            assert frame.get("ref") == ("b2" if other is comm else None)
            assert as_get(frame) == await fresh_get(api_for, people[other_seat], table.pk)
            assert await other.receive_nothing(0.05)
            await other.disconnect()

    run(scenario)


def test_logging_out_closes_the_sessions_sockets_at_once(alice, bob, carol):
    table = started(alice, bob, carol, public=True)
    client = Client()
    client.force_login(bob)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    other = session_for(bob)  # bob in another browser stays signed in there

    async def scenario() -> None:
        comm, _ = await connect(table.pk, key)
        still, _ = await connect(table.pk, other)
        await database_sync_to_async(client.logout)()
        assert await refused_code(comm) == 4401
        assert await still.receive_nothing(0.1)
        await comm.disconnect()
        await still.disconnect()

    run(scenario)


def test_a_socket_marks_its_player_online_and_answers_pings(alice, bob, carol):
    from games import presence

    table = started(alice, bob, carol, public=True)
    key = session_for(carol)
    presence.mark_offline(carol.pk)

    async def scenario() -> None:
        comm, frame = await connect(table.pk, key)
        assert await database_sync_to_async(presence.is_online)(carol.pk)
        await comm.send_json_to({"type": "ping"})
        assert await comm.receive_json_from(timeout=TIMEOUT) == {
            "type": "pong",
            "version": frame["version"],
        }
        await comm.disconnect()

    run(scenario)


@pytest.mark.parametrize("change", ["password", "deactivated"])
def test_a_password_change_or_a_deactivated_account_stops_the_socket(alice, bob, carol, change):
    table = started(alice, bob, carol, public=True)
    key = session_for(bob)
    people = {0: alice, 1: bob, 2: carol}

    def change_bob() -> None:
        if change == "password":
            bob.set_password("another long enough password 43")
        else:
            bob.is_active = False
        bob.save()

    async def scenario() -> None:
        comm, _ = await connect(table.pk, key)
        await database_sync_to_async(change_bob)()
        user = await database_sync_to_async(_next_player)(table.pk, people)
        if user == bob:  # bob can no longer act: someone else's move is the change
            user = carol
        await database_sync_to_async(lambda: _act_or_bump(table.pk, user))()
        assert await refused_code(comm) == 4401
        await comm.disconnect()

    run(scenario)


def _act_or_bump(table_id: int, user: Any) -> None:
    """A committed change: the user's move when it is theirs to make, else a bumped version
    announced as the services do."""
    state = Table.objects.get(pk=table_id).state
    seat = Seat.objects.get(table_id=table_id, user=user).position
    if seat in engine.seats_to_act(state):
        _act(table_id, user)
        return
    from django.db.models import F

    from games.broadcast import table_changed

    Table.objects.filter(pk=table_id).update(version=F("version") + 1)
    table_changed(table_id, Table.objects.get(pk=table_id).version)
