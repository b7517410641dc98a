"""The frames of a table's sockets built together (games/consumers.py ``shared_frames``): the
sessions of all of them checked in one query (accounts.sessions.session_users), each socket
answered exactly what its own frame (games.live.changed_frame) would have been."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import sessions
from accounts.sessions import session_user, session_users
from games import engine, live, presence, services
from games.consumers import TableConsumer
from games.ws_guard import frame_text
from tests.live.wsutil import session_for

pytestmark = pytest.mark.django_db


def started(host: Any, *others: Any, public: bool) -> Any:
    table = services.table_create(host=host, seats=len(others) + 1, public=public)
    for user in others:
        services.table_join(user=user, invite_code=table.invite_code)
    return services.table_start(user=host, table_id=table.pk, seed="batch")


def test_session_users_answer_as_session_user_for_each_kind_of_session(
    alice, bob, carol, charlie, django_user_model
):
    dave = django_user_model.objects.create_user("dave", "dave@example.com", "x-Pass-123456")
    keys = {name: session_for(user) for name, user in [("alice", alice), ("bob", bob)]}
    keys["logged out"] = session_for(carol)
    Session.objects.filter(session_key=keys["logged out"]).delete()
    keys["expired"] = session_for(charlie)
    Session.objects.filter(session_key=keys["expired"]).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    keys["password changed"] = session_for(dave)
    dave.set_password("another-Pass-654321")
    dave.save()
    keys["inactive"] = session_for(bob)
    bob_inactive = django_user_model.objects.get(pk=bob.pk)
    keys["garbage"] = "not-a-session-key"

    alone = {name: session_user(key) for name, key in keys.items()}
    assert alone["alice"] == alice and alone["bob"] == bob
    assert [name for name, user in alone.items() if user is None] == [
        "logged out",
        "expired",
        "password changed",
        "garbage",
    ]
    together = session_users(list(keys.values()) + [None, ""])
    assert {name: together[key] for name, key in keys.items()} == alone
    assert set(together) == set(keys.values())

    # The known users (a table's seats, just read) are used as they are: an inactive one is
    # refused without its row being read again.
    bob_inactive.is_active = False
    known = {alice.pk: alice, bob.pk: bob_inactive}
    assert session_users([keys["inactive"], keys["alice"]], known) == {
        keys["inactive"]: None,
        keys["alice"]: alice,
    }
    assert session_user(keys["inactive"], known) is None


def test_session_users_read_every_session_in_one_query(alice, bob, carol):
    keys = [session_for(user) for user in (alice, bob, carol) for _ in range(2)]
    known = {user.pk: user for user in (alice, bob, carol)}
    with CaptureQueriesContext(connection) as captured:
        users = session_users(keys, known)
    assert [users[key] for key in keys] == [alice, alice, bob, bob, carol, carol]
    assert len(captured) == 1, [q["sql"] for q in captured.captured_queries]


def test_a_session_whose_row_changed_is_decoded_again(alice, bob, django_user_model):
    # The decoded data of a session is kept while its stored text is the same: a row that
    # changes (another user signed in on it, a password change's new hash) is read afresh.
    from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    key = session_for(alice)
    assert session_users([key])[key] == alice
    assert session_users([key])[key] == alice
    store = SessionStore(session_key=key)
    store[SESSION_KEY] = str(bob.pk)
    store[HASH_SESSION_KEY] = bob.get_session_auth_hash()
    store.save()
    assert session_users([key])[key] == bob
    store[HASH_SESSION_KEY] = "not-the-hash"
    store.save()
    assert session_users([key])[key] is None


def test_a_session_read_moments_ago_is_not_read_again_but_any_change_to_it_is(
    alice, bob, django_user_model, monkeypatch
):
    # read_within (the sockets' frames after a change): a row this process read that recently
    # is not read again, while the user is checked afresh; a row deleted or saved here, one
    # that has expired, one past the window and any "signed out" answer are read again.
    keys = [session_for(alice), session_for(bob)]
    known = {alice.pk: alice, bob.pk: bob}

    def check(within: float = 10.0) -> tuple[dict[str, Any], int]:
        with CaptureQueriesContext(connection) as captured:
            users = session_users(keys, known, read_within=within)
        return {key: users[key] for key in keys}, len(captured)

    assert check() == ({keys[0]: alice, keys[1]: bob}, 1)
    assert check() == ({keys[0]: alice, keys[1]: bob}, 0)
    assert check(within=0) == ({keys[0]: alice, keys[1]: bob}, 1)

    # A password changed elsewhere: the user row says so at once (known is the fresh read).
    bob.set_password("another-Pass-654321")
    bob.save()
    assert check() == ({keys[0]: alice, keys[1]: None}, 1)
    keys[1] = session_for(bob)
    assert check() == ({keys[0]: alice, keys[1]: bob}, 1)
    assert check() == ({keys[0]: alice, keys[1]: bob}, 0)

    # Signed out here: the row's deletion is seen by the next check.
    Session.objects.filter(session_key=keys[0]).delete()
    assert check() == ({keys[0]: None, keys[1]: bob}, 1)
    assert check()[0][keys[0]] is None

    # Expired while held: read again.
    keys[0] = session_for(alice)
    assert check()[1] == 1
    held = sessions._rows_read[keys[0]]
    sessions._rows_read[keys[0]] = (held[0], held[1], timezone.now() - timedelta(seconds=1))
    assert check() == ({keys[0]: alice, keys[1]: bob}, 1)

    # Past the window: read again.
    assert check()[1] == 0
    later = sessions.time.monotonic() + 11
    monkeypatch.setattr(sessions.time, "monotonic", lambda: later)
    assert check()[1] == 1

    # Deleted behind this process's back (raw SQL, as another process might): within the
    # window the held row still answers; past it, the deletion is seen.
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM django_session WHERE session_key = %s", [keys[1]])
    assert check() == ({keys[0]: alice, keys[1]: bob}, 0)
    monkeypatch.setattr(sessions.time, "monotonic", lambda: later + 11)
    assert check() == ({keys[0]: alice, keys[1]: None}, 1)


def test_a_session_deleted_while_its_row_was_being_read_is_not_held(alice, monkeypatch):
    # A sign-out that lands between the read and its being held must not leave the row held.
    key = session_for(alice)
    real = sessions._sessions_sql

    def sql_then_sign_out(count: int) -> str:
        sessions.forget(key)  # another thread's post_delete, while this read is on its way
        return real(count)

    monkeypatch.setattr(sessions, "_sessions_sql", sql_then_sign_out)
    assert session_users([key], read_within=10)[key] == alice
    assert key not in sessions._rows_read


def test_an_opening_takes_its_seated_user_from_the_table_read(
    alice, bob, carol, charlie, stopped_clock
):
    # A socket opening reads the table first: a seated player's own row comes with it, so only
    # the session row is read for them; a spectator's user is read as before. Signed out still
    # answers before "no such table", and both before the frame.
    table = started(alice, bob, carol, public=True)
    # The statement's text before its parameter (the captured queries have it filled in).
    user_by_id = sessions._user_by_id()[0].split("%s")[0]

    def opening(key: str | None, table_id: int = table.pk) -> tuple[Any, list[str]]:
        with CaptureQueriesContext(connection) as captured:
            found = live.opening_frame(
                table_id=table_id, session_key=key, since=None, looking=False
            )
        return found, [q["sql"][: len(user_by_id)] for q in captured.captured_queries]

    (user, frame), queries = opening(session_for(bob))
    assert user == bob and frame["version"] == table.version
    assert frame == live.table_frame(table_id=table.pk, session_key=session_for(bob))
    assert user_by_id not in queries
    (user, frame), queries = opening(session_for(charlie))
    assert user == charlie and user_by_id in queries
    for key, table_id, code in [
        (None, table.pk, live.CLOSE_SIGNED_OUT),
        ("not-a-session", table.pk + 1000, live.CLOSE_SIGNED_OUT),
        (session_for(bob), table.pk + 1000, live.CLOSE_NOT_FOUND),
    ]:
        with pytest.raises(live.Refused) as refused:
            opening(key, table_id)
        assert refused.value.code == code


@pytest.fixture
def stopped_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clocks' seconds left are counted from now: two frames built a second apart differ
    by that second (a loaded machine takes it between the batch and the read it is checked
    against), so now stands still for the test."""
    still = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: still)


def test_changed_frames_give_each_socket_its_own_frame(alice, bob, carol, charlie, stopped_clock):
    table = started(alice, bob, carol, public=False)
    before = table.version
    mover = [alice, bob, carol][engine.active_seat(table.state)]
    services.table_submit_action(
        table_id=table.pk,
        user=mover,
        action={"type": "draw", "source": "stock"},
        expect_version=before,
    )
    signed_out = session_for(carol)
    Session.objects.filter(session_key=signed_out).delete()
    sockets = [
        (session_for(alice), before),
        (session_for(bob), before),
        (session_for(bob), -1),  # a second tab, with the whole recent log
        (session_for(charlie), before),  # not seated at a private table
        (signed_out, before),
        (None, before),
    ]
    for user in (alice, bob, carol, charlie):
        presence.mark_online(user.pk)  # as each frame does, so that the seats' dots agree
    answers = live.changed_frames(table.pk, sockets)

    read, seats = services.table_read(table_id=table.pk)
    for (key, since), answer in zip(sockets[:3], answers[:3], strict=True):
        moves = live.moves_since(read, None if since < 0 else since)
        assert answer == live.changed_frame(read, seats, key, moves)
    assert [a["table"]["my_seat"] for a in answers[:3]] == [0, 1, 1]  # type: ignore[index]
    assert answers[0]["view"]["hand"] == read.state["hands"][0]  # type: ignore[index]
    assert answers[1]["view"]["hand"] == read.state["hands"][1]  # type: ignore[index]
    refused = answers[3:]
    assert all(isinstance(a, live.Refused) for a in refused), refused
    assert [a.code for a in refused] == [  # type: ignore[union-attr]
        live.CLOSE_FORBIDDEN,
        live.CLOSE_SIGNED_OUT,
        live.CLOSE_SIGNED_OUT,
    ]


def test_changed_frames_of_a_table_that_is_gone_refuse_every_socket():
    with pytest.raises(live.Refused) as refused:
        live.changed_frames(10**9, [("whatever", 0)])
    assert refused.value.code == live.CLOSE_NOT_FOUND


def test_frames_from_this_process_s_commit_are_the_frames_of_a_fresh_read(
    alice, bob, carol, charlie, django_capture_on_commit_callbacks, stopped_clock, monkeypatch
):
    """After a move committed here, the batch builds the frames from the table, seats and moves
    as committed (games/services/recent.py): the JSON that a read of the table gives,
    for every seat and a spectator, through a game with a bot's moves in the commits."""
    from games.engine.bots import choose_action
    from games.services import recent

    table = services.table_create(host=alice, seats=4, public=True)
    for user in (bob, carol):
        services.table_join(user=user, table_id=table.pk)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    table = services.table_start(user=alice, table_id=table.pk, seed="recent")
    people = {s.position: s.user for s in table.seats.all() if s.user_id is not None}
    keys = [session_for(user) for user in (alice, bob, carol, charlie)]
    for user in (alice, bob, carol, charlie):
        presence.mark_online(user.pk)
    recalled = 0
    recall = services.table_recent_commit

    def counted(table_id: int, version: int) -> Any:
        nonlocal recalled
        found = recall(table_id, version)
        recalled += found is not None
        return found

    monkeypatch.setattr(services, "table_recent_commit", counted)
    for _ in range(60):
        read, _ = services.table_read(table_id=table.pk)
        if engine.is_over(read.state):
            break
        seat = next(s for s in engine.seats_to_act(read.state) if s in people)
        with django_capture_on_commit_callbacks(execute=True):
            services.table_submit_action(
                table_id=table.pk,
                user=people[seat],
                action=choose_action(read.state, seat),
                expect_version=read.version,
            )
        version = read.version + 1
        sockets = [(key, read.version) for key in keys] + [(keys[0], -1)]
        from_commit = live.changed_frames(table.pk, sockets, version)
        recent.forget()
        from_database = live.changed_frames(table.pk, sockets, version)
        # The same JSON (PostgreSQL's jsonb gives an event's keys back in its own order).
        assert json.loads(json.dumps(from_commit)) == json.loads(json.dumps(from_database))
        # The socket's text (orjson) is the JSON the standard library gave, frame by frame.
        for frame in from_commit + from_database:
            assert json.loads(frame_text(frame)) == json.loads(json.dumps(frame))
        assert all(isinstance(f, dict) and f["version"] == version for f in from_database)
    assert recalled >= 30


def test_a_commit_is_recalled_once_and_held_briefly(
    alice, bob, carol, django_capture_on_commit_callbacks, monkeypatch
):
    """The batch of a version takes the committed rows once (a second batch reads the
    database); rows no socket asked for are let go after HOLD_SECONDS; the fast 409 still
    knows the latest version this process committed."""
    from games.services import recent

    clock = [1000.0]
    monkeypatch.setattr(recent.time, "monotonic", lambda: clock[0])

    def drawn(table: Any) -> int:
        """The player to move draws from the stock: the version committed."""
        read, _ = services.table_read(table_id=table.pk)
        seats = engine.seats_to_act(read.state)
        mover = next(s.user for s in read.seats.all() if s.position in seats)
        with django_capture_on_commit_callbacks(execute=True):
            services.table_submit_action(
                table_id=table.pk,
                user=mover,
                action={"type": "draw", "source": "stock"},
                expect_version=read.version,
            )
        return read.version + 1

    table = started(alice, bob, carol, public=False)
    version = drawn(table)
    assert recent.recall(table.pk, version - 1) is None  # only the exact version
    found = recent.recall(table.pk, version)
    assert found is not None and found.table.version == version
    assert recent.recall(table.pk, version) is None
    assert recent.latest_version(table.pk) == version

    other = started(alice, bob, carol, public=True)
    other_version = drawn(other)
    clock[0] += recent.HOLD_SECONDS + 0.1
    # The next commit anywhere lets the old one go.
    recent.remember(table, list(table.seats.all()))
    assert recent.recall(other.pk, other_version) is None
    assert recent.latest_version(other.pk) == other_version


def test_frame_text_is_the_standard_library_s_json():
    """What orjson encodes differently is the same object once parsed; what it refuses falls
    back to ``json.dumps``; the consumer's ``encode_json`` is ``frame_text``."""
    import asyncio

    for content in [
        {"type": "changed", 3: "int key", "x": [1.5, None, True, -0.0, 10**18]},
        {"name": 'Zoë ☃ \u2028 "quoted" \\ </script>', "t": (1, 2)},
        {"big": 2**70, "surrogate": "\udc00"},
    ]:
        assert json.loads(frame_text(content)) == json.loads(json.dumps(content))
    assert asyncio.run(TableConsumer.encode_json({"a": 1})) == '{"a":1}'
