"""Trust on the table's pages (issue 29): the waiting room and the invite page give each
person's reliability, the pace and the join rule; a friend is invited from the waiting room;
a finished game's payload carries each person's rating change."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from social import selectors
from social import services as social
from stats.models import GameResult
from stats.ratings import display
from tests.conftest import signed_in_client

from .stats_helpers import finished_game, rounds
from .stats_play import play_game

pytestmark = pytest.mark.django_db


def test_the_waiting_room_gives_reliability_pace_rule_and_invites_a_friend(alice, bob, carol):
    for _ in range(5):
        finished_game([bob, carol], [rounds([10] * 7), rounds([20] * 7)])
    table = services.table_create(host=alice, seats=3, turn_seconds=120, min_reliability=0.5)
    services.table_join(user=bob, table_id=table.pk)
    social.follow_add(user=alice, username="carol")
    social.follow_add(user=carol, username="alice")
    page = signed_in_client(alice).get(f"/tables/{table.pk}/").content.decode()
    assert re.search(r'aria-describedby="rel-seat-1"[^>]*>.*100%</button>', page)
    pace = page.split('id="table-pace"', 1)[1].split("</p>", 1)[0]
    assert "fast: 2 min a turn" in pace and "“May I?” 1 h" in pace
    assert "finish 50% of their games or more" in pace
    # Follow bob from the table.
    assert 'action="/players/bob/relation/"' in page
    # carol, a friend not seated, can be invited from here.
    form = page.split('id="invite-friend"', 1)[1].split("</form>", 1)[0]
    assert '<option value="carol">' in form and "bob" not in form
    r = signed_in_client(alice).post(f"/tables/{table.pk}/invite/", {"username": "carol"})
    assert r.status_code == 302
    assert [i.table_id for i in selectors.invitations_for(carol)] == [table.pk]


def test_the_invite_page_gives_the_pace_and_the_players_reliability(alice, bob):
    finished_game([alice, bob], [rounds([10] * 7), rounds([20] * 7)])
    table = services.table_create(host=alice, seats=3, turn_seconds=3 * 86400, max_timeouts=2)
    page = Client().get(f"/join/{table.invite_code}/").content.decode()
    pace = page.split('id="invite-pace"', 1)[1].split("</p>", 1)[0]
    assert "3 days a turn" in pace and "at most 2 turns timed out" in pace
    players = page.split('id="invite-players"', 1)[1].split("</p>", 1)[0]
    assert "alice" in players and ">new</button>" in players
    assert "finished 1 of their last 1 game in their seat" in players


def test_a_finished_games_payload_has_each_persons_rating_change(alice, bob, api_for):
    table = play_game(alice, [bob], bots=1, seed="rating-changes")
    meta = api_for(alice).get(f"/api/tables/{table.pk}").json()["table"]
    changes = {r["user"]: r for r in meta["rating_changes"]}
    mine = GameResult.objects.get(table=table, user=alice)
    assert changes["alice"]["before"] == display(mine.mu_before)
    assert changes["alice"]["after"] == display(mine.mu_after)
    assert changes["alice"]["change"] == display(mine.mu_after) - display(mine.mu_before)
    assert set(changes) == {"alice", "bob"}
    # The first place never lost, the last never gained.
    winner = min(changes.values(), key=lambda r: table.state["places"][r["position"]])
    assert winner["change"] >= 0


def test_the_new_table_form_sets_the_join_rule(alice):
    client = signed_in_client(alice)
    form = client.get("/").content.decode()
    assert 'name="min_reliability"' in form and 'name="max_timeouts"' in form
    r = client.post(
        "/tables/new/",
        {
            "ruleset": "bga",
            "seats": 4,
            "turn_seconds": 86400,
            "window_seconds": 3600,
            "strikes": 3,
            "public": "on",
            "min_reliability": "0.8",
            "max_timeouts": "3",
        },
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    table = alice.hosted_tables.get()
    assert table.options["min_reliability"] == 0.8 and table.options["max_timeouts"] == 3
    # Left empty: anyone may join.
    client.post(
        "/tables/new/",
        {"ruleset": "bga", "seats": 3, "turn_seconds": 86400, "window_seconds": 3600, "strikes": 3},
    )
    other = alice.hosted_tables.exclude(pk=table.pk).get()
    assert "min_reliability" not in other.options and "max_timeouts" not in other.options


def test_follow_a_player_from_a_table_being_played(alice, bob):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="follow-at-table")
    client = signed_in_client(alice)
    side = client.get(f"/tables/{table.pk}/").content.decode().split('id="table-people"', 1)[1]
    side = side.split("</details>", 1)[0]
    assert 'action="/players/bob/relation/"' in side and 'value="follow"' in side
    r = client.post("/players/bob/relation/", {"action": "follow", "next": f"/tables/{table.pk}/"})
    assert r.url == f"/tables/{table.pk}/"
    assert selectors.is_following(alice, bob)
