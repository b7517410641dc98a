"""Friends and blocks (issue 29): follows make friends when mutual; a block keeps its blocked
player from my tables, silently."""

from __future__ import annotations

from typing import Any

import pytest

from chat.services import chat_frame_of, chat_post, chat_read
from games import services
from notify import tasks as notify_tasks  # noqa: F401 (registers the tasks)
from social import selectors
from social.models import Invitation

from .conftest import error_of
from .test_push import subscribe

pytestmark = pytest.mark.django_db


def delete(api: Any, path: str) -> Any:
    return api.client.delete(path)


def test_following_each_other_makes_friends(alice, bob, carol, api_for):
    a, b = api_for(alice), api_for(bob)
    r = a.post("/api/friends/bob")
    assert r.status_code == 200 and r.json() == {"following": True, "friends": False}
    r = b.post("/api/friends/alice")
    assert r.json() == {"following": True, "friends": True}
    assert selectors.are_friends(alice, bob) and selectors.are_friends(bob.pk, alice.pk)
    api_for(carol).post("/api/friends/alice")
    assert a.get("/api/friends").json() == {
        "following": ["bob"],
        "followers": ["bob", "carol"],
        "friends": ["bob"],
    }
    r = delete(a, "/api/friends/bob")
    assert r.status_code == 200 and r.json() == {"following": False, "friends": False}
    assert a.get("/api/friends").json()["friends"] == []
    assert not selectors.are_friends(alice, bob)


def test_follow_refusals(alice, api_for):
    a = api_for(alice)
    assert error_of(a.post("/api/friends/nobody")) == (404, "player_not_found")
    assert error_of(a.post("/api/friends/alice")) == (400, "bad_request")
    assert error_of(a.post("/api/blocks/alice")) == (400, "bad_request")


def test_block_list_and_unblock(alice, bob, api_for):
    a = api_for(alice)
    r = a.post("/api/blocks/bob")
    assert r.status_code == 200
    assert a.get("/api/blocks").json() == {"blocked": ["bob"]}
    assert selectors.has_blocked(alice, bob) and not selectors.has_blocked(bob, alice)
    assert selectors.blocked_either_way(bob, alice) and selectors.blocked_either_way(alice.pk, bob)
    assert delete(a, "/api/blocks/bob").status_code == 200
    assert a.get("/api/blocks").json() == {"blocked": []}
    assert not selectors.blocked_either_way(alice, bob)


def test_a_blocked_player_cannot_join_my_table_and_is_told_only_that(alice, bob, api_for):
    table = services.table_create(host=alice, seats=3)
    api_for(alice).post("/api/blocks/bob")
    r = api_for(bob).post(f"/api/tables/{table.pk}/join")
    assert error_of(r) == (403, "blocked")
    message = r.json()["error"]["message"]
    assert message == "you cannot join this table"
    assert "alice" not in message and "block" not in message
    # Nor with the invite link.
    r = api_for(bob).post("/api/tables/join", {"invite_code": table.invite_code})
    assert error_of(r) == (403, "blocked")


def test_a_blocked_player_cannot_sit_at_a_table_i_wait_at(alice, bob, carol, api_for):
    table = services.table_create(host=alice, seats=4)
    services.table_join(user=carol, table_id=table.pk)
    api_for(carol).post("/api/blocks/bob")
    assert error_of(api_for(bob).post(f"/api/tables/{table.pk}/join")) == (403, "blocked")
    # Nor do I sit at theirs: the block keeps both apart.
    theirs = services.table_create(host=bob, seats=3)
    assert error_of(api_for(carol).post(f"/api/tables/{theirs.pk}/join")) == (403, "blocked")
    # Once unblocked, the seat is theirs to take.
    api_for(carol).client.delete("/api/blocks/bob")
    assert api_for(bob).post(f"/api/tables/{table.pk}/join").status_code == 200


def test_a_blocked_player_follows_me_for_nothing(alice, bob, api_for):
    api_for(alice).post("/api/friends/bob")
    api_for(alice).post("/api/blocks/bob")
    # Silent: bob's follow answers as any follow does, but counts for nothing on my side.
    r = api_for(bob).post("/api/friends/alice")
    assert r.status_code == 200 and r.json() == {"following": True, "friends": False}
    assert api_for(bob).get("/api/friends").json()["following"] == ["alice"]
    mine = api_for(alice).get("/api/friends").json()
    assert mine == {"following": [], "followers": [], "friends": []}
    assert not selectors.are_friends(alice, bob)


def make_friends(api_for, a, b):
    api_for(a).post(f"/api/friends/{b.username}")
    api_for(b).post(f"/api/friends/{a.username}")


def test_invite_a_friend_to_my_table(alice, bob, carol, api_for):
    table = services.table_create(host=alice, seats=3)
    make_friends(api_for, alice, bob)
    r = api_for(alice).post(f"/api/tables/{table.pk}/invite", {"username": "bob"})
    assert r.status_code == 200 and r.json() == {"invited": "bob", "table": table.pk}
    assert [i.table_id for i in selectors.invitations_for(bob)] == [table.pk]
    # carol is no friend of alice's.
    r = api_for(alice).post(f"/api/tables/{table.pk}/invite", {"username": "carol"})
    assert error_of(r) == (400, "not_friends")
    # Once bob sits there, the invitation is answered.
    services.table_join(user=bob, table_id=table.pk)
    assert selectors.invitations_for(bob) == []


def test_a_blocked_player_cannot_invite_me(alice, bob, api_for):
    make_friends(api_for, alice, bob)
    table = services.table_create(host=bob, seats=3)
    api_for(alice).post("/api/blocks/bob")
    r = api_for(bob).post(f"/api/tables/{table.pk}/invite", {"username": "alice"})
    assert error_of(r) == (400, "not_friends")
    assert selectors.invitations_for(alice) == []
    assert not Invitation.objects.exists()


def test_only_a_seated_player_invites_to_an_open_table(alice, bob, carol, api_for):
    make_friends(api_for, carol, bob)
    table = services.table_create(host=alice, seats=3)
    r = api_for(carol).post(f"/api/tables/{table.pk}/invite", {"username": "bob"})
    assert error_of(r) == (403, "not_seated")
    assert error_of(api_for(carol).post("/api/tables/999999/invite", {"username": "bob"})) == (
        404,
        "table_not_found",
    )


def test_an_invitation_is_pushed_to_the_friend_once_after_the_commit(
    alice, bob, api_for, receiver, run_notify, django_capture_on_commit_callbacks
):
    make_friends(api_for, alice, bob)
    sub = receiver.subscriber()
    subscribe(bob, sub)
    table = services.table_create(host=alice, seats=3)
    with django_capture_on_commit_callbacks(execute=True):
        api_for(alice).post(f"/api/tables/{table.pk}/invite", {"username": "bob"})
    with django_capture_on_commit_callbacks(execute=True):
        # Asked again: still one push.
        api_for(alice).post(f"/api/tables/{table.pk}/invite", {"username": "bob"})
    got = receiver.for_endpoint(sub)
    assert len(got) == 1
    payload = sub.decrypt(got[0].body)
    assert payload["title"] == f"alice invites you to table #{table.pk}"
    assert payload["url"] == f"/tables/{table.pk}/"


def test_a_blocked_players_chat_is_hidden_from_me(alice, bob, carol, api_for):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="chat-block")
    said = chat_post(table_id=table.pk, user=bob, text="hello all")
    chat_post(table_id=table.pk, user=carol, text="hi")
    assert chat_frame_of(chat_read(said.pk), alice) is not None
    api_for(alice).post("/api/blocks/bob")
    # Nor do my sockets carry what he says.
    assert chat_frame_of(chat_read(said.pk), alice) is None
    assert chat_frame_of(chat_read(said.pk), carol) is not None
    texts = [
        m["text"] for m in api_for(alice).get(f"/api/tables/{table.pk}/chat").json()["messages"]
    ]
    assert texts == ["hi"]
    # carol still reads bob; bob is not told (he reads everything as before).
    texts = [
        m["text"] for m in api_for(carol).get(f"/api/tables/{table.pk}/chat").json()["messages"]
    ]
    assert texts == ["hello all", "hi"]
    texts = [m["text"] for m in api_for(bob).get(f"/api/tables/{table.pk}/chat").json()["messages"]]
    assert texts == ["hello all", "hi"]
