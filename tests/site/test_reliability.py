"""Reliability (issue 29): of a player's last 100 games, the share finished in their seat, and
their median time to move; "new" below 5 games; the join rules and the cap on games at once."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import override_settings

from games import services
from games.models import Seat, Table
from moderation.models import AuditEntry
from moderation.services.seats import seat_to_user_locked
from stats import reliability as rel
from stats.models import Reliability
from stats.selectors import reliability, reliability_many

from .conftest import error_of
from .stats_helpers import finished_game, rounds

pytestmark = pytest.mark.django_db


def game(players, expelled=(), think=None):
    """A finished game: ``think`` gives seat 0's think times in each of its 7 rounds."""
    per_seat = [rounds([10 * (i + 1)] * 7) for i in range(len(players))]
    if think is not None:
        for rec in per_seat[0]:
            rec["think_seconds"] = think
    return finished_game(players, per_seat, expelled=tuple(expelled))


def test_the_api_gives_the_counts_and_no_share_under_five_games(alice, bob, api_for):
    for _ in range(4):
        game([alice, bob], think=[10.0, 20.0, 30.0])
    body = api_for(bob).get("/api/players/alice/stats").json()
    assert body["reliability"] == {
        "finished": 4,
        "games": 4,
        "share": None,
        "median_move_seconds": 20.0,
    }
    game([alice, bob], expelled=[0], think=[50.0])
    body = api_for(bob).get("/api/players/alice/stats").json()
    # The expelled game counts as not finished in the seat: 4 of 5.
    assert body["reliability"]["finished"] == 4
    assert body["reliability"]["games"] == 5
    assert body["reliability"]["share"] == 0.8
    assert reliability(alice).label == "80%"
    assert reliability(bob).share == 1.0
    # A player with no game: zeros, "new".
    assert reliability(User.objects.create(username="newbie")).as_json() == {
        "finished": 0,
        "games": 0,
        "share": None,
        "median_move_seconds": None,
    }


def test_only_the_last_hundred_games_count(alice, bob):
    game([alice, bob], expelled=[0])
    row = Reliability.objects.get(user=alice)
    # 100 more finished games, added as the finish hook does (a real finished game each would
    # take minutes): the expelled one drops out of the window.
    for n in range(100):
        rel.reliability_record(entries={alice.pk: (10_000 + n, True, 5.0, 0)})
    row.refresh_from_db()
    assert (row.games, row.finished) == (100, 100)
    assert reliability(alice).share == 1.0


def test_a_seat_a_moderator_gave_to_someone_else_is_not_finished(alice, bob, carol):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="handover")
    from django.db import transaction

    with transaction.atomic():
        seat_to_user_locked(table.pk, 1, carol)
    assert reliability(bob).as_json()["games"] == 1
    assert reliability(bob).finished == 0


def test_many_players_in_one_query(alice, bob, carol, django_assert_num_queries):
    game([alice, bob])
    with django_assert_num_queries(1):
        figures = reliability_many([alice.pk, bob.pk, carol.pk, None])
    assert figures[alice.pk].games == 1 and figures[carol.pk].games == 0


def test_the_migration_back_fills_reliability_from_existing_games(alice, bob, carol):
    handed = game([alice, bob], think=[4.0])
    game([alice, bob], expelled=[0], think=[8.0])
    game([bob, carol])
    # A seat a moderator handed over before reliability existed: in the audit log only.
    AuditEntry.objects.create(
        action="seat_to_user", table=handed, target_user=alice, details={"previous": "carol"}
    )
    Reliability.objects.all().delete()
    migration = importlib.import_module("stats.migrations.0003_reliability")
    migration.backfill(apps, None)
    assert reliability(alice).as_json() == {
        "finished": 1,
        "games": 2,
        "share": None,
        "median_move_seconds": 6.0,
    }
    assert (reliability(bob).finished, reliability(bob).games) == (3, 3)
    # carol finished her game, and lost another seat to a moderator.
    assert (reliability(carol).finished, reliability(carol).games) == (1, 2)


# -- join rules -------------------------------------------------------------------------------
def test_min_reliability_refuses_with_the_reason(alice, bob, carol, api_for):
    r = api_for(alice).post("/api/tables", {"seats": 3, "min_reliability": 0.9})
    assert r.status_code == 201
    table_id = r.json()["table"]["id"]
    assert Table.objects.get(pk=table_id).options["min_reliability"] == 0.9
    # New: no reliability yet.
    r = api_for(bob).post(f"/api/tables/{table_id}/join")
    assert error_of(r) == (403, "below_table_reliability")
    assert "at least 90%" in r.json()["error"]["message"]
    assert "from 5 games" in r.json()["error"]["message"]
    for n in range(5):
        game([bob, carol], expelled=[0] if n < 1 else [])
    # 4 of 5: 80%, below 90%.
    r = api_for(bob).post(f"/api/tables/{table_id}/join")
    assert error_of(r) == (403, "below_table_reliability")
    assert "yours is 80%" in r.json()["error"]["message"]
    # carol finished all 5.
    assert api_for(carol).post(f"/api/tables/{table_id}/join").status_code == 200


def test_max_timeouts(alice, bob, api_for):
    table = services.table_create(host=alice, seats=3, max_timeouts=2)
    per_seat = [rounds([10] * 7, timeouts=1), rounds([20] * 7)]
    finished_game([bob, alice], per_seat)
    r = api_for(bob).post(f"/api/tables/{table.pk}/join")
    assert error_of(r) == (403, "below_table_reliability")
    assert "at most 2 turns timed out" in r.json()["error"]["message"]
    assert "you have 7" in r.json()["error"]["message"]


@pytest.mark.parametrize("bad", [-0.1, 1.5, "0.5", True])
def test_min_reliability_out_of_range(alice, api_for, bad):
    r = api_for(alice).post("/api/tables", {"seats": 3, "min_reliability": bad})
    assert r.status_code == 400


# -- the cap on games at once -----------------------------------------------------------------
@override_settings(MAYI_MAX_OPEN_GAMES=2)
def test_at_most_n_unfinished_games_one_more_per_finished(alice, bob, carol, api_for):
    services.table_create(host=alice, seats=3)
    services.table_create(host=alice, seats=3)
    r = api_for(alice).post("/api/tables", {"seats": 3})
    assert error_of(r) == (403, "too_many_games")
    assert "finish one" in r.json()["error"]["message"]
    # Joining is capped too.
    theirs = services.table_create(host=bob, seats=3)
    assert error_of(api_for(alice).post(f"/api/tables/{theirs.pk}/join")) == (
        403,
        "too_many_games",
    )
    # Games against bots alone do not count.
    assert api_for(alice).post("/api/tables/play-now", {}).status_code == 201
    # A finished game gives one more.
    game([alice, carol])
    assert api_for(alice).post(f"/api/tables/{theirs.pk}/join").status_code == 200
    assert error_of(api_for(alice).post("/api/tables", {"seats": 3})) == (403, "too_many_games")


def test_play_now_tables_do_not_count(alice):
    from games.services.join_rules import open_games

    services.table_play_now(user=alice)
    table = services.table_create(host=alice, seats=3)
    assert open_games(alice) == 1
    # A table of mine filled with bots and nobody else is a game against bots too.
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    assert open_games(alice) == 0
    assert Seat.objects.filter(user=alice).count() == 2
