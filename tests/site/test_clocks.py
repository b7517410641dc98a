"""The platform's two actions: a buy window's timer and a turn clock running out.

Issue 4 calls these from Celery; here they are called directly, with a ``now`` past or before
the deadline, to show that a late, early or duplicate call does the right thing.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine, services
from games.engine.bots import choose_action
from games.models import Move, Seat, Table

LATER = timedelta(days=365)


def play_until(table: Table, user, condition) -> Table:  # type: ignore[no-untyped-def]
    """alice plays her bot's choice until ``condition(public_view)`` holds."""
    for _ in range(500):
        table.refresh_from_db()
        if condition(engine.view(table.state, None)):
            return table
        seat = engine.seats_to_act(table.state)[0]
        action = choose_action(table.state, seat)
        services.table_submit_action(
            table_id=table.pk, user=user, action=action, expect_version=table.version
        )
    raise AssertionError("condition never held")


def test_start_sets_the_turn_clock(bot_game):
    table = bot_game
    assert engine.seats_to_act(table.state) == [0]
    assert table.turn_deadline is not None
    expected = timezone.now() + timedelta(seconds=table.options["turn_seconds"])
    assert abs((table.turn_deadline - expected).total_seconds()) < 60
    # Bots that played before alice's first turn are logged as bot moves.
    assert all(m.by_bot and m.seat in (1, 2) for m in Move.objects.filter(table=table))


def test_a_timer_task_of_a_version_the_table_left_reads_one_row(
    bot_game, alice, django_assert_num_queries
):
    from games import tasks

    table = play_until(
        bot_game, alice, lambda v: v["buy_window"] and 0 in v["buy_window"]["waiting"]
    )
    version = table.version
    services.table_submit_action(
        table_id=table.pk, user=alice, action={"type": "no_thanks"}, expect_version=version
    )
    # The window was answered: its timer's task (and a turn timer's of that version) look at
    # the table's version alone, take no lock and queue nothing.
    with django_assert_num_queries(1):
        assert tasks.close_buy_window.run(table.pk, version) is False
    with django_assert_num_queries(1):
        assert tasks.timeout_turn.run(table.pk, version) is False
    # A task of the version the table is at goes on to the locked check (too early: nothing).
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table.refresh_from_db()
    with CaptureQueriesContext(connection) as queries:
        assert tasks.close_buy_window.run(table.pk, table.version) is False
    assert len(queries) > 1
    assert Table.objects.get(pk=table.pk).version == table.version


def test_window_timer_closes_the_window_once(bot_game, alice):
    table = play_until(
        bot_game, alice, lambda v: v["buy_window"] and 0 in v["buy_window"]["waiting"]
    )
    assert table.window_deadline is not None
    version = table.version
    # Too early, or for a version that is gone: nothing happens.
    assert not services.table_close_buy_window(table_id=table.pk, now=timezone.now())
    assert not services.table_close_buy_window(
        table_id=table.pk, expect_version=version - 1, now=timezone.now() + LATER
    )
    assert services.table_close_buy_window(
        table_id=table.pk, expect_version=version, now=timezone.now() + LATER
    )
    table.refresh_from_db()
    assert table.version == version + 1
    assert (
        engine.view(table.state, None)["buy_window"] is None
        or 0 not in (engine.view(table.state, None)["buy_window"]["waiting"])
    )
    closing = Move.objects.filter(table=table, action={"type": "close_window"}).get()
    assert closing.seat is None
    # A duplicate delivery of the same timer does nothing.
    assert not services.table_close_buy_window(
        table_id=table.pk, expect_version=version, now=timezone.now() + LATER
    )


def wait_for_own_turn(table: Table, now=None) -> Table:  # type: ignore[no-untyped-def]
    """Let the clocks run: buy windows close by their timer until seat 0 is to draw."""
    now = now or timezone.now() + LATER
    for _ in range(50):
        table.refresh_from_db()
        view = engine.view(table.state, None)
        if view["active_seat"] == 0 and view["phase"] == "draw" and not view["buy_window"]:
            return table
        assert view["buy_window"], view
        assert services.table_close_buy_window(table_id=table.pk, now=now)
    raise AssertionError("seat 0 never got the turn")


def test_turn_clock_strikes_and_expels(bot_game, alice, api_for):
    table = bot_game
    strikes = table.options["strikes"]
    for strike in range(1, strikes + 1):
        # Each timer fires a long while after the last one set the deadlines.
        now = timezone.now() + LATER * strike
        table = wait_for_own_turn(table, now)
        now += timedelta(seconds=table.options["turn_seconds"] + 1)
        version = table.version
        assert not services.table_timeout_turn(table_id=table.pk, now=timezone.now())
        assert services.table_timeout_turn(table_id=table.pk, expect_version=version, now=now)
        assert not services.table_timeout_turn(table_id=table.pk, expect_version=version, now=now)
        seat = Seat.objects.get(table=table, user=alice)
        assert seat.missed_turns == strike
        assert seat.expelled == (strike == strikes)
    # Expelled: the bot now plays alice's seat too, so the bots play on to the end.
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert Move.objects.filter(table=table, action__type="timeout", seat=None).count() == strikes
    response = api_for(alice).get(f"/api/tables/{table.pk}")
    assert response.json()["table"]["seats"][0]["expelled"] is True


def test_acting_takes_the_seat_back(bot_game, alice):
    table = wait_for_own_turn(bot_game)
    assert services.table_timeout_turn(table_id=table.pk, now=timezone.now() + LATER)
    assert Seat.objects.get(table=table, user=alice).missed_turns == 1
    table.refresh_from_db()
    services.table_submit_action(
        table_id=table.pk,
        user=alice,
        action=choose_action(table.state, engine.seats_to_act(table.state)[0]),
        expect_version=table.version,
    )
    assert Seat.objects.get(table=table, user=alice).missed_turns == 0


def test_platform_actions_are_refused_from_players(three_player_game, alice):
    with pytest.raises(engine.IllegalMove) as caught:
        services.table_submit_action(
            table_id=three_player_game.pk,
            user=alice,
            action={"type": "timeout"},
            expect_version=three_player_game.version,
        )
    assert caught.value.code == "platform_only"


def test_events_fire_on_commit_only(
    bot_game, alice, django_capture_on_commit_callbacks, monkeypatch
):
    from games import broadcast

    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(
        broadcast, "table_changed", lambda tid, version: seen.append((tid, version))
    )
    table = bot_game
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.table_submit_action(
            table_id=table.pk,
            user=alice,
            action=choose_action(table.state, 0),
            expect_version=table.version,
        )
    assert len(callbacks) == 1
    assert seen == [(table.pk, table.version + 1)]
    # A refused action registers nothing.
    table.refresh_from_db()
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(engine.IllegalMove),
    ):
        services.table_submit_action(
            table_id=table.pk, user=alice, action={"type": "pass"}, expect_version=table.version
        )
    assert callbacks == []
