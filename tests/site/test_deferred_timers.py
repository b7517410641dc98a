"""A daphne process sends a near deadline's task just before it falls due, and none for a table
that moved on (games/services/deferred_timers.py); elsewhere the task goes at the commit."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.services import deferred_timers, enqueue


@pytest.fixture
def sent(monkeypatch, settings) -> Iterator[list[tuple[str, tuple, Any, float]]]:
    """The timer tasks handed to the broker: (name, args, eta, monotonic time sent)."""
    settings.MAYI_TIMER_LEAD = 0.3
    out: list[tuple[str, tuple, Any, float]] = []

    def send_task(name, args, *, queue, eta=None, **options):
        out.append((name, args, eta, time.monotonic()))

    monkeypatch.setattr(enqueue, "send_task", send_task)
    yield out
    deferred_timers._tables.clear()  # a loop of a test that failed leaves its tasks behind


def _in_server_thread(fn, *args):
    # What a request's on_commit hook runs in under daphne: a thread asgiref gave the loop to.
    return sync_to_async(fn, thread_sensitive=False)(*args)


def test_a_window_left_open_gets_its_task_just_before_its_deadline(sent):
    async def scenario() -> None:
        deadline = timezone.now() + timedelta(seconds=0.8)
        began = time.monotonic()
        assert await _in_server_thread(enqueue.queue_deadlines, 7, 3, deadline, None) == 1
        await asyncio.sleep(0.2)
        assert sent == [], "sent at the commit: it should wait until the lead"
        assert deferred_timers.waiting() == 1
        await asyncio.sleep(0.7)
        assert [(name, args, eta) for name, args, eta, _ in sent] == [
            (enqueue.CLOSE_BUY_WINDOW, (7, 3), deadline)
        ]
        # Sent MAYI_TIMER_LEAD (0.3 s) before the deadline, 0.8 s after the commit.
        assert 0.4 <= sent[0][3] - began <= 0.75
        assert deferred_timers.waiting() == 0

    asyncio.run(scenario())


def test_a_window_answered_before_its_timer_costs_no_task(sent):
    async def scenario() -> None:
        soon = timezone.now() + timedelta(seconds=0.5)
        await _in_server_thread(enqueue.queue_deadlines, 8, 4, soon, soon)
        # The next move of the table commits in this process: version 5 moved it on.
        await _in_server_thread(enqueue.table_moved_on, 8, 5)
        later = timezone.now() + timedelta(seconds=0.6)
        await _in_server_thread(enqueue.queue_deadlines, 8, 5, None, later)
        await asyncio.sleep(0.8)
        assert [(name, args) for name, args, _, _ in sent] == [(enqueue.TIMEOUT_TURN, (8, 5))]
        # Another table's tasks are its own.
        await _in_server_thread(enqueue.queue_deadlines, 9, 4, soon, None)
        await _in_server_thread(enqueue.table_moved_on, 8, 6)
        await asyncio.sleep(0.1)
        assert [args for _, args, _, _ in sent] == [(8, 5), (9, 4)]

    asyncio.run(scenario())


def test_outside_a_server_the_task_goes_at_the_commit(sent):
    # A Celery task's commit or the sweep: no server loop, nothing waits.
    deadline = timezone.now() + timedelta(seconds=30)
    assert enqueue.queue_deadlines(5, 2, deadline, None) == 1
    assert [(name, args, eta) for name, args, eta, _ in sent] == [
        (enqueue.CLOSE_BUY_WINDOW, (5, 2), deadline)
    ]


def test_a_negative_lead_sends_at_the_commit_in_a_server_too(sent, settings):
    settings.MAYI_TIMER_LEAD = -1

    async def scenario() -> None:
        await _in_server_thread(
            enqueue.queue_deadlines, 6, 1, timezone.now() + timedelta(seconds=30), None
        )

    asyncio.run(scenario())
    assert [args for _, args, _, _ in sent] == [(6, 1)]


def test_a_clean_exit_sends_what_still_waits(sent):
    async def scenario() -> None:
        far = timezone.now() + timedelta(seconds=60)
        await _in_server_thread(enqueue.queue_deadlines, 11, 2, far, None)
        await asyncio.sleep(0.05)
        assert deferred_timers.waiting() == 1

    asyncio.run(scenario())
    assert sent == []
    deferred_timers._send_waiting_at_exit()
    assert [(name, args) for name, args, _, _ in sent] == [(enqueue.CLOSE_BUY_WINDOW, (11, 2))]
    assert deferred_timers.waiting() == 0
