"""Issue 26, points 12, 13, 14, 17, 18 (server side): the seats each ruleset allows, the
header's way in keeping an invitation, a full waiting room, my place and score in "My games",
the lobby's h1."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.engine import RULESETS
from games.forms import TableForm
from games.models import Seat
from tests.conftest import signed_in_client
from tests.site.stats_play import play_game

pytestmark = pytest.mark.django_db


def _seat_options(page: str) -> dict[int, list[str]]:
    select = page[page.index('name="seats"') : page.index("</select>", page.index('name="seats"'))]
    return {
        int(n): rs.split()
        for rs, n in re.findall(r'<option[^>]*data-rulesets="([^"]*)"[^>]*value="(\d+)"', select)
        + [
            (rs, n)
            for n, rs in re.findall(r'<option value="(\d+)"[^>]*data-rulesets="([^"]*)"', select)
        ]
    }


def test_each_seat_count_names_the_rulesets_the_engine_lets_play_with_it(alice):
    options = _seat_options(signed_in_client(alice).get("/").content.decode())
    assert options, "the seats menu marks no option"
    for seats, rulesets in options.items():
        for name, rules in RULESETS.items():
            assert (name in rulesets) == (rules.min_players <= seats <= rules.max_players)
    # 2 seats: only the ruleset that plays with 2 (rook), never bga.
    assert options[2] == ["rook"] and "bga" in options[3]


def test_a_seat_count_the_ruleset_refuses_is_a_form_error_naming_its_range(alice):
    form = TableForm(
        data={"ruleset": "bga", "seats": 2, "turn_seconds": 3600, "window_seconds": 3600}
        | {"strikes": 3}
    )
    assert not form.is_valid()
    assert "for 3 to 8 players" in form.errors["seats"][0]
    response = signed_in_client(alice).post(
        "/tables/new/",
        {"ruleset": "bga", "seats": 2, "turn_seconds": 3600, "window_seconds": 3600, "strikes": 3},
    )
    assert response.status_code == 400 and "for 3 to 8 players" in response.content.decode()


def test_the_rules_page_names_each_ruleset_s_own_range():
    page = Client().get("/rules/").content.decode()
    for name, rules in RULESETS.items():
        card = page[page.index(f"<code>{name}</code>") :]
        card = card[: card.index("</li>")]
        assert f"{rules.min_players} to {rules.max_players} players" in card, name
    assert "for 2 to 8 players in" not in page


def test_the_header_s_way_in_keeps_the_invitation(alice):
    table = services.table_create(host=alice, seats=3, public=False)
    invite = f"/join/{table.invite_code}/"
    page = Client().get(invite).content.decode()
    header = page[page.index('<header class="top">') : page.index("</header>")]
    assert f'href="/accounts/signup/?next={invite}"' in header
    assert f'href="/accounts/login/?next={invite}"' in header
    # On the login page the header's "Sign up" carries the invitation it was given.
    login = Client().get(f"/accounts/login/?next={invite}").content.decode()
    header = login[login.index('<header class="top">') : login.index("</header>")]
    assert f'href="/accounts/signup/?next={invite}"' in header
    # Off-site targets are never carried; the home page needs none.
    hostile = Client().get("/accounts/login/?next=https://evil.example/").content.decode()
    assert "evil.example" not in hostile[: hostile.index("</header>")]
    home = Client().get("/").content.decode()
    assert 'href="/accounts/signup/"' in home[: home.index("</header>")]


def test_a_full_waiting_room_says_it_waits_for_the_host(alice, bob, carol):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    page = signed_in_client(bob).get(f"/tables/{table.pk}/").content.decode()
    assert "Waiting for players (2/3)" in page
    services.table_join(user=carol, table_id=table.pk)
    for user, words in ((bob, "waiting for alice to start the game"), (alice, "start the game")):
        page = signed_in_client(user).get(f"/tables/{table.pk}/").content.decode()
        assert "Waiting for players" not in page
        assert "The table is full (3/3)" in page and words in page


def test_my_finished_games_say_my_place_and_score(alice, bob):
    table = play_game(alice, [bob], bots=1, seed="lobby-result")
    places, totals = table.state["places"], table.state["totals"]
    for user in (alice, bob):
        me = Seat.objects.get(table=table, user=user).position
        entry = next(e for e in services.lobby_for_user(user=user).mine if e.table.pk == table.pk)
        assert entry.result.startswith(f"{places[me]}")
        assert entry.result.endswith(f"of 3 · {totals[me]} points")
        page = signed_in_client(user).get("/").content.decode()
        row = page[page.index(f'data-table="{table.pk}"') :]
        assert f'<span class="result">{entry.result}</span>' in row[: row.index("</li>")]


def test_the_lobby_has_one_h1(alice):
    for client in (signed_in_client(alice), Client()):
        page = client.get("/").content.decode()
        assert len(re.findall(r"<h1[ >]", page)) == 1
