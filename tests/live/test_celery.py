"""Timers against a real Redis and a real Celery worker process (with its beat).

A buy window closes by its timer; a worker killed with SIGKILL during an open window, and a new
one started, still closes it exactly once; a task delivered twice (and one delivered early)
acts once; a turn clock runs out and the bot plays; strikes expel; standing orders close a
window without waiting. Timers are 1-3 s so that the file runs in seconds.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import engine, services, tasks
from games.models import Move, Seat, Table
from stats.models import RoundRecord
from tests.live.celeryworker import SWEEP_SECONDS, WorkerProcess, wait_for

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

SEED = "celery-tests-seed"
# With this seed alice (seat 0) is first to draw at a table with two bots (as in tests/site).
BOT_SEED = "site-tests-seed"
# How late a timer may fire here: the ETA task is on time; the sweep catches a lost one.
LATE = 1.5


def people_table(alice: Any, bob: Any, carol: Any, **options: Any) -> Table:
    table = services.table_create(host=alice, seats=3, **options)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed=SEED)
    table.refresh_from_db()
    return table


def open_window(table: Table, users: dict[int, Any]) -> Table:
    """The active player draws from the stock: a window opens for the two others."""
    active = engine.seats_to_act(table.state)[0]
    services.table_submit_action(
        table_id=table.pk,
        user=users[active],
        action={"type": "draw", "source": "stock"},
        expect_version=table.version,
    )
    table.refresh_from_db()
    assert table.state["window"] is not None and table.window_deadline is not None
    return table


def closings(table: Table) -> list[Move]:
    return list(Move.objects.filter(table=table, action={"type": "close_window"}))


def users_by_seat(table: Table) -> dict[int, Any]:
    return {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}


def test_a_buy_window_closes_by_its_timer(worker: WorkerProcess, alice, bob, carol):
    table = people_table(alice, bob, carol, window_seconds=2)
    table = open_window(table, users_by_seat(table))
    deadline = table.window_deadline
    found = wait_for(lambda: closings(table), 2 + 5, "the window's timer")
    late = (found[0].created - deadline).total_seconds()
    assert 0 <= late < LATE, late
    table.refresh_from_db()
    assert table.state["window"] is None and table.window_deadline is None
    # Nothing else fires for it: the ETA task and the sweep both found it done.
    time_passes(3 * SWEEP_SECONDS)
    assert len(closings(table)) == 1


def time_passes(seconds: float) -> None:
    import time

    time.sleep(seconds)


def test_a_killed_worker_loses_no_deadline_and_doubles_none(start_worker, alice, bob, carol):
    first = start_worker()
    table = people_table(alice, bob, carol, window_seconds=3)
    table = open_window(table, users_by_seat(table))
    # The ETA task is now reserved (unacknowledged) by the first worker: kill it outright.
    time_passes(0.5)
    first.kill()
    assert not closings(table)
    start_worker()
    ready = timezone.now()  # start_worker returns once the worker says it is ready
    found = wait_for(lambda: closings(table), 3 + 10, "the window's timer after the restart")
    assert len(found) == 1
    # The new worker's sweep fired it (the killed worker's task is only redelivered after the
    # visibility timeout, and then finds nothing to do), a sweep or two after the deadline or
    # after the worker came up, whichever was later (a loaded machine starts it slowly).
    late = (found[0].created - max(table.window_deadline, ready)).total_seconds()
    assert late < 5, late
    time_passes(4 * SWEEP_SECONDS)
    assert len(closings(table)) == 1


def test_a_task_delivered_twice_acts_once(worker: WorkerProcess, alice, bob, carol):
    table = people_table(alice, bob, carol, window_seconds=2)
    table = open_window(table, users_by_seat(table))
    version, deadline = table.version, table.window_deadline
    # Delivered early: nothing happens, the window stays open.
    tasks.close_buy_window.apply_async((table.pk, version), queue=worker.queue)
    time_passes(0.5)
    table.refresh_from_db()
    assert table.version == version and table.state["window"] is not None
    # Delivered twice more at the deadline (beside the one the commit queued): one closing.
    for _ in range(2):
        tasks.close_buy_window.apply_async((table.pk, version), eta=deadline, queue=worker.queue)
    wait_for(lambda: closings(table), 2 + 5, "the window's timer")
    time_passes(1 + 2 * SWEEP_SECONDS)
    assert len(closings(table)) == 1
    table.refresh_from_db()
    assert table.version == version + 1


def bot_table(alice: Any, **options: Any) -> Table:
    table = services.table_create(host=alice, seats=3, **options)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed=BOT_SEED)
    table.refresh_from_db()
    return table


def test_a_turn_clock_runs_out_and_the_bot_plays(worker: WorkerProcess, alice):
    table = bot_table(alice, turn_seconds=2, window_seconds=600)
    assert engine.seats_to_act(table.state) == [0] and table.state["phase"] == "draw"
    deadline = table.turn_deadline
    timeout = wait_for(
        lambda: Move.objects.filter(table=table, action__type="timeout").first(),
        2 + 5,
        "the turn clock",
    )
    assert (timeout.created - deadline).total_seconds() < LATE
    kinds = [e["type"] for e in timeout.events]
    assert kinds[0] == "timed_out" and "strike" in kinds
    assert any(e.get("auto") and e["type"] == "drew" for e in timeout.events)
    assert Seat.objects.get(table=table, user=alice).missed_turns == 1
    # The bots played on after it, in the same transaction.
    assert Move.objects.filter(table=table, seq__gt=timeout.seq, by_bot=True).exists()


def test_strikes_in_a_row_expel_and_a_bot_finishes(worker: WorkerProcess, alice):
    table = bot_table(alice, turn_seconds=1, window_seconds=1, strikes=2)
    seat = wait_for(
        lambda: Seat.objects.filter(table=table, user=alice, expelled=True).first(),
        25,
        "two strikes",
    )
    assert seat.missed_turns == 2
    strikes = [
        e
        for m in Move.objects.filter(table=table, action__type="timeout")
        for e in m.events
        if e["type"] in ("strike", "expelled")
    ]
    assert [e["type"] for e in strikes] == ["strike", "strike", "expelled"]
    table = wait_for(
        lambda: Table.objects.filter(pk=table.pk, status=Table.Status.FINISHED).first(),
        15,
        "the bots to finish the game",
    )
    # Rounds from the expulsion on are marked for ratings: alice's seat is no bot seat, so a
    # round of hers the bot played is one she was expelled by the end of.
    assert RoundRecord.objects.filter(table=table, seat=0, user=alice, by_bot=True).exists()
    assert Seat.objects.get(table=table, user=alice).expelled


def test_standing_orders_close_a_window_without_waiting(worker: WorkerProcess, alice, bob, carol):
    table = people_table(alice, bob, carol, window_seconds=30)
    users = users_by_seat(table)
    active = engine.seats_to_act(table.state)[0]
    for position, user in users.items():
        if position != active:
            services.seat_set_buy_order(table_id=table.pk, user=user, order="never")
    table.refresh_from_db()
    before = timezone.now()
    active_user = users[active]
    services.table_submit_action(
        table_id=table.pk,
        user=active_user,
        action={"type": "draw", "source": "stock"},
        expect_version=table.version,
    )
    table.refresh_from_db()
    # Answered early [D] or in the same transaction: no window is left open, no timer set.
    assert table.state["window"] is None and table.window_deadline is None
    assert timezone.now() - before < timedelta(seconds=1)
    answers = Move.objects.filter(table=table, action__standing_order=True)
    assert answers.count() == 2
    time_passes(2 * SWEEP_SECONDS)
    assert not closings(table)
