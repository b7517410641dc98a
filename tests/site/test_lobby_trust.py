"""The lobby with trust (issue 29): the pace in words on every entry, filters by ruleset, pace
and seats free, friends' tables first, no table of a blocked player, no full table offered,
an aborted game in My games with its reason, invitations, reliability beside the names."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Table
from games.services.pace import duration, pace_words
from moderation.services.tables import table_abort
from social import services as social
from tests.conftest import signed_in_client

from .stats_helpers import finished_game, rounds

pytestmark = pytest.mark.django_db


def open_ids(html: str) -> list[int]:
    section = (
        html.split('id="open-tables"', 1)[1].split("</ul>", 1)[0] if "open-tables" in html else ""
    )
    return [int(n) for n in re.findall(r'data-table="(\d+)"', section)]


def test_pace_in_words():
    assert pace_words(86400) == "1 day a turn"
    assert pace_words(120) == "fast: 2 min a turn"
    assert pace_words(3 * 86400) == "3 days a turn"
    assert pace_words(3600) == "1 h a turn"
    assert duration(30) == "30 s"


def test_every_entry_says_its_pace_and_carries_its_clocks(alice, bob, api_for):
    table = services.table_create(host=bob, seats=3, turn_seconds=120, window_seconds=30)
    html = signed_in_client(alice).get("/").content.decode()
    entry = html.split(f'data-table="{table.pk}"', 1)[1].split("</li>", 1)[0]
    assert 'data-turn-seconds="120"' in entry and 'data-window-seconds="30"' in entry
    assert "fast: 2 min a turn" in entry and "“May I?” 30 s" in entry
    listed = {t["id"]: t for t in api_for(alice).get("/api/tables").json()["tables"]}
    assert listed[table.pk]["turn_seconds"] == 120 and listed[table.pk]["window_seconds"] == 30


def test_filters_by_ruleset_pace_and_seats_free(alice, bob, carol, api_for):
    fast = services.table_create(host=bob, seats=3, turn_seconds=300)
    daily = services.table_create(host=bob, seats=4, turn_seconds=86400)
    slow = services.table_create(host=carol, seats=3, turn_seconds=3 * 86400, ruleset="petras")
    client = signed_in_client(alice)
    assert set(open_ids(client.get("/lobby/").content.decode())) == {fast.pk, daily.pk, slow.pk}
    assert open_ids(client.get("/lobby/?pace=fast").content.decode()) == [fast.pk]
    assert open_ids(client.get("/lobby/?pace=day").content.decode()) == [daily.pk]
    assert open_ids(client.get("/lobby/?pace=slow").content.decode()) == [slow.pk]
    assert open_ids(client.get("/lobby/?ruleset=petras").content.decode()) == [slow.pk]
    # daily has 3 seats free, the others 2.
    assert open_ids(client.get("/lobby/?seats=3").content.decode()) == [daily.pk]
    # The home page filters the same, with the form showing the choice.
    home = client.get("/?pace=fast&seats_free=2").content.decode()
    assert open_ids(home) == [fast.pk]
    assert re.search(r'<option value="fast" selected>', home)
    assert re.search(r'<option value="2" selected>at least 2</option>', home)
    assert 'data-refresh="/lobby/?pace=fast&amp;seats_free=2"' in home
    # Nonsense is no filter.
    assert len(open_ids(client.get("/lobby/?pace=warp&seats=x").content.decode())) == 3
    # The API the same.
    ids = [t["id"] for t in api_for(alice).get("/api/tables?pace=fast").json()["tables"]]
    assert ids == [fast.pk]


def test_a_full_rematch_table_is_never_in_others_open_tables(alice, bob, carol):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    full = Table.objects.create(
        ruleset="bga", options=dict(table.options), invite_code="full-one", host=alice
    )
    for position, user in enumerate([alice, bob, None]):
        full.seats.create(position=position, user=user, is_bot=user is None)
    ids = open_ids(signed_in_client(carol).get("/lobby/").content.decode())
    assert table.pk in ids and full.pk not in ids


def test_i_am_not_offered_the_tables_of_a_player_i_blocked_nor_they_mine(alice, bob, carol):
    theirs = services.table_create(host=bob, seats=3)
    mine = services.table_create(host=alice, seats=3)
    social.block_add(user=alice, username="bob")
    assert theirs.pk not in open_ids(signed_in_client(alice).get("/lobby/").content.decode())
    assert mine.pk not in open_ids(signed_in_client(bob).get("/lobby/").content.decode())
    assert theirs.pk in open_ids(signed_in_client(carol).get("/lobby/").content.decode())


def test_my_friends_tables_come_first(alice, bob, carol):
    friend = services.table_create(host=bob, seats=3)
    services.table_create(host=carol, seats=3)  # newer: first without friends
    social.follow_add(user=alice, username="bob")
    html = signed_in_client(alice).get("/lobby/").content.decode()
    assert open_ids(html)[0] != friend.pk
    social.follow_add(user=bob, username="alice")
    html = signed_in_client(alice).get("/lobby/").content.decode()
    assert open_ids(html)[0] == friend.pk
    assert "friend here: bob" in html


def test_an_invitation_shows_on_the_friends_lobby(alice, bob):
    social.follow_add(user=alice, username="bob")
    social.follow_add(user=bob, username="alice")
    table = services.table_create(host=alice, seats=3, public=False)
    social.invitation_send(user=alice, table_id=table.pk, username="bob")
    html = signed_in_client(bob).get("/lobby/").content.decode()
    assert 'id="invitations"' in html and f"table #{table.pk}" in html
    assert "alice</a> invites you" in html


def test_an_aborted_game_is_in_my_games_with_the_reason(alice, bob, django_user_model):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="abort")
    staff = django_user_model.objects.create_user("mod", is_staff=True, is_superuser=True)
    table_abort(moderator=staff, table_id=table.pk, reason="a bug dealt two hands")
    html = signed_in_client(bob).get("/lobby/").content.decode()
    mine = html.split('id="my-games"', 1)[1].split("</ul>", 1)[0]
    assert f'data-table="{table.pk}"' in mine
    assert "aborted by a moderator: a bug dealt two hands" in mine


def test_reliability_beside_each_name_with_its_counts(alice, bob, carol):
    for _ in range(5):
        finished_game([bob, carol], [rounds([10] * 7), rounds([20] * 7)])
    table = services.table_create(host=bob, seats=3)
    html = signed_in_client(alice).get("/lobby/").content.decode()
    entry = html.split(f'data-table="{table.pk}"', 1)[1].split("</li>", 1)[0]
    assert re.search(r'aria-describedby="rel-\d+-0"[^>]*>.*100%</button>', entry)
    assert "finished 5 of their last 5 games in their seat" in entry
    assert 'role="tooltip"' in entry


def test_the_home_page_has_no_duplicate_ids_and_each_filter_label_names_its_own_field(alice):
    # The filters sit on the page beside the new-table form, which has its own ruleset and
    # seats fields: shared ids sent a click on the filter's label to the other form's select.
    home = signed_in_client(alice).get("/").content.decode()
    ids = re.findall(r'\sid="([^"]+)"', home)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert '<label for="filter_ruleset">' in home and 'id="filter_ruleset"' in home
    assert 'name="ruleset" id="filter_ruleset"' in home and 'name="ruleset" id="id_ruleset"' in home
