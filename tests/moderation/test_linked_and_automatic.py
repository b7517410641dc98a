"""Linked accounts (keyed hashes of the address and of a long-lived browser cookie, kept 90
days), the moderators' message shown on the next sign-in, and the automatic reports (a chat
flood, timeouts in 3 games in 7 days)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services as games
from games.models import Move
from moderation import services
from moderation.models import Report, SignInTrace
from moderation.selectors import linked_accounts
from moderation.signin import BROWSER_COOKIE
from moderation.tasks import purge_sign_in_traces, report_timeouts
from tests.conftest import PASSWORD, make_moderator


def _sign_in(client: Client, username: str, address: str) -> None:
    page = client.post(
        "/accounts/login/", {"username": username, "password": PASSWORD}, REMOTE_ADDR=address
    )
    assert page.status_code == 302, page.content


def test_two_sign_ins_of_one_browser_link_the_accounts(alice, bob, carol):
    browser = Client()
    _sign_in(browser, "alice", "203.0.113.7")
    cookie = browser.cookies[BROWSER_COOKIE].value
    assert len(cookie) >= 16 and browser.cookies[BROWSER_COOKIE]["httponly"]
    browser.post("/accounts/logout/")
    _sign_in(browser, "bob", "198.51.100.9")  # another address, the same browser
    assert browser.cookies[BROWSER_COOKIE].value == cookie  # kept, not replaced
    _sign_in(Client(), "carol", "192.0.2.1")  # elsewhere entirely
    linked = linked_accounts(alice)
    assert [(link.user.username, link.kinds) for link in linked] == [("bob", ["same browser"])]
    assert [link.user.username for link in linked_accounts(bob)] == ["alice"]
    assert linked_accounts(carol) == []
    # Never the raw address or cookie: only keyed hashes.
    stored = list(SignInTrace.objects.values_list("digest", flat=True))
    assert stored and not any("203.0.113.7" in d or cookie in d for d in stored)
    assert all(len(d) == 64 for d in stored)


def test_one_address_links_too_and_traces_go_after_90_days(alice, bob):
    _sign_in(Client(), "alice", "203.0.113.7")
    _sign_in(Client(), "bob", "203.0.113.7")
    assert [(x.user.username, x.kinds) for x in linked_accounts(alice)] == [
        ("bob", ["same address"])
    ]
    SignInTrace.objects.filter(user=alice).update(last_seen=timezone.now() - timedelta(days=91))
    assert purge_sign_in_traces() == 2  # alice's address and browser
    assert linked_accounts(bob) == []


def test_the_member_reads_the_moderators_message_on_their_next_sign_in(bob, presets):
    boss = make_moderator("boss", "senior")
    preset = presets["Insults in chat"]
    services.user_mute(actor=boss, user=bob, duration=timedelta(hours=2), preset=preset)
    client = Client()
    landed = client.post(
        "/accounts/login/", {"username": "bob", "password": PASSWORD}, follow=True
    ).content.decode()
    assert preset.message in landed
    client.post("/accounts/logout/")
    again = client.post(
        "/accounts/login/", {"username": "bob", "password": PASSWORD}, follow=True
    ).content.decode()
    assert preset.message not in again  # shown once


def test_a_chat_flood_stopped_by_the_rate_limit_is_reported_once(
    three_player_game, bob, api_for, settings
):
    settings.MAYI_RATE_LIMITS = {**settings.MAYI_RATE_LIMITS, "chat": "3/60"}
    client = api_for(bob)
    answers = [
        client.post(f"/api/tables/{three_player_game.pk}/chat", {"text": f"spam {i}"}).status_code
        for i in range(6)
    ]
    assert answers.count(429) == 3
    report = Report.objects.get()
    assert report.automatic and report.reporter is None and report.reported_user == bob
    assert report.room == "chat" and report.reason == "spam"


def test_a_chat_flood_at_a_table_that_does_not_exist_is_refused_not_a_500(bob, api_for, settings):
    settings.MAYI_RATE_LIMITS = {**settings.MAYI_RATE_LIMITS, "chat": "1/60"}
    client = api_for(bob)
    answers = [client.post("/api/tables/999999/chat", {"text": "hi"}).status_code for _ in range(3)]
    assert answers[0] == 404 and answers[1:] == [429, 429]
    assert not Report.objects.exists()


def _expel(table_id: int, position: int, when) -> None:
    move = Move.objects.filter(table_id=table_id).order_by("seq").first()
    Move.objects.create(
        table_id=table_id,
        seq=10_000 + position,
        seat=None,
        action={"type": "timeout"},
        events=[{"type": "expelled", "seat": position}],
        version=move.version if move else 0,
    )
    Move.objects.filter(table_id=table_id, seq=10_000 + position).update(created=when)


@pytest.mark.parametrize("games_expelled, reported", [(2, False), (3, True)])
def test_timeouts_in_three_games_in_a_week_are_reported(
    alice, bob, carol, games_expelled, reported
):
    now = timezone.now()
    for _ in range(games_expelled):
        table = games.table_create(host=alice, seats=3, public=True)
        games.table_join(user=bob, table_id=table.pk)
        games.table_join(user=carol, table_id=table.pk)
        games.table_start(user=alice, table_id=table.pk, seed="s")
        position = table.seats.get(user=bob).position
        _expel(table.pk, position, now - timedelta(days=2))
    # An expulsion older than 7 days does not count.
    old = games.table_create(host=alice, seats=3, public=True)
    games.table_join(user=bob, table_id=old.pk)
    games.table_join(user=carol, table_id=old.pk)
    games.table_start(user=alice, table_id=old.pk, seed="s")
    _expel(old.pk, old.seats.get(user=bob).position, now - timedelta(days=9))
    assert report_timeouts() == (1 if reported else 0)
    assert report_timeouts() == 0  # one open case, not one per run
    if reported:
        report = Report.objects.get()
        assert report.reported_user == bob and report.automatic and report.room == "play"
        assert f"in {games_expelled} games" in report.note
