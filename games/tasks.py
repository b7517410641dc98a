"""Celery tasks: thin; each takes ids and calls one service (the services hold the rules).

A timer task re-checks everything under the table's row lock, so it may arrive late, early or
twice; one for a version the table has left does nothing from one unlocked read
(``timers.moved_on``). Lock contention is retried; a table that no longer exists is nothing to
do.
"""

from __future__ import annotations

import logging

from celery import shared_task

from games.services import reminders, timers
from games.services.errors import Busy, TableNotFound
from games.services.play import table_close_buy_window, table_timeout_turn
from mayi_site import metrics

logger = logging.getLogger("games.tasks")

RETRY = {"autoretry_for": (Busy,), "max_retries": 5, "default_retry_delay": 0.2}


# Named explicitly: the services queue these by name (games/services/enqueue.py).
@shared_task(name="games.tasks.close_buy_window", ignore_result=True, **RETRY)
def close_buy_window(table_id: int, version: int) -> bool:
    if timers.moved_on(table_id=table_id, version=version):
        return False
    try:
        if table_close_buy_window(table_id=table_id, expect_version=version):
            return True
    except TableNotFound:
        return False
    timers.requeue_if_early(table_id=table_id, version=version, field="window_deadline")
    return False


@shared_task(name="games.tasks.timeout_turn", ignore_result=True, **RETRY)
def timeout_turn(table_id: int, version: int) -> bool:
    if timers.moved_on(table_id=table_id, version=version):
        return False
    try:
        if table_timeout_turn(table_id=table_id, expect_version=version):
            return True
    except TableNotFound:
        return False
    timers.requeue_if_early(table_id=table_id, version=version, field="turn_deadline")
    return False


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> dict[str, int]:
    """Beat, every MAYI_SWEEP_SECONDS: fire overdue deadlines, queue the ones that came near."""
    fired = timers.fire_overdue()
    metrics.count_sweep("deadlines", fired)
    return {"fired": fired, "queued": timers.queue_near()}


@shared_task(name="games.tasks.sweep_reminders", ignore_result=True)
def sweep_reminders() -> int:
    """Beat, every MAYI_REMINDER_SWEEP_SECONDS, on the mail queue: queue the reminders that
    fell due (their emails go out on the mail queue too, never in the timers' way)."""
    metrics.count_sweep("reminders")
    return reminders.reminders_queue_due()


@shared_task(name="games.tasks.send_reminder", ignore_result=True, **RETRY)
def send_reminder(reminder_id: int) -> str:
    return reminders.reminder_send(reminder_id=reminder_id)
