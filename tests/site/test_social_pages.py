"""Friends and blocks on the pages (issue 29): follow or block from a player's statistics page,
unblock from it or from my friends page; my friends with who is online and their games to
watch; a player's reliability and their aborted games on their statistics page."""

from __future__ import annotations

import pytest
from django.test import Client

from games import presence, services
from moderation.services.tables import table_abort
from social import selectors
from social import services as social
from tests.conftest import signed_in_client

from .stats_helpers import finished_game, rounds

pytestmark = pytest.mark.django_db


def test_follow_then_block_then_unblock_from_the_players_page(alice, bob):
    client = signed_in_client(alice)
    page = client.get("/players/bob/").content.decode()
    assert 'value="follow"' in page and 'value="block"' in page
    r = client.post("/players/bob/relation/", {"action": "follow", "next": "/players/bob/"})
    assert r.status_code == 302 and r.url == "/players/bob/"
    assert selectors.is_following(alice, bob)
    page = client.get("/players/bob/").content.decode()
    assert 'value="unfollow"' in page
    client.post("/players/bob/relation/", {"action": "block", "next": "/players/bob/"})
    assert selectors.has_blocked(alice, bob)
    page = client.get("/players/bob/").content.decode()
    assert 'value="unblock"' in page and 'value="follow"' not in page
    client.post("/players/bob/relation/", {"action": "unblock", "next": "/players/bob/"})
    assert not selectors.has_blocked(alice, bob)
    # No buttons on my own page, nor for a visitor.
    assert 'value="follow"' not in client.get("/players/alice/").content.decode()
    assert 'value="follow"' not in Client().get("/players/bob/").content.decode()


def test_an_outside_next_is_not_followed(alice, bob):
    r = signed_in_client(alice).post(
        "/players/bob/relation/", {"action": "follow", "next": "https://evil.example/"}
    )
    assert r.url == "/players/bob/"


def test_my_friends_page_says_who_is_online_and_their_games_to_watch(alice, bob, carol):
    for a, b in ((alice, bob), (alice, carol)):
        social.follow_add(user=a, username=b.username)
        social.follow_add(user=b, username=a.username)
    social.block_add(user=alice, username="carol")
    table = services.table_create(host=bob, seats=3)
    services.table_fill_with_bots(user=bob, table_id=table.pk)
    services.table_start(user=bob, table_id=table.pk, seed="friends-watch")
    presence.mark_online(bob.pk)
    page = signed_in_client(alice).get("/friends/").content.decode()
    friends = page.split('id="friends"', 1)[1].split("</ul>", 1)[0]
    assert 'data-friend="bob"' in friends and "online now" in friends
    assert f"watch table #{table.pk}" in friends
    # carol, blocked, is no friend; she is in the blocked list, with an unblock button.
    assert "carol" not in friends
    blocked = page.split('id="blocked-list"', 1)[1].split("</ul>", 1)[0]
    assert "Unblock carol" in blocked


def test_the_players_page_gives_reliability_and_aborted_games(alice, bob, django_user_model):
    finished_game([alice, bob], [rounds([10] * 7, think_seconds=[[4.0]] * 7), rounds([20] * 7)])
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="aborted-page")
    staff = django_user_model.objects.create_user("mod", is_staff=True, is_superuser=True)
    table_abort(moderator=staff, table_id=table.pk, reason="the deal was broken")
    page = Client().get("/players/alice/").content.decode()
    line = page.split('id="reliability"', 1)[1].split("</p>", 1)[0]
    assert ">new</button>" in line
    assert "finished 1 of their last 1 game in their seat" in line
    assert "median time to move 4 s" in line
    aborted = page.split('id="aborted"', 1)[1].split("</section>", 1)[0]
    assert f"Table #{table.pk}" in aborted and "the deal was broken" in aborted


def test_every_page_header_leads_a_player_to_their_friends(alice):
    header = signed_in_client(alice).get("/").content.decode().split("</header>")[0]
    assert 'href="/friends/"' in header
    assert 'href="/friends/"' not in Client().get("/").content.decode().split("</header>")[0]
