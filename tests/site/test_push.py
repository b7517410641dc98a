"""Web push (notify/): the pinned endpoints, the SSRF guard, and pushes delivered to a push
service of our own on 127.0.0.1 that decrypts them (aes128gcm) and checks the VAPID header."""

from __future__ import annotations

import base64
import json
from datetime import timedelta
from typing import Any

import pytest
from celery import current_app
from django.test import Client
from django.utils import timezone

from chat.services import chat_post
from games import engine, presence, services
from games.engine.bots import choose_action
from games.models import Seat, Table
from games.services import enqueue
from notify import guard, push
from notify import services as notify
from notify import tasks as notify_tasks  # noqa: F401 (registers the tasks)
from notify.models import NotifyPrefs, PushSent, PushSubscription
from tests.conftest import signed_in_client
from tests.push_receiver import verify_vapid

from .conftest import error_of


def subscribe(user: Any, subscriber: Any) -> Any:
    return signed_in_client(user).post(
        "/api/push/subscriptions", subscriber.to_json(), content_type="application/json"
    )


# ---- the endpoints ------------------------------------------------------------------------


def test_the_key_is_the_vapid_public_key_base64url(alice):
    body = signed_in_client(alice).get("/api/push/key").json()
    raw = base64.urlsafe_b64decode(body["public_key"] + "==")
    assert len(raw) == 65 and raw[0] == 4  # an uncompressed P-256 point
    assert "=" not in body["public_key"]


def test_the_key_needs_a_signed_in_user(db):
    assert error_of(Client().get("/api/push/key")) == (401, "not_authenticated")


def test_subscribe_201_then_200_then_delete_204(alice, receiver):
    sub = receiver.subscriber()
    first = subscribe(alice, sub)
    assert first.status_code == 201, first.content
    again = subscribe(alice, sub)
    assert again.status_code == 200
    assert PushSubscription.objects.filter(user=alice).count() == 1
    listed = signed_in_client(alice).get("/api/push/subscriptions").json()
    assert [s["endpoint"] for s in listed] == [sub.endpoint]
    gone = signed_in_client(alice).delete(
        "/api/push/subscriptions", {"endpoint": sub.endpoint}, content_type="application/json"
    )
    assert gone.status_code == 204
    assert not PushSubscription.objects.filter(user=alice).exists()


def test_several_browsers_per_user_each_removable(alice, receiver):
    phone, laptop = receiver.subscriber(), receiver.subscriber()
    assert subscribe(alice, phone).status_code == 201
    assert subscribe(alice, laptop).status_code == 201
    signed_in_client(alice).delete(
        "/api/push/subscriptions", {"endpoint": phone.endpoint}, content_type="application/json"
    )
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [laptop.endpoint]


def test_one_subscription_per_browser_moves_to_whoever_signs_in_there(alice, bob, receiver):
    sub = receiver.subscriber()
    subscribe(alice, sub)
    assert subscribe(bob, sub).status_code == 201
    assert PushSubscription.objects.get().user == bob


def test_a_subscription_needs_its_keys(alice, receiver):
    body = receiver.subscriber().to_json()
    del body["keys"]["auth"]
    answer = signed_in_client(alice).post(
        "/api/push/subscriptions", body, content_type="application/json"
    )
    assert error_of(answer) == (400, "bad_request")


def test_the_browser_needs_the_csrf_token(alice, receiver):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    answer = client.post(
        "/api/push/subscriptions", receiver.subscriber().to_json(), content_type="application/json"
    )
    assert error_of(answer) == (403, "csrf_failed")


# ---- the SSRF guard -------------------------------------------------------------------------


@pytest.fixture
def resolver(monkeypatch: Any) -> dict[str, list[str]]:
    """Names resolve to what the test says, without any network."""
    table: dict[str, list[str]] = {}

    def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise OSError(f"unknown host {host}")
        return table[host]

    monkeypatch.setattr(guard, "resolve", resolve)
    return table


@pytest.mark.parametrize(
    "addresses",
    [
        ["10.1.2.3"],
        ["192.168.0.10"],
        ["172.16.5.5"],
        ["127.0.0.1"],
        ["169.254.169.254"],  # the cloud's metadata service
        ["0.0.0.0"],
        ["100.64.0.1"],  # carrier-grade NAT, not global
        ["::1"],
        ["fe80::1"],
        ["fd00::1"],
        ["::ffff:10.0.0.1"],
        ["240.0.0.1"],  # reserved
        ["93.184.216.34", "10.0.0.1"],  # one bad address among good ones is enough
    ],
)
def test_names_resolving_to_private_addresses_are_refused(alice, resolver, addresses):
    resolver["push.evil.test"] = addresses
    body = {
        "endpoint": "https://push.evil.test/send/abc",
        "keys": {"p256dh": "B" * 87, "auth": "A" * 22},
    }
    answer = signed_in_client(alice).post(
        "/api/push/subscriptions", body, content_type="application/json"
    )
    assert error_of(answer) == (400, "bad_push_endpoint")
    assert not PushSubscription.objects.exists()


def test_a_public_https_endpoint_is_accepted(alice, resolver):
    resolver["push.example.net"] = ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]
    body = {
        "endpoint": "https://push.example.net/wpush/v2/abc",
        "keys": {"p256dh": "B" * 87, "auth": "A" * 22},
    }
    answer = signed_in_client(alice).post(
        "/api/push/subscriptions", body, content_type="application/json"
    )
    assert answer.status_code == 201


@pytest.mark.parametrize(
    "url",
    [
        "http://push.example.net/abc",  # not https
        "ftp://push.example.net/abc",
        "https://user:pw@push.example.net/abc",
        "https:///abc",
        "https://nowhere.test/abc",  # does not resolve
        "http://127.0.0.1:9/abc",  # loopback, and the setting is off
        "https://127.0.0.1/abc",
    ],
)
def test_other_endpoints_are_refused(resolver, settings, url):
    settings.MAYI_PUSH_ALLOW_LOOPBACK = False
    resolver["push.example.net"] = ["93.184.216.34"]
    with pytest.raises(guard.BadEndpoint):
        guard.check_endpoint(url)


def test_the_loopback_setting_allows_127_0_0_1_only(resolver, settings):
    settings.MAYI_PUSH_ALLOW_LOOPBACK = True
    assert guard.check_endpoint("http://127.0.0.1:8123/push/x")
    resolver["localhost"] = ["127.0.0.1"]
    for url in ("http://localhost:8123/push/x", "http://10.0.0.1/x", "http://[::1]:80/x"):
        with pytest.raises(guard.BadEndpoint):
            guard.check_endpoint(url)


def test_the_loopback_setting_is_off_by_default():
    from django.conf import settings as django_settings

    assert django_settings.MAYI_PUSH_ALLOW_LOOPBACK is False


def test_the_guard_is_checked_again_before_each_push(alice, receiver, settings):
    sub = receiver.subscriber()
    subscribe(alice, sub)
    settings.MAYI_PUSH_ALLOW_LOOPBACK = False  # what was fine at subscription time is no more
    outcome = push.send(
        endpoint=sub.endpoint, p256dh="x", auth="y", payload={"title": "hello"}, ttl=60
    )
    assert not outcome.delivered and receiver.received == []


# ---- pushes through the receiver -------------------------------------------------------------


def seat_users(table: Table) -> dict[int, Any]:
    return {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}


def next_to_play(table: Table) -> Any:
    """The person whose turn comes after the one being played (of three seats)."""
    return seat_users(table)[(engine.view(table.state, None)["active_seat"] + 1) % 3]


def play_one_turn(table: Table) -> Table:
    """The seat whose turn it is plays its bot's choice until the turn passes on."""
    table.refresh_from_db()
    users = seat_users(table)
    start = engine.view(table.state, None)["active_seat"]
    for _ in range(50):
        table.refresh_from_db()
        view = engine.view(table.state, None)
        if view["active_seat"] != start and not engine.window_open(table.state):
            return table
        seat = engine.seats_to_act(table.state)[0]
        services.table_submit_action(
            table_id=table.pk,
            user=users[seat],
            action=choose_action(table.state, seat),
            expect_version=table.version,
        )
    raise AssertionError("the turn never passed")


def test_my_turn_is_pushed_encrypted_and_signed(
    three_player_game, receiver, run_notify, django_capture_on_commit_callbacks
):
    table = three_player_game
    nxt = next_to_play(table)
    sub = receiver.subscriber()
    subscribe(nxt, sub)
    with django_capture_on_commit_callbacks(execute=True):
        table = play_one_turn(table)
    got = receiver.for_endpoint(sub)
    assert len(got) == 1, [r.path for r in receiver.received]
    push_msg = got[0]
    assert push_msg.headers["content-encoding"] == "aes128gcm"
    assert int(push_msg.headers["ttl"]) > 0
    vapid = verify_vapid(push_msg.headers, receiver.origin)
    assert vapid["key"] == signed_in_client(nxt).get("/api/push/key").json()["public_key"]
    payload = sub.decrypt(push_msg.body)
    assert payload["title"] == "Your turn"
    assert payload["url"] == f"/tables/{table.pk}/"
    assert f"#{table.pk}" in payload["body"]
    # Never a card of a hand: no card id of any hand appears anywhere in it.
    hands = [c for hand in table.state["hands"] for c in hand]
    text = json.dumps(payload)
    assert not any(card in text for card in hands)


def test_each_event_is_pushed_once_even_if_the_task_runs_twice(
    three_player_game, receiver, run_notify, django_capture_on_commit_callbacks
):
    table = three_player_game
    nxt = next_to_play(table)
    sub = receiver.subscriber()
    subscribe(nxt, sub)
    with django_capture_on_commit_callbacks(execute=True):
        play_one_turn(table)
    calls = [args for name, args in run_notify if name == enqueue.NOTIFY_TABLE]
    for args in calls:
        current_app.tasks[enqueue.NOTIFY_TABLE](*args)  # a redelivered task
    assert len(receiver.for_endpoint(sub)) == 1
    assert PushSent.objects.filter(user=nxt, kind="turn").count() == 1


def test_the_push_comes_after_the_commit_never_from_the_request(
    three_player_game, receiver, run_notify
):
    # Without running the on-commit callbacks (a transaction that never committed), nothing.
    table = three_player_game
    nxt = next_to_play(table)
    sub = receiver.subscriber()
    subscribe(nxt, sub)
    play_one_turn(table)
    assert receiver.received == [] and run_notify == []


def test_a_gone_subscription_is_deleted(
    three_player_game, receiver, run_notify, django_capture_on_commit_callbacks
):
    table = three_player_game
    nxt = next_to_play(table)
    subscribe(nxt, receiver.subscriber())
    receiver.answer = 410
    with django_capture_on_commit_callbacks(execute=True):
        play_one_turn(table)
    assert len(receiver.received) == 1
    assert not PushSubscription.objects.filter(user=nxt).exists()


def test_a_404_deletes_it_too_and_a_500_keeps_it(alice, receiver):
    kept, lost = receiver.subscriber(), receiver.subscriber()
    subscribe(alice, kept)
    receiver.answer = 500
    notify.push_to_user(user_id=alice.pk, kind="nudge", key="k1", payload={"title": "t"})
    assert PushSubscription.objects.filter(endpoint=kept.endpoint).exists()
    PushSubscription.objects.all().delete()
    subscribe(alice, lost)
    receiver.answer = 404
    notify.push_to_user(user_id=alice.pk, kind="nudge", key="k2", payload={"title": "t"})
    assert not PushSubscription.objects.exists()


def test_no_push_while_the_table_is_open_and_shown(
    three_player_game, receiver, run_notify, django_capture_on_commit_callbacks
):
    table = three_player_game
    nxt = next_to_play(table)
    subscribe(nxt, receiver.subscriber())
    presence.mark_looking(nxt.pk, table.pk, True)
    with django_capture_on_commit_callbacks(execute=True):
        table = play_one_turn(table)
    assert receiver.received == []
    # Not even queued: the commit dropped the notice of the player at the page.
    queued = [args for name, args in run_notify if name == enqueue.NOTIFY_TABLE]
    assert all(notice[0] != nxt.pk for _, notices in queued for notice in notices)
    # Hidden again (another tab, the phone locked): the next turn of theirs is pushed.
    presence.mark_looking(nxt.pk, table.pk, False)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            table = play_one_turn(table)
    assert len(receiver.received) == 1


def test_a_kind_turned_off_on_the_profile_is_not_pushed(
    three_player_game, receiver, run_notify, django_capture_on_commit_callbacks
):
    table = three_player_game
    nxt = next_to_play(table)
    subscribe(nxt, receiver.subscriber())
    client = signed_in_client(nxt)
    # The profile's form: every box but "my turn" ticked.
    client.post(
        "/accounts/profile/push/",
        {"push_mayi": "on", "push_ended": "on", "push_mention": "on", "push_nudge": "on"},
    )
    assert NotifyPrefs.objects.get(user=nxt).push_turn is False
    with django_capture_on_commit_callbacks(execute=True):
        play_one_turn(table)
    assert receiver.received == []


def test_a_may_i_offer_that_waits_on_me_is_pushed(
    three_player_game, receiver, run_notify, django_capture_on_commit_callbacks
):
    table = three_player_game
    table.refresh_from_db()
    users = seat_users(table)
    subs = {pos: receiver.subscriber() for pos in users}
    for pos, sub in subs.items():
        subscribe(users[pos], sub)
    active = engine.view(table.state, None)["active_seat"]
    # The active seat draws from the stock and discards: a window opens for the others.
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(10):
            table.refresh_from_db()
            if engine.window_open(table.state):
                break
            seat = engine.seats_to_act(table.state)[0]
            action = choose_action(table.state, seat)
            if action["type"] == "draw":
                action = {"type": "draw", "source": "stock"}
            services.table_submit_action(
                table_id=table.pk, user=users[seat], action=action, expect_version=table.version
            )
    assert engine.window_open(table.state)
    waiting = set(engine.answerers(table.state))
    assert waiting and active not in waiting
    offers = {
        pos
        for pos, sub in subs.items()
        for r in receiver.for_endpoint(sub)
        if sub.decrypt(r.body)["kind"] == "mayi"
    }
    assert offers == waiting
    payload = next(
        subs[pos].decrypt(r.body) for pos in waiting for r in receiver.for_endpoint(subs[pos])
    )
    assert "on offer" in payload["body"] and payload["url"] == f"/tables/{table.pk}/"


def test_a_game_that_ended_is_pushed_with_place_and_score(
    alice, receiver, run_notify, django_capture_on_commit_callbacks
):
    table = services.table_create(host=alice, seats=3)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="push-ended")
    sub = receiver.subscriber()
    subscribe(alice, sub)
    notify.push_prefs_save(user=alice, push_ended=True, push_turn=False, push_mayi=False)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3000):
            table.refresh_from_db()
            if table.status == Table.Status.FINISHED:
                break
            seat = engine.seats_to_act(table.state)[0]
            services.table_submit_action(
                table_id=table.pk,
                user=alice,
                action=choose_action(table.state, seat),
                expect_version=table.version,
            )
    assert table.status == Table.Status.FINISHED
    got = [sub.decrypt(r.body) for r in receiver.for_endpoint(sub)]
    assert [p["kind"] for p in got] == ["ended"]
    view = engine.view(table.state, None)
    place, score = view["places"][0], view["total_scores"][0]
    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}[place]
    assert got[0]["body"] == f"Table #{table.pk}: you finished {ordinal} with {score} points."


def test_a_chat_message_naming_me_is_pushed(
    three_player_game, receiver, run_notify, django_capture_on_commit_callbacks
):
    table = three_player_game
    users = seat_users(table)
    by_name = {u.username: u for u in users.values()}
    subs = {name: receiver.subscriber() for name in by_name}
    for name, sub in subs.items():
        subscribe(by_name[name], sub)
    with django_capture_on_commit_callbacks(execute=True):
        chat_post(table_id=table.pk, user=by_name["alice"], text="@Bob your move, mate. @alice")
    assert [subs["bob"].decrypt(r.body)["body"] for r in receiver.for_endpoint(subs["bob"])] == [
        "@Bob your move, mate. @alice"
    ]
    assert receiver.for_endpoint(subs["carol"]) == []
    assert receiver.for_endpoint(subs["alice"]) == []  # never to the author


def test_mentioned_names():
    assert notify.mentioned_names("hi @bob, and @Carol. mail a@b.c @bob") == ["bob", "carol"]


# ---- the pages -------------------------------------------------------------------------------


def test_the_service_worker_is_served_from_the_root(db):
    answer = Client().get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    assert "no-cache" in answer["Cache-Control"]
    assert "Content-Security-Policy" in answer
    text = answer.content.decode()
    assert 'addEventListener("push"' in text and 'addEventListener("notificationclick"' in text


def test_the_profile_offers_push_without_asking_on_load(alice, receiver):
    sub = receiver.subscriber()
    subscribe(alice, sub)
    page = signed_in_client(alice).get("/accounts/profile/").content.decode()
    assert 'id="push"' in page and "Turn on push notifications in this browser" in page
    assert f'data-push-remove="{sub.endpoint}"' in page
    assert "notify/push.js" in page
    for name in notify.PREF_OF_KIND.values():
        assert f'name="{name}"' in page


def test_the_table_page_offers_push_to_its_players_only(three_player_game, charlie):
    table = three_player_game
    seated = seat_users(table)[0]
    assert (
        'id="push-table"' in signed_in_client(seated).get(f"/tables/{table.pk}/").content.decode()
    )
    table.public = True
    table.save(update_fields=["public"])
    assert (
        'id="push-table"'
        not in signed_in_client(charlie).get(f"/tables/{table.pk}/").content.decode()
    )


def test_skipped_pushes_write_nothing_and_old_records_are_pruned(alice, receiver):
    assert notify.push_to_user(user_id=alice.pk, kind="turn", key="k", payload={}) == (
        "no subscription"
    )
    subscribe(alice, receiver.subscriber())
    presence.mark_looking(alice.pk, 7, True)
    assert notify.push_to_user(user_id=alice.pk, kind="turn", key="k", payload={}, table_id=7) == (
        "looking"
    )
    assert not PushSent.objects.exists()
    notify.push_to_user(user_id=alice.pk, kind="turn", key="k2", payload={"title": "t"})
    assert PushSent.objects.count() == 1
    PushSent.objects.update(created=timezone.now() - timedelta(days=31))
    assert notify.push_sent_prune() == 1
