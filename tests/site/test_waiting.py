"""The "your games" count (issue 26 point 15, issue 28): ``GET /api/me/waiting`` and the
header of every page say how many games wait on me, by the lobby's own marks."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Seat, Table
from games.services.lobby import MAY_I_OPEN, YOUR_TURN
from tests.conftest import signed_in_client
from tests.site.test_lobby import _play_now_with, _table_waiting_on

pytestmark = pytest.mark.django_db


def test_the_count_is_the_lobby_s_marked_games_and_nothing_else(alice, bob, api_for):
    my_turn = _play_now_with(alice, YOUR_TURN)
    window = _play_now_with(alice, MAY_I_OPEN)
    bobs_turn = _table_waiting_on(alice, bob, seat=1)
    services.table_create(host=alice, seats=4)  # open: waits on nobody

    body = api_for(alice).get("/api/me/waiting").json()
    assert body == {"count": 2, "tables": sorted([my_turn.pk, window.pk])}
    marked = sorted(e.table.pk for e in services.lobby_for_user(user=alice).mine if e.mark)
    assert body["tables"] == marked
    assert api_for(bob).get("/api/me/waiting").json() == {"count": 1, "tables": [bobs_turn.pk]}


def test_an_expelled_seat_and_a_finished_game_wait_on_nobody(alice, api_for):
    expelled = _play_now_with(alice, YOUR_TURN)
    Seat.objects.filter(table=expelled, user=alice).update(expelled=True)
    over = _play_now_with(alice, YOUR_TURN)
    Table.objects.filter(pk=over.pk).update(status=Table.Status.FINISHED)
    assert api_for(alice).get("/api/me/waiting").json() == {"count": 0, "tables": []}


def test_the_count_is_one_query_however_many_games(alice, api_for):
    for _ in range(3):
        _play_now_with(alice, YOUR_TURN)
    with CaptureQueriesContext(connection) as few:
        assert services.tables_waiting_on(user=alice)
    for _ in range(5):
        _play_now_with(alice, YOUR_TURN)
    with CaptureQueriesContext(connection) as many:
        assert len(services.tables_waiting_on(user=alice)) == 8
    assert len(few) == len(many) == 1


def test_signed_out_the_api_refuses_and_pages_show_no_badge():
    response = Client().get("/api/me/waiting")
    assert response.status_code == 401 and response.json()["error"]["code"]
    for path in ("/", "/rules/", "/leaderboard/"):
        page = Client().get(path).content.decode()
        assert 'id="your-games"' not in page, path


def test_every_page_s_header_counts_the_games_waiting_on_me(alice, bob):
    my_turn = _play_now_with(alice, YOUR_TURN)
    client = signed_in_client(alice)
    for path in ("/", "/rules/", "/leaderboard/", f"/tables/{my_turn.pk}/", "/accounts/profile/"):
        page = client.get(path).content.decode()
        assert 'id="your-games"' in page and 'data-count="1"' in page, path
        assert 'href="/#my-games"' in page
    # bob has no game waiting: the badge is there, its number hidden.
    page = signed_in_client(bob).get("/rules/").content.decode()
    assert 'data-count="0"' in page and 'class="your-games"' in page
