"""The lobby and the way in: "Play now", my games waiting on me first, invite links through
sign-up and login, the create form's folded options."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import engine, services
from games.engine.legal import answerers
from games.models import Seat, Table
from games.services.lobby import MAY_I_OPEN, YOUR_TURN
from tests.conftest import PASSWORD, signed_in_client
from tests.engine.helpers import make_state

pytestmark = pytest.mark.django_db


def test_play_now_is_one_post_to_a_started_table_with_bots(alice):
    client = signed_in_client(alice)
    response = client.post("/play/")
    table = Table.objects.get()
    assert response.status_code == 302 and response.url == f"/tables/{table.pk}/"
    assert table.status == Table.Status.PLAYING and not table.public
    seats = list(table.seats.order_by("position"))
    assert [s.user_id for s in seats] == [alice.pk, None, None, None]
    assert all(s.is_bot for s in seats[1:])
    # Clocks made for play against bots: a window of seconds, a generous turn clock.
    assert table.options["window_seconds"] == services.PLAY_NOW_WINDOW_SECONDS == 20
    assert table.options["turn_seconds"] >= 3600
    # The bots have played until the game waits on the person.
    assert 0 in engine.seats_to_act(table.state)
    # The table page opens on the game.
    assert client.get(response.url).status_code == 200


def test_play_now_by_get_shows_the_button_and_creates_nothing(alice):
    page = signed_in_client(alice).get("/play/").content.decode()
    assert 'id="play-now"' in page and Table.objects.count() == 0
    assert Client().get("/play/").status_code == 302  # to the login page, next=/play/


def test_play_now_over_the_api(alice, api_for):
    api = api_for(alice)
    response = api.client.post(
        "/api/tables/play-now", b"", content_type="application/json"
    )  # no body at all, as curl -X POST sends
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["table"]["status"] == "playing" and body["table"]["my_seat"] == 0
    assert body["table"]["window_seconds"] == services.PLAY_NOW_WINDOW_SECONDS
    assert body["view"]["hand"]
    response = api.post("/api/tables/play-now", {"seats": 3, "ruleset": "petras"})
    assert response.status_code == 201 and response.json()["table"]["seats_total"] == 3
    refused = api.post("/api/tables/play-now", {"seats": 30})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_options"
    assert Client().post("/api/tables/play-now").status_code == 401


def _table_waiting_on(user, other, *, seat: int) -> Table:
    """A started table of user, other and a bot where the game waits on ``seat`` only."""
    for n in range(60):
        table = services.table_create(host=user, seats=3)
        services.table_join(user=other, table_id=table.pk)
        services.table_fill_with_bots(user=user, table_id=table.pk)
        services.table_start(user=user, table_id=table.pk, seed=f"lobby-{n}")
        table.refresh_from_db()
        if engine.seats_to_act(table.state) == [seat]:
            return table
        table.delete()
    raise AssertionError("no seed gave the wanted turn")


def _play_now_with(user, mark: str) -> Table:
    for n in range(60):
        table = services.table_play_now(user=user, seed=f"mark-{n}")
        window = table.state["window"] is not None and 0 in answerers(table.state)
        if window == (mark == MAY_I_OPEN):
            return table
        table.delete()
    raise AssertionError(f"no seed gave {mark}")


def test_my_games_lists_the_tables_waiting_on_me_first_and_marks_them(alice, bob):
    waiting_turn = _play_now_with(alice, YOUR_TURN)
    waiting_window = _play_now_with(alice, MAY_I_OPEN)
    bobs_turn = _table_waiting_on(alice, bob, seat=1)
    open_table = services.table_create(host=alice, seats=4)
    # The two waiting on alice are the oldest changes: they still come first.
    old = timezone.now() - timedelta(hours=5)
    Table.objects.filter(pk__in=[waiting_turn.pk, waiting_window.pk]).update(updated=old)

    lobby = services.lobby_for_user(user=alice)
    order = [e.table.pk for e in lobby.mine]
    assert set(order[:2]) == {waiting_turn.pk, waiting_window.pk}
    assert order[2:] == [bobs_turn.pk, open_table.pk]
    marks = {e.table.pk: e.mark_label for e in lobby.mine}
    assert marks[waiting_turn.pk] == "your turn"
    assert marks[waiting_window.pk] == "May I? open"
    assert marks[bobs_turn.pk] == "" and marks[open_table.pk] == ""

    page = signed_in_client(alice).get("/").content.decode()
    first = page.index(f'data-table="{order[0]}"')
    assert (
        first
        < page.index(f'data-table="{bobs_turn.pk}"')
        < page.index(f'data-table="{open_table.pk}"')
    )
    assert "your turn" in page and "May I? open" in page
    assert re.search(r"last move <time[^>]*>5(&nbsp;|\s)hours ago", page)
    # bob sees the same table marked for him.
    bob_lobby = services.lobby_for_user(user=bob)
    assert [e.mark for e in bob_lobby.mine if e.table.pk == bobs_turn.pk] == [YOUR_TURN]


def test_a_long_game_stays_in_my_games_after_many_quick_ones(alice, bob, api_for):
    # The lobby cut every table at the 100 newest: a game started weeks ago, still waiting on
    # alice, left "My games" (and GET /api/tables) once she had played 100 quick games since.
    long_game = _table_waiting_on(alice, bob, seat=0)
    Table.objects.filter(pk=long_game.pk).update(created=timezone.now() - timedelta(days=21))
    quick = [
        Table(ruleset="bga", status=Table.Status.FINISHED, invite_code=f"quick{i}", host=alice)
        for i in range(105)
    ]
    Table.objects.bulk_create(quick)
    quick = list(Table.objects.filter(invite_code__startswith="quick").order_by("pk"))
    Seat.objects.bulk_create(Seat(table=t, position=0, user=alice) for t in quick)
    # The newest finished: each an hour after the one before.
    for i, t in enumerate(quick):
        Table.objects.filter(pk=t.pk).update(updated=timezone.now() - timedelta(hours=200 - i))

    lobby = services.lobby_for_user(user=alice)
    mine = [e.table.pk for e in lobby.mine]
    assert mine[0] == long_game.pk and lobby.mine[0].mark == YOUR_TURN
    # The finished ones: the 10 that ended last, newest first; the rest are on her statistics.
    assert mine[1:] == [t.pk for t in reversed(quick[-10:])]
    page = signed_in_client(alice).get("/").content.decode()
    assert f'data-table="{long_game.pk}"' in page
    assert 'href="/players/alice/#history"' in page
    listed = {t["id"] for t in api_for(alice).get("/api/tables").json()["tables"]}
    assert long_game.pk in listed and len(listed) == 11


def test_the_lobby_lists_alone_for_a_lobby_left_open(alice, bob):
    # The home page's lists, fetched again by static/js/lobby.js: the same entries and marks.
    mine = _table_waiting_on(alice, bob, seat=0)
    open_table = services.table_create(host=bob, seats=4)
    response = signed_in_client(alice).get("/lobby/")
    assert response.status_code == 200 and "no-cache" in response["Cache-Control"]
    html = response.content.decode()
    assert f'data-table="{mine.pk}" data-mark="{YOUR_TURN}"' in html
    assert f"/tables/{open_table.pk}/join/" in html
    assert "<html" not in html and "New table" not in html  # the lists, not the page
    home = signed_in_client(alice).get("/").content.decode()
    assert 'id="lobby-lists" data-refresh="/lobby/"' in home
    # Signed out: the open tables only.
    visitor = Client().get("/lobby/").content.decode()
    assert "My games" not in visitor and f"/tables/{open_table.pk}/" in visitor
    assert signed_in_client(alice).post("/lobby/").status_code == 405


def _started(host, guest, *, public: bool = True) -> Table:
    table = services.table_create(host=host, seats=3, public=public)
    services.table_join(user=guest, invite_code=table.invite_code)
    services.table_fill_with_bots(user=host, table_id=table.pk)
    services.table_start(user=host, table_id=table.pk, seed=f"watch-{table.pk}")
    return table


def test_public_games_being_played_are_offered_to_watch(alice, bob, carol):
    # A player with no game of their own saw nothing being played: the site looked empty, and
    # a friend's game was found only by its number.
    older = _started(bob, carol)
    private = _started(bob, carol, public=False)
    mine = _started(alice, bob)
    newer = _started(carol, bob)
    finished = _started(bob, carol)
    Table.objects.filter(pk=finished.pk).update(status=Table.Status.FINISHED)
    open_table = services.table_create(host=bob, seats=4)
    Table.objects.filter(pk=older.pk).update(updated=timezone.now() - timedelta(hours=1))
    page = signed_in_client(alice).get("/").content.decode()
    watch = page[page.index('id="games-to-watch"') :]
    watch = watch[: watch.index("</ul>")]
    listed = [int(t) for t in re.findall(r'data-table="(\d+)"', watch)]
    # The latest move first; not mine, not private, not finished, not waiting for players.
    assert listed == [newer.pk, older.pk]
    assert private.pk not in listed and mine.pk not in listed and finished.pk not in listed
    assert f'<a class="watch-link" href="/tables/{newer.pk}/">watch</a>' in watch
    assert "round 1 of 7" in watch and "Join" not in watch
    assert f"/tables/{open_table.pk}/join/" in page
    # The spectator's page it leads to.
    assert signed_in_client(alice).get(f"/tables/{newer.pk}/").status_code == 200
    # Nothing to watch for a visitor who is not signed in (the table page needs an account),
    # nor for a player who sits at every game being played.
    assert "Games to watch" not in Client().get("/").content.decode()
    Table.objects.filter(pk__in=[older.pk, newer.pk]).delete()
    assert "Games to watch" not in signed_in_client(alice).get("/").content.decode()


def test_open_public_tables_to_join_and_my_invite_link_with_a_copy_button(alice, bob):
    table = services.table_create(host=alice, seats=4)
    private = services.table_create(host=alice, seats=3, public=False)
    bob_page = signed_in_client(bob).get("/").content.decode()
    assert f"/tables/{table.pk}/join/" in bob_page and f"/tables/{private.pk}/" not in bob_page
    alice_page = signed_in_client(alice).get("/").content.decode()
    link = f"http://testserver/join/{private.invite_code}/"
    assert f'data-copy="{link}"' in alice_page
    assert f"/tables/{table.pk}/join/" not in alice_page  # her own table: no "Join"


def test_an_invite_link_survives_sign_up(alice):
    table = services.table_create(host=alice, seats=3, public=False)
    invite = f"/join/{table.invite_code}/"
    visitor = Client()
    page = visitor.get(invite)
    assert page.status_code == 200
    signup_link = f"/accounts/signup/?next={invite}"
    assert signup_link in page.content.decode()
    form = visitor.get(signup_link).content.decode()
    assert f'name="next" value="{invite}"' in form
    response = visitor.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": invite,
        },
    )
    assert response.status_code == 302 and response.url == invite
    assert "Take a seat" in visitor.get(invite).content.decode()


def test_an_invite_link_survives_login(alice, bob):
    table = services.table_create(host=alice, seats=3, public=False)
    invite = f"/join/{table.invite_code}/"
    visitor = Client()
    login_link = f"/accounts/login/?next={invite}"
    assert login_link in visitor.get(invite).content.decode()
    form = visitor.get(login_link).content.decode()
    assert f'name="next" value="{invite}"' in form
    # From the login page to the sign-up page, the invite still goes along.
    assert f"/accounts/signup/?next={invite}" in form
    response = visitor.post(
        "/accounts/login/", {"username": "bob", "password": PASSWORD, "next": invite}
    )
    assert response.status_code == 302 and response.url == invite


def test_sign_up_never_redirects_off_site():
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "eve",
            "email": "eve@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
    )
    assert response.status_code == 302 and response.url == "/"


def test_the_create_form_folds_its_advanced_options_and_marks_ruleset_options(alice):
    page = signed_in_client(alice).get("/").content.decode()
    details = page[page.index('<details id="advanced"') : page.index("</details>")]
    assert 'name="turn_seconds"' in details and 'name="window_seconds"' in details
    assert 'data-rulesets="rook"' in details and 'name="round7"' in details
    assert 'name="ruleset"' not in details and 'name="seats"' not in details
    # The lobby checkbox's label follows the box: no colon, as if a field came next.
    assert re.search(
        r'name="public"[^>]*>\s*<label for="id_public">Listed in the lobby</label>', page
    )
    # The server ignores another ruleset's option anyway.
    client = signed_in_client(alice)
    client.post(
        "/tables/new/",
        {
            "ruleset": "bga",
            "seats": 4,
            "turn_seconds": 3600,
            "window_seconds": 3600,
            "strikes": 3,
            "round7": "books",
        },
    )
    assert Table.objects.get().options["engine"] == {}


def test_the_signed_out_home_page_shows_the_game_and_the_way_in():
    page = Client().get("/").content.decode()
    assert "img/table.svg" in page and "Play now against bots" in page
    assert "/accounts/signup/?next=/play/" in page and "/accounts/login/" in page
    assert 'rel="icon"' in page and "favicon.svg" in page


def test_play_now_plays_against_the_bot_level_i_choose(alice, api_for):
    page = signed_in_client(alice).get("/").content.decode()
    assert 'name="level" value="strong"' in page and "checked" in page
    response = signed_in_client(alice).post("/play/", {"level": "strong"})
    table = Table.objects.get()
    assert response.url == f"/tables/{table.pk}/"
    assert {s.bot_level for s in table.seats.filter(is_bot=True)} == {"strong"}
    # "My games" says how well the bots of each table play.
    lobby = signed_in_client(alice).get("/").content.decode()
    # Each bot named by its seat, as the table page names it.
    for n in (2, 3, 4):
        assert f'Bot {n} <span class="level-tag">(strong)</span>' in lobby
    # Without a choice: normal; a level that does not exist makes no table.
    signed_in_client(alice).post("/play/")
    assert {s.bot_level for s in Table.objects.latest("pk").seats.filter(is_bot=True)} == {"normal"}
    response = signed_in_client(alice).post("/play/", {"level": "godlike"}, follow=True)
    assert (
        Table.objects.count() == 2 and "easy, normal, strong or expert" in response.content.decode()
    )
    # The API takes the same choice.
    body = api_for(alice).post("/api/tables/play-now", {"level": "easy"}).json()
    levels = {s["bot_level"] for s in body["table"]["seats"] if s["is_bot"]}
    assert levels == {"easy"}


def test_the_create_form_s_bot_level_fills_the_empty_seats(alice):
    client = signed_in_client(alice)
    form = {"ruleset": "bga", "seats": 3, "turn_seconds": 3600, "window_seconds": 3600}
    client.post("/tables/new/", {**form, "strikes": 3, "bot_level": "easy"})
    table = Table.objects.get()
    assert table.options["bot_level"] == "easy"
    page = client.get(f"/tables/{table.pk}/").content.decode()
    # The table page's fill form starts at the table's level; a bare POST keeps it.
    assert re.search(r'value="easy"[^>]*checked', page)
    client.post(f"/tables/{table.pk}/bots/")
    assert {s.bot_level for s in table.seats.filter(is_bot=True)} == {"easy"}
    assert (
        'Bot 2 <span class="level-tag">(easy)</span>'
        in client.get(f"/tables/{table.pk}/").content.decode()
    )


def test_filling_seats_at_another_level_than_the_table_s(alice):
    client = signed_in_client(alice)
    client.post(
        "/tables/new/",
        {"ruleset": "bga", "seats": 3, "turn_seconds": 3600, "window_seconds": 3600, "strikes": 3},
    )
    table = Table.objects.get()
    assert table.options["bot_level"] == "normal"
    response = client.post(f"/tables/{table.pk}/bots/", {"level": "silly"}, follow=True)
    assert not table.seats.filter(is_bot=True).exists()
    assert "easy, normal, strong or expert" in response.content.decode()
    client.post(f"/tables/{table.pk}/bots/", {"level": "strong"})
    assert {s.bot_level for s in table.seats.filter(is_bot=True)} == {"strong"}


def test_my_games_say_the_round_and_whom_a_game_waits_on(alice, bob):
    # Round 1: my turn (I drew, I play) while bob may still say "May I?" for the 9Y that the
    # bot discarded.
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="lobby-waiting")
    state = make_state(
        players=3,
        hands={0: "7M 7A 7Y 9M 9A 9I 3A"},
        discard="9Y",
        stock="7I",
        active=0,
        phase="play",
        discarder=2,
        window={"eligible": [1]},
        hand_size=7,
    )
    Table.objects.filter(pk=table.pk).update(state=state, version=table.version + 1)
    table_id = table.pk
    mine = {e.table.pk: e for e in services.lobby_for_user(user=alice).mine}[table_id]
    assert (mine.mark, mine.progress, mine.waiting_on) == (
        YOUR_TURN,
        "round 1 of 7",
        "May I? open: bob",
    )
    bobs = {e.table.pk: e for e in services.lobby_for_user(user=bob).mine}[table_id]
    assert (bobs.mark, bobs.waiting_on) == (MAY_I_OPEN, "alice’s turn")
    page = signed_in_client(bob).get("/").content.decode()
    entry = page[page.index(f'data-table="{table_id}"') :]
    entry = entry[: entry.index("</li>")]
    assert "playing, round 1 of 7" in entry and "alice’s turn" in entry

    # Once the game is over, nothing waits and no round is named.
    Table.objects.filter(pk=table_id).update(status=Table.Status.FINISHED)
    done = {e.table.pk: e for e in services.lobby_for_user(user=bob).mine}[table_id]
    assert (done.progress, done.waiting_on) == ("", "")


def test_my_games_say_how_long_my_turn_clock_has_left(alice, bob):
    # "your turn" alone: a player of several games over days could not tell the one about
    # to time out (a bot plays it, a strike) from one with a day to go.
    mine = _play_now_with(alice, YOUR_TURN)
    bobs_turn = _table_waiting_on(alice, bob, seat=1)
    soon = timezone.now() + timedelta(minutes=49, seconds=30)
    Table.objects.filter(pk=mine.pk).update(turn_deadline=soon)
    entries = {e.table.pk: e for e in services.lobby_for_user(user=alice).mine}
    assert entries[mine.pk].clock_left == "49 min left"
    assert entries[bobs_turn.pk].clock_left == ""  # not mine to play
    page = signed_in_client(alice).get("/").content.decode()
    entry = page[page.index(f'data-table="{mine.pk}"') :]
    assert "49 min left" in entry[: entry.index("</li>")]
    Table.objects.filter(pk=mine.pk).update(turn_deadline=timezone.now() + timedelta(days=3))

    def clock_left():
        return {e.table.pk: e for e in services.lobby_for_user(user=alice).mine}[mine.pk].clock_left

    assert clock_left().endswith("days left")
    # On vacation my clock stands still: no countdown.
    profile = services.vacation_start(user=alice, days=2)
    until = profile.vacation_until
    assert clock_left() == f"clock paused: on vacation until {until:%b} {until.day}"


def test_my_games_say_when_the_player_to_move_is_on_vacation(alice, bob):
    # "bob's turn" for days on end, and nothing said why: his clock was paused.
    bobs_turn = _table_waiting_on(alice, bob, seat=1)
    profile = services.vacation_start(user=bob, days=3)

    def waiting_on():
        entries = services.lobby_for_user(user=alice).mine
        return {e.table.pk: e for e in entries}[bobs_turn.pk].waiting_on

    until = profile.vacation_until
    assert waiting_on() == f"bob’s turn (on vacation until {until:%b} {until.day})"
    services.vacation_end(user=bob)
    assert waiting_on() == "bob’s turn"
