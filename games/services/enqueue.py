"""Queue Celery tasks by name: the services' one way to the task queue, and the timer tasks
of a table's near deadlines.

``games/tasks.py`` imports the services (a task calls one), so the services never import the
tasks: they send a task by the name it is registered under (``shared_task(name=...)`` in
games/tasks.py; a test checks that every name here is a registered task).
"""

from __future__ import annotations

import functools
import logging
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import broadcast

from . import deferred_timers

logger = logging.getLogger("games.timers")

CLOSE_BUY_WINDOW = "games.tasks.close_buy_window"
TIMEOUT_TURN = "games.tasks.timeout_turn"
SEND_REMINDER = "games.tasks.send_reminder"
# The notify app's (notify/tasks.py): pushes about a table's change, a chat message naming
# players.
NOTIFY_TABLE = "notify.tasks.push_table_notices"
NOTIFY_MENTION = "notify.tasks.push_mentions"
NOTIFY_INVITATION = "notify.tasks.push_invitation"

TASK_NAMES = (
    CLOSE_BUY_WINDOW,
    TIMEOUT_TURN,
    SEND_REMINDER,
    NOTIFY_TABLE,
    NOTIFY_MENTION,
    NOTIFY_INVITATION,
)


def send_task(
    name: str, args: tuple[Any, ...], *, queue: str, eta: datetime | None = None, **options: Any
) -> None:
    """Queue task ``name`` with ``args`` on ``queue`` (raises what the broker raises)."""
    current_app.send_task(name, args=args, queue=queue, eta=eta, **options)


def send_task_after_commit(name: str, args: tuple[Any, ...], *, queue: str, what: str) -> None:
    """After this transaction commits, queue task ``name`` with ``args`` (for any app: chat's
    mentions too). A broker that refuses it loses it, logged as ``what``: the change it follows
    is committed and must not turn into an error."""

    def after_commit() -> None:
        try:
            send_task(name, args, queue=queue)
        except Exception:
            logger.exception("could not queue %s", what)

    transaction.on_commit(after_commit, robust=True)


def queue_deadlines(
    table_id: int,
    version: int,
    window_deadline: datetime | None,
    turn_deadline: datetime | None,
    *,
    now: datetime | None = None,
) -> int:
    """Queue an ETA task for each deadline within the horizon (after commit). Returns how many.

    In a server process the task goes to the broker only ``MAYI_TIMER_LEAD`` seconds before its
    deadline, and not at all if this process commits a newer version of the table first
    (deferred_timers.py); elsewhere (a Celery task's commit, the sweep), at once. A broker
    that is down is logged, never raised: the sweep fires the deadline anyway.
    """
    now = now or timezone.now()
    horizon = now + timedelta(seconds=settings.MAYI_TIMER_HORIZON)
    lead = settings.MAYI_TIMER_LEAD
    loop = broadcast.server_loop() if lead >= 0 else None
    queued = 0
    for deadline, task in (
        (window_deadline, CLOSE_BUY_WINDOW),
        (turn_deadline, TIMEOUT_TURN),
    ):
        if deadline is None or deadline > horizon:
            continue
        send = functools.partial(_send_timer, task, table_id, version, deadline)
        if loop is not None:
            delay = (deadline - now).total_seconds() - lead
            deferred_timers.defer(loop, table_id, version, send, delay)
        elif not send():
            continue
        queued += 1
    return queued


def table_moved_on(table_id: int, version: int) -> None:
    """After ``version`` of the table committed in this process: the deferred timers of its
    older versions are not needed any more (a server process's; elsewhere nothing waits)."""
    loop = broadcast.server_loop()
    if loop is not None:
        deferred_timers.moved_on(loop, table_id, version)


def _send_timer(task: str, table_id: int, version: int, deadline: datetime) -> bool:
    try:
        send_task(
            task,
            (table_id, version),
            eta=deadline,
            queue=settings.CELERY_TASK_DEFAULT_QUEUE,
            # Expire well after the sweep would have fired it: a task that waited that long in
            # a broker is stale for sure.
            expires=deadline + timedelta(seconds=settings.MAYI_TIMER_HORIZON),
            retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.2},
        )
    except Exception:
        logger.exception("could not queue a timer for table %s", table_id)
        return False
    return True
