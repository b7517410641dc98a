"""Hidden until over: while my table plays a duplicate deal, the other tables of that deal are
closed to me (their page, API, log, replay and socket: 403 / 4403), and open once mine ends;
spectators of the tournament may watch them."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services as games
from games.models import Seat
from tests.live.wsutil import (  # noqa: F401 (close_db_pools: a fixture)
    TIMEOUT,
    close_db_pools,
    communicator,
    refused_code,
    run,
    session_for,
)
from tests.site.tournament_helpers import players, started
from tournaments.models import RoundTable


def _two_tables(django_user_model, api_for):
    users = players(django_user_model, 6)
    tournament = started(api_for, users)
    first, second = RoundTable.objects.filter(round__tournament=tournament).order_by("number")
    mine = Seat.objects.filter(table=first.table, user__isnull=False).first().user
    return users, first.table_id, second.table_id, mine


def _browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_other_tables_of_my_deal_are_closed_while_mine_plays(db, django_user_model, api_for):
    users, mine_id, other_id, me = _two_tables(django_user_model, api_for)
    api = api_for(me)
    for path in (f"/api/tables/{other_id}", f"/api/tables/{other_id}/log"):
        refused = api.get(path)
        assert refused.status_code == 403, path
        assert refused.json()["error"]["code"] == "deal_in_play"
    page = _browser(me).get(f"/tables/{other_id}/")
    assert page.status_code == 403
    # The other table ends first: its replay (every hand) stays closed to me.
    games.table_finish_by_bots(table_id=other_id)
    replay = _browser(me).get(f"/tables/{other_id}/replay/")
    assert replay.status_code == 403 and b"still playing this deal" in replay.content
    frames = _browser(me).get(f"/api/tables/{other_id}/replay")
    assert frames.status_code == 403 and frames.json()["error"]["code"] == "deal_in_play"
    # Signed out (or with a bearer token, which that route does not read) no player hides:
    # nobody anonymous sees a table of a deal still being played at another table.
    for path in (f"/api/tables/{other_id}/replay", f"/tables/{other_id}/replay/"):
        assert Client().get(path).status_code == 403, path
        assert api.get(path).status_code == 403, path
    # My own table is mine as ever.
    assert api.get(f"/api/tables/{mine_id}").status_code == 200
    # Once mine ends, the deal's other table opens to me: page, API and replay.
    games.table_finish_by_bots(table_id=mine_id)
    assert api.get(f"/api/tables/{other_id}").status_code == 200
    assert _browser(me).get(f"/tables/{other_id}/").status_code == 200
    assert _browser(me).get(f"/tables/{other_id}/replay/").status_code == 200
    assert _browser(me).get(f"/api/tables/{other_id}/replay").status_code == 200
    # Every table of the deal has ended: open to anyone, as any finished public game.
    assert Client().get(f"/api/tables/{other_id}/replay").status_code == 200


def test_spectators_of_the_tournament_may_watch(db, django_user_model, api_for):
    users, mine_id, other_id, me = _two_tables(django_user_model, api_for)
    watcher = django_user_model.objects.create_user("watcher", "", "pw")
    for table_id in (mine_id, other_id):
        answer = api_for(watcher).get(f"/api/tables/{table_id}")
        assert answer.status_code == 200
        assert answer.json()["view"]["hand"] is None  # a spectator's view
        assert _browser(watcher).get(f"/tables/{table_id}/").status_code == 200


def test_the_deal_page_shows_the_tables_side_by_side_after_the_round(
    db, django_user_model, api_for
):
    users, mine_id, other_id, me = _two_tables(django_user_model, api_for)
    tid = RoundTable.objects.get(table_id=mine_id).round.tournament_id
    url = f"/tournaments/{tid}/rounds/1/deal/3/"
    closed = _browser(me).get(url).content.decode()
    assert "still playing this deal" in closed or "not finished" in closed
    games.table_finish_by_bots(table_id=mine_id)
    games.table_finish_by_bots(table_id=other_id)
    page = _browser(me).get(url + "?round=1&step=0").content.decode()
    assert page.count('class="card deal-pane"') == 2 and "refused" not in page
    # At the deal, seat by seat the same cards at both tables.
    mine = page.split('data-table="')[1]
    other = page.split('data-table="')[2]
    cards = [part.split('class="cards">')[1].split("</div>")[0] for part in (mine, other)]
    assert cards[0] == cards[1] and "card-face" in cards[0]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_db_pools")
def test_the_socket_of_another_table_of_my_deal_is_refused(django_user_model, api_for):
    users, mine_id, other_id, me = _two_tables(django_user_model, api_for)
    key = session_for(me)

    async def scenario() -> None:
        refused = communicator(other_id, key)
        connected, _ = await refused.connect(timeout=TIMEOUT)
        assert connected
        assert await refused_code(refused) == 4403
        own = communicator(mine_id, key)
        await own.connect(timeout=TIMEOUT)
        frame = await own.receive_json_from(timeout=TIMEOUT)
        assert frame["type"] == "table"
        await own.disconnect()

    run(scenario)


def test_games_to_watch_leave_out_the_other_tables_of_my_deal(db, django_user_model, api_for):
    users, mine_id, other_id, me = _two_tables(django_user_model, api_for)
    watched = [t.pk for t in games.table_list_for_user(user=me, to_watch=True)]
    assert mine_id in watched and other_id not in watched
    watcher = django_user_model.objects.create_user("watcher", "", "pw")
    assert {mine_id, other_id} <= {
        t.pk for t in games.table_list_for_user(user=watcher, to_watch=True)
    }
    games.table_finish_by_bots(table_id=mine_id)
    # Mine ended (it stays among my games); the other table is one to watch now.
    assert other_id in [t.pk for t in games.table_list_for_user(user=me, to_watch=True)]
