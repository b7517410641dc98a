"""The statistics page and API (issue 12): every number against games whose results are set
by hand here, the privacy setting, and a fixed number of SQL queries however many games."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Profile
from games import services as games
from moderation.services.tables import table_abort
from moderation.services.users import restriction_lift, user_ban
from stats.models import GameResult
from stats.ratings import display
from tests.conftest import make_moderator

from .stats_helpers import finished_game, rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_games(alice, bob, carol):
    """G1: bob 70, alice 80 (out in rounds 1 and 4), a bot 350.
    G2: alice 0 (out every round), bob 140, carol 210, a bot 280.
    G3: carol 35, alice and bob 70 each with no round out: a shared 2nd place."""
    g1 = finished_game(
        [alice, bob, None],
        [
            rounds(
                [0, 5, 10, 0, 20, 30, 15],
                down_turn=[2, 3, None, 1, None, 4, 2],
                windows=2,
                calls=1,
                buys=[1, 0, 0, 0, 0, 0, 0],
                bought_used=[1, 0, 0, 0, 0, 0, 0],
                lay_offs=2,
                lay_offs_others=1,
                draws_pile=1,
                draws_stock=3,
                turns=4,
                clock_seconds=100.0,
                think_seconds=[[5.0, 15.0], [], [], [], [], [], []],
            ),
            rounds([10] * 7),
            rounds([50] * 7),
        ],
    )
    g2 = finished_game(
        [alice, bob, carol, None],
        [
            rounds(
                [0] * 7,
                down_turn=1,
                windows=1,
                mayi_melds=[1, 0, 0, 0, 0, 0, 0],
                draws_stock=2,
                turns=2,
                think_seconds=[[30.0], [], [], [], [], [], []],
            ),
            rounds([20] * 7),
            rounds([30] * 7),
            rounds([40] * 7),
        ],
    )
    g3 = finished_game(
        [alice, bob, carol],
        [
            rounds([10] * 7, draws_stock=1, turns=1, timeouts=[1, 0, 0, 0, 0, 0, 1]),
            rounds([10] * 7),
            rounds([5] * 7),
        ],
    )
    return g1, g2, g3


def stats(client, username="alice", **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    response = client.get(f"/api/players/{username}/stats?{query}")
    assert response.status_code == 200, response.content
    return response.json()


def test_every_number_of_the_page_from_games_counted_by_hand(three_games, alice, bob, api_for):
    g1, g2, g3 = three_games
    body = stats(api_for(bob))
    f = body["figures"]
    assert (f["games_played"], f["games_finished"], f["games"], f["wins"]) == (3, 3, 3, 1)
    assert f["places"] == {"3": [0, 2, 0], "4": [1, 0, 0, 0]}
    # One win at 4 seats is worth 4 (expected 1/4): 4 / 3 games.
    assert f["normalised_win_rate"] == pytest.approx(4 / 3)
    assert f["avg_total"] == pytest.approx((80 + 0 + 70) / 3)
    assert f["avg_penalty_per_round"] == pytest.approx(150 / 21)
    assert (f["rounds_out"], f["rounds"]) == (9, 21)
    assert f["streak"] == {"current": 0, "best": 1}  # 2nd, 1st, 2nd

    r1, r2, r3 = f["per_round"][:3]
    assert (r1["played"], r1["made"], r1["avg_down_turn"]) == (3, 2, 1.5)
    assert r1["avg_penalty"] == pytest.approx(10 / 3)
    assert r1["hist"] == [2, 0, 1, 0, 0, 0]  # 0, 0, 10
    assert (r2["made"], r2["avg_down_turn"], r2["avg_penalty"]) == (2, 2.0, 5.0)
    assert (r3["made"], r3["avg_down_turn"]) == (1, 1.0)
    assert r3["avg_penalty"] == pytest.approx(20 / 3)
    assert [r["made"] for r in f["per_round"]] == [2, 2, 1, 2, 1, 2, 2]

    assert f["funnel"] == {
        "windows": 21,
        "calls": 7,
        "buys": 1,
        "bought_used": 1,
        "rounds_with_buy": 1,
        "rounds_with_buy_made": 1,
        "rounds_without_buy": 20,
        "rounds_without_buy_made": 11,
    }
    assert (f["mayi_melds"], f["lay_offs"], f["lay_offs_others"]) == (1, 14, 7)
    assert (f["draws_pile"], f["draws_stock"]) == (7, 42)
    pace = f["pace"]
    assert pace["median_think_seconds"] == 15.0  # of 5, 15, 30
    assert (pace["turns"], pace["timeouts"], pace["clock_seconds"]) == (49, 2, 700.0)
    assert pace["avg_clock_per_turn"] == pytest.approx(700 / 49)
    assert f["best"]["table"] == g2.pk and f["worst"]["table"] == g1.pk
    assert f["head_to_head"] == [
        {"username": "bob", "games": 3, "above": 1, "below": 1},
        {"username": "carol", "games": 2, "above": 1, "below": 1},
    ]

    # History, newest first, with the players and the rating at the time.
    assert [g["table"] for g in body["history"]] == [g3.pk, g2.pk, g1.pk]
    newest = body["history"][0]
    assert newest["place"] == 2 and newest["players"] == 3 and newest["total"] == 70
    assert [o["username"] for o in newest["others"]] == ["bob", "carol"]
    res = GameResult.objects.get(table=g3, user=alice)
    assert newest["rating_before"] == display(res.mu_before)
    assert newest["rating_after"] == display(res.mu_after)
    assert newest["rating_change"] == newest["rating_after"] - newest["rating_before"]
    assert [p["table"] for p in body["rating_history"]["bga"]] == [g1.pk, g2.pk, g3.pk]
    assert body["ratings"]["bga"]["games"] == 3 and body["ratings"]["bga"]["provisional"]


def test_the_page_shows_the_numbers_and_charts_with_their_text(three_games, bob):
    client = Client()
    client.force_login(bob)
    html = client.get("/players/alice/").content.decode()

    def figure(id_):
        found = re.search(rf'id="{id_}"[^>]*>([^<]*)<', html)
        assert found, id_
        return found.group(1).strip()

    assert figure("games-played") == "3" and figure("games-finished") == "3"
    assert figure("norm-win-rate") == "1.33"
    assert figure("avg-total") == "50.0" and figure("avg-penalty") == "7.1"
    assert figure("rounds-out") == "9 of 21"
    assert figure("median-think") == "15 s" and figure("clock-per-turn") == "14 s"
    assert figure("timeouts") == "2" and figure("draws-stock") == "42"
    # Each chart is an SVG with a title, and its numbers are in a table for screen readers.
    for chart in ("chart-rating", "chart-made", "chart-penalty", "chart-places"):
        assert f'id="{chart}"' in html and f'aria-labelledby="{chart}-title"' in html
    assert 'id="places-table"' in html and 'id="rounds-table"' in html
    assert "style=" not in html and "<script>" not in html


def test_a_player_with_no_round_yet_is_told_where_the_figures_come_from(alice, bob):
    # A new player's page was empty charts and tables of zeros and dashes, down to "Pace".
    client = Client()
    client.force_login(alice)
    html = client.get("/players/alice/").content.decode()
    assert 'id="no-rounds"' in html and "fill in here from your first round played" in html
    assert 'href="/">Play now against bots, or join a table</a>' in html
    for gone in ('id="rounds"', 'id="mayi"', 'id="pace"', 'id="chart-made"'):
        assert gone not in html
    assert 'id="games-played"' in html  # the summary stays: 0 games, 0 wins
    client.force_login(bob)
    html = client.get("/players/alice/").content.decode()
    assert "alice has not played a round yet." in html and "Play now" not in html


def test_the_header_on_another_players_page_is_still_mine(three_games, bob):
    # The page's player was passed to the template as "user", the name the header reads for
    # the signed-in user: on alice's page bob's "My stats" led to alice's and named her.
    client = Client()
    client.force_login(bob)
    html = client.get("/players/alice/").content.decode()
    header = html.split('<header class="top">')[1].split("</header>")[0]
    assert 'aria-label="Your profile: bob"' in header and 'href="/players/bob/"' in header
    assert "alice" not in header


def test_a_finished_game_names_its_bot_as_the_table_did(three_games, bob):
    # The history said "bot" where the table, the lobby and the replay said "Bot 3": one
    # name for one seat, and with two bots at a table, which was which.
    client = Client()
    client.force_login(bob)
    history = client.get("/players/alice/").content.decode().split("Finished games")[1]
    g1 = three_games[0]
    row = re.search(rf'href="/tables/{g1.pk}/replay/".*?</tr>', history, re.S)
    assert row, history
    assert '<td><a href="/players/bob/">bob</a>, Bot 3</td>' in row.group(0)


def test_the_places_table_has_a_column_for_every_place(three_games, bob):
    # Tables of 3 and 4 seats: the heading read the first row's places (1st to 3rd), so the
    # 4-seat row's 4th place stood under no heading and the 3-seat row ended short.
    client = Client()
    client.force_login(bob)
    html = client.get("/players/alice/").content.decode()
    table = html.split('id="places-table"')[1].split("</table>")[0]
    rows = [re.findall(r"<t[hd]>([^<]*)</t[hd]>", row) for row in table.split("</tr>")[:-1]]
    assert rows == [
        ["Table", "1st", "2nd", "3rd", "4th"],
        ["3 seats", "0", "2", "0", "–"],
        ["4 seats", "1", "0", "0", "0"],
    ]


def test_ruleset_scope_and_overall(three_games, alice, bob, api_for):
    finished_game(
        [alice, bob, None],
        [rounds([5] * 7), rounds([40] * 7), rounds([50] * 7)],
        ruleset="petras",
    )
    client = api_for(bob)
    assert stats(client)["figures"]["games"] == 4
    bga = stats(client, ruleset="bga")
    assert bga["scope"] == "bga" and bga["figures"]["games"] == 3
    petras = stats(client, ruleset="petras")
    assert petras["figures"]["games"] == 1 and petras["figures"]["streak"]["current"] == 1
    assert petras["figures"]["places"] == {"3": [1, 0, 0]}
    assert set(stats(client)["ratings"]) == {"bga", "petras"}


def test_a_hidden_page_is_shown_to_its_owner_only(three_games, alice, bob, api_for):
    Profile.objects.update_or_create(user=alice, defaults={"stats_hidden": True})
    response = api_for(bob).get("/api/players/alice/stats")
    assert response.status_code == 403 and response.json()["error"]["code"] == "stats_hidden"
    client = Client()
    client.force_login(bob)
    page = client.get("/players/alice/")
    assert page.status_code == 403 and b"private" in page.content
    assert b"games-played" not in page.content
    assert Client().get("/players/alice/").status_code == 403
    assert api_for(alice).get("/api/players/alice/stats").status_code == 200
    mine = Client()
    mine.force_login(alice)
    assert b"Only you can see this page" in mine.get("/players/alice/").content


def test_the_privacy_switch_on_the_profile_page(alice):
    client = Client()
    client.force_login(alice)
    assert b"Hide my statistics" in client.get("/accounts/profile/").content
    client.post("/accounts/profile/privacy/", {"stats_hidden": "on"})
    assert Profile.objects.get(user=alice).stats_hidden
    client.post("/accounts/profile/privacy/", {})
    assert not Profile.objects.get(user=alice).stats_hidden


def test_an_unknown_player_is_a_clear_404(bob, api_for):
    response = api_for(bob).get("/api/players/nobody/stats")
    assert response.status_code == 404 and response.json()["error"]["code"] == "player_not_found"
    assert Client().get("/players/nobody/").status_code == 404


def page_queries(client) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get("/players/alice/").status_code == 200
    return len(ctx.captured_queries)


def test_the_page_costs_the_same_queries_with_one_game_or_many(
    alice, bob, carol, django_assert_num_queries
):
    client = Client()
    client.force_login(bob)
    finished_game([alice, bob, carol], [rounds([5] * 7), rounds([9] * 7), rounds([7] * 7)])
    one = page_queries(client)
    for k in range(12):
        other = carol if k % 2 else None
        finished_game([alice, bob, other], [rounds([k] * 7), rounds([6] * 7), rounds([7] * 7)])
    with django_assert_num_queries(one):
        assert client.get("/players/alice/").status_code == 200
    with django_assert_num_queries(one):
        assert client.get("/players/alice/?ruleset=bga").status_code == 200


def test_the_leaderboard_lists_players_with_enough_rated_games(alice, bob, carol, settings):
    settings.MAYI_LEADERBOARD_MIN_GAMES = 2
    # alice beats bob twice; carol plays once (too few to be listed).
    for _ in range(2):
        finished_game([alice, bob, None], [rounds([5] * 7), rounds([20] * 7), rounds([9] * 7)])
    finished_game([alice, carol, None], [rounds([5] * 7), rounds([20] * 7), rounds([9] * 7)])
    html = Client().get("/leaderboard/?ruleset=bga").content.decode()
    rows = re.findall(r'<tr><td>(\d+)</td><td><a href="/players/(\w+)/">', html)
    assert rows == [("1", "alice"), ("2", "bob")]
    assert "provisional" in html
    Profile.objects.update_or_create(user=bob, defaults={"stats_hidden": True})
    html = Client().get("/leaderboard/?ruleset=bga").content.decode()
    assert re.findall(r'<a href="/players/(\w+)/">', html.split('id="leaderboard"')[1]) == ["alice"]
    assert Client().get("/leaderboard/?ruleset=nosuch").status_code == 404
    assert b"Nobody has 2 rated games in rook" in Client().get("/leaderboard/?ruleset=rook").content


def test_a_banned_player_leaves_the_leaderboard_until_the_ban_is_lifted(
    alice, bob, django_user_model, settings
):
    # A player banned for cheating kept first place, won by the cheating.
    settings.MAYI_LEADERBOARD_MIN_GAMES = 2
    for _ in range(2):
        finished_game([alice, bob, None], [rounds([5] * 7), rounds([20] * 7), rounds([9] * 7)])

    def listed():
        html = Client().get("/leaderboard/?ruleset=bga").content.decode()
        return re.findall(r'<a href="/players/(\w+)/">', html.split('id="leaderboard"')[1])

    assert listed() == ["alice", "bob"]
    mod = make_moderator("mod", "senior")
    ban = user_ban(moderator=mod, user=alice, reason="collusion")
    assert listed() == ["bob"]
    assert "but for accounts suspended or banned" in Client().get("/leaderboard/").content.decode()
    restriction_lift(moderator=mod, restriction_id=ban.pk, reason="appeal upheld")
    assert listed() == ["alice", "bob"]


def test_an_empty_leaderboard_counts_its_games_in_words(db, settings):
    # "Nobody has 1 rated games in bga yet."
    settings.MAYI_LEADERBOARD_MIN_GAMES = 1
    html = Client().get("/leaderboard/?ruleset=bga").content.decode()
    assert "Nobody has 1 rated game in bga yet." in html
    settings.MAYI_LEADERBOARD_MIN_GAMES = 5
    html = Client().get("/leaderboard/?ruleset=bga").content.decode()
    assert "Nobody has 5 rated games in bga yet." in html


def test_the_rating_chart_of_one_rated_game_names_it_once(alice, bob):
    # Its axis read "rated game 1 ... rated game 1".
    finished_game([alice, bob], [rounds([5] * 7), rounds([9] * 7)])
    client = Client()
    client.force_login(bob)
    html = client.get("/players/alice/").content.decode()
    chart = html.split('id="chart-rating"')[1].split("</svg>")[0]
    assert re.findall(r"rated game \d+", chart) == ["rated game 1"]
    finished_game([alice, bob], [rounds([5] * 7), rounds([9] * 7)])
    html = client.get("/players/alice/").content.decode()
    chart = html.split('id="chart-rating"')[1].split("</svg>")[0]
    assert sorted(re.findall(r"rated game \d+", chart)) == ["rated game 1", "rated game 2"]


def test_vacation_days_this_year_are_this_years(alice, bob, api_for):
    # 15 days spent last year showed as "Vacation days this year: 15" on the new year's page.
    last_year = timezone.now().year - 1
    Profile.objects.update_or_create(
        user=alice, defaults={"vacation_year": last_year, "vacation_days_used": 15}
    )
    assert stats(api_for(bob))["figures"]["pace"]["vacation_days_used"] == 0
    Profile.objects.filter(user=alice).update(vacation_year=last_year + 1)
    assert stats(api_for(bob))["figures"]["pace"]["vacation_days_used"] == 15


def test_an_aborted_table_is_no_game_played(
    three_games, alice, bob, carol, api_for, django_user_model
):
    # "Games played 4 · Finished 3" after a moderator aborted a fourth table: statistics skip
    # aborted tables. A game still being played counts.
    moderator = make_moderator("mod", "game")  # not one of its players
    for abort in (True, False):
        table = games.table_create(host=alice, seats=3)
        games.table_join(user=bob, table_id=table.pk)
        games.table_join(user=carol, table_id=table.pk)
        games.table_start(user=alice, table_id=table.pk)
        if abort:
            table_abort(moderator=moderator, table_id=table.pk, reason="a test")
    f = stats(api_for(bob))["figures"]
    assert (f["games_played"], f["games_finished"]) == (4, 3)


def test_a_strangers_view_names_private_games_without_a_replay_link(
    alice, bob, carol, django_user_model
):
    # A private game's replay is for its players: the link on alice's page led anyone else
    # to "this table is private" (the history, the rating table, best and worst game).
    private = finished_game([alice, bob, None], [rounds([0] * 7), rounds([9] * 7), rounds([9] * 7)])
    Table = type(private)
    Table.objects.filter(pk=private.pk).update(public=False)
    public = finished_game(
        [alice, carol, None], [rounds([5] * 7), rounds([1] * 7), rounds([9] * 7)]
    )
    eve = django_user_model.objects.create_user("eve")

    def links(viewer):
        client = Client()
        if viewer is not None:
            client.force_login(viewer)
        html = client.get("/players/alice/").content.decode()
        return (
            html.count(f"/tables/{private.pk}/replay/"),
            html.count(f"/tables/{public.pk}/replay/"),
            html,
        )

    shut, open_, html = links(eve)
    assert shut == 0 and open_ >= 2  # the history and the rating table at least
    assert f'#{private.pk} <span class="hint">private</span>' in html
    assert links(None)[0] == 0
    # Those who sat at it keep every link to it.
    for player in (alice, bob):
        assert links(player)[0] >= 3  # history, rating table, best game
    # Whoever may open the replay, and whoever may not, as the links say.
    client = Client()
    client.force_login(eve)
    assert client.get(f"/tables/{private.pk}/replay/").status_code == 403
    client.force_login(bob)
    assert client.get(f"/tables/{private.pk}/replay/").status_code != 403


def test_a_player_who_hides_their_page_is_named_without_a_link(alice, bob, carol):
    # alice's head to head and game list linked bob's page, which answers everyone but bob
    # "bob keeps their statistics private".
    finished_game([alice, bob, carol], [rounds([0] * 7), rounds([9] * 7), rounds([5] * 7)])
    Profile.objects.update_or_create(user=bob, defaults={"stats_hidden": True})

    def page(viewer):
        client = Client()
        client.force_login(viewer)
        return client.get("/players/alice/").content.decode()

    seen_by_carol = page(carol)
    assert "/players/bob/" not in seen_by_carol and ">bob<" in seen_by_carol
    assert seen_by_carol.count("/players/carol/") >= 2  # head to head and the game's players
    assert page(bob).count("/players/bob/") >= 2  # bob's own page opens for him
    client = Client()
    client.force_login(carol)
    assert client.get("/players/bob/").status_code == 403


def test_a_player_expelled_by_the_clock_is_counted_last_even_if_the_bot_won_the_seat(
    alice, bob, carol, api_for
):
    # alice's seat has the best total, but the clock expelled her and a bot finished it.
    table = finished_game(
        [alice, bob, carol],
        [rounds([5] * 7), rounds([20] * 7), rounds([30] * 7)],
        expelled=(0,),
    )
    assert GameResult.objects.get(table=table, user=alice).place == 1  # the seat's place
    mine = stats(api_for(alice))["figures"]
    assert (mine["games"], mine["wins"]) == (1, 0)
    assert mine["places"] == {"3": [0, 0, 1]}
    assert mine["streak"] == {"current": 0, "best": 0}
    # bob finished above her, not below.
    bobs = stats(api_for(bob), username="bob")["figures"]
    assert bobs["places"] == {"3": [0, 1, 0]}
    page = Client()
    page.force_login(alice)
    history = page.get("/players/alice/").content.decode()
    assert "3rd of 3" in history and "expelled by the clock" in history


def test_every_finished_game_is_on_a_page_of_the_history(alice, bob):
    # The history showed the 20 newest games and no way to the older ones.
    start = timezone.now() - timedelta(days=60)
    games = [
        finished_game(
            [alice, bob], [rounds([5] * 7), rounds([10] * 7)], when=start + timedelta(hours=i)
        )
        for i in range(45)
    ]
    client = Client()
    client.force_login(bob)

    def listed(query: str) -> list[int]:
        html = client.get(f"/players/alice/{query}").content.decode()
        section = html.split('id="history"')[1]
        return [int(t) for t in re.findall(r'href="/tables/(\d+)/replay/"', section)]

    first = client.get("/players/alice/").content.decode().split('id="history"')[1]
    assert "page 1 of 3" in first and 'href="?ruleset=all&amp;games=2#history"' in first
    assert "Newer games" not in first
    assert listed("") == [g.pk for g in reversed(games[-20:])]
    assert listed("?ruleset=all&games=2") == [g.pk for g in reversed(games[5:25])]
    last = client.get("/players/alice/?ruleset=bga&games=3").content.decode()
    assert "page 3 of 3" in last and 'href="?ruleset=bga&amp;games=2#history"' in last
    assert "Older games" not in last.split('id="history"')[1]
    assert listed("?ruleset=bga&games=3") == [g.pk for g in reversed(games[:5])]
    # Past the end: the last page; nonsense: the first.
    assert listed("?games=99") == listed("?games=3")
    assert listed("?games=x") == listed("") == listed("?games=-1")
    # The API pages the same way.
    body = client.get("/api/players/alice/stats?games=3").json()
    assert (body["history_page"], body["history_pages"]) == (3, 3)
    assert [g["table"] for g in body["history"]] == [g.pk for g in reversed(games[:5])]
