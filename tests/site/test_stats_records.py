"""What a finished game leaves for the statistics, written in the moves' own transactions, and
the back-fill that rebuilds it from the move log."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Move, Seat
from stats.models import GameResult, PlayerStats, Rating, RoundRecord

from .stats_play import play_game

pytestmark = pytest.mark.django_db

TIMES = {"id", "think_seconds", "clock_seconds"}


def rows(model, table):
    return [
        {k: v for k, v in row.items() if k not in TIMES}
        for row in model.objects.filter(table=table).order_by("pk").values()
    ]


def test_a_game_played_to_the_end_leaves_records_results_ratings_and_aggregates(alice, bob):
    table = play_game(alice, [bob], bots=1, seed="stats-records")
    records = list(RoundRecord.objects.filter(table=table))
    assert len(records) == 21
    # Each record says what its round's end said of the seat, and who played the seat.
    ended = {
        e["round"]: e
        for move in Move.objects.filter(table=table)
        for e in move.events
        if e["type"] == "round_ended"
    }
    seats = {s.position: s for s in Seat.objects.filter(table=table)}
    for rec in records:
        end = ended[rec.round_no]
        assert (rec.score, rec.went_out, rec.buys, rec.mayi_melds) == (
            end["scores"][rec.seat],
            end["went_out"] == rec.seat,
            end["buys"][rec.seat],
            end["mayi_melds"][rec.seat],
        )
        seat = seats[rec.seat]
        assert rec.user_id == seat.user_id and rec.by_bot == seat.played_by_bot
    assert sum(r.went_out for r in records) <= 7
    assert all(r.turns > 0 for r in records if r.seat != 2 or r.round_no > 1)

    final = table.state
    games = {g.seat: g for g in GameResult.objects.filter(table=table)}
    assert [games[s].total for s in range(3)] == final["totals"]
    assert [games[s].place for s in range(3)] == final["places"]
    assert games[0].rated and games[1].rated and not games[2].rated
    assert Rating.objects.get(user=alice, ruleset="bga").games == 1

    data = PlayerStats.objects.get(user=alice, ruleset="bga").data
    assert data["games"] == 1 and data["rounds"] == 7
    assert data["total_sum"] == final["totals"][0]
    assert data["buys"] == sum(r.buys for r in records if r.seat == 0)
    assert data["h2h"] == {
        str(bob.pk): [
            1,
            int(final["places"][0] < final["places"][1]),
            int(final["places"][0] > final["places"][1]),
        ]
    }
    # People's turns have think times (from the moves' times); the bot's none.
    assert any(r.think_seconds for r in records if r.seat == 0)
    assert not any(r.think_seconds for r in records if r.seat == 2)


def test_backfill_replays_the_log_into_the_same_records(alice, bob):
    table = play_game(alice, [bob], bots=1, seed="stats-backfill")
    live_records = rows(RoundRecord, table)
    live_results = rows(GameResult, table)
    live_stats = PlayerStats.objects.get(user=alice).data
    RoundRecord.objects.all().delete()
    GameResult.objects.all().delete()
    PlayerStats.objects.all().delete()
    Rating.objects.all().delete()

    call_command("backfill_stats")
    assert rows(RoundRecord, table) == live_records
    filled = rows(GameResult, table)
    for row in filled + live_results:
        row.pop("finished")
    assert filled == live_results
    again = PlayerStats.objects.get(user=alice).data
    for data in (again, live_stats):
        data.pop("think"), data.pop("clock_seconds")
        for key in ("best", "worst"):
            data[key].pop("finished")
    assert again == live_stats
    # Run twice: nothing more to fill.
    call_command("backfill_stats")
    assert GameResult.objects.filter(table=table).count() == 3
