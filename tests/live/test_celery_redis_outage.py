"""A Celery worker outlives a Redis outage by itself (issue 14, the Redis drill).

The worker holds a buy window's timer task (an ETA task, unacknowledged: ``acks_late``) when
its Redis stops. It used to exit ("Unrecoverable error": kombu's Redis transport could not give
the task back once the connection was collected, mayi_site/celery_broker.py), and the timers
then waited for a process manager to start it again. Now it reconnects when Redis returns
(empty, as after a restart without persistence), its sweep closes the window whose task Redis
lost, exactly once, and the timers queued afterwards fire on time.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import pytest

from games import services
from tests.live.celeryworker import SWEEP_SECONDS, WorkerProcess, wait_for
from tests.live.test_celery import LATE, closings, open_window, people_table, users_by_seat
from tests.redis_down import OwnRedis, own_redis  # noqa: F401 (own_redis: a fixture)

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def test_a_worker_survives_redis_going_away_with_a_timer_in_hand(
    celery_queue: str,
    own_redis: OwnRedis,  # noqa: F811 (the fixture imported above)
    alice,
    bob,
    carol,
):
    worker = WorkerProcess(
        celery_queue, Path(tempfile.mkdtemp(prefix="mayi-celery-")), own_redis.url
    )
    worker.start()
    try:
        table = people_table(alice, bob, carol, window_seconds=3)
        users = users_by_seat(table)
        table = open_window(table, users)
        wait_for(lambda: "close_buy_window" in worker.output(), 5, "the worker to hold the timer")

        own_redis.stop()
        # The worker sees its connection close at once; Redis stays away past the deadline.
        time.sleep(3.5)
        assert worker.proc is not None and worker.proc.poll() is None, worker.output()[-3000:]
        own_redis.start()

        # Redis came back empty: the timer task is gone, and the worker's sweep closes the
        # window once it has reconnected (its first retry is 2 s after the loss).
        found = wait_for(lambda: closings(table), 15, "the window closed after the outage")
        assert len(found) == 1
        assert worker.proc.poll() is None, worker.output()[-3000:]
        assert "Unrecoverable error" not in worker.output()

        # A timer queued after the outage fires on time, by its own task.
        table.refresh_from_db()
        active = table.state["active"]
        services.table_submit_action(
            table_id=table.pk,
            user=users[active],
            action={"type": "discard", "card": table.state["hands"][active][0]},
            expect_version=table.version,
        )
        table.refresh_from_db()
        table = open_window(table, users)
        deadline = table.window_deadline
        later = wait_for(lambda: closings(table)[1:], 3 + 5, "the next window's timer")
        assert 0 <= (later[0].created - deadline).total_seconds() < LATE
        time.sleep(3 * SWEEP_SECONDS)
        assert len(closings(table)) == 2
        assert worker.proc.poll() is None
    finally:
        worker.stop()
