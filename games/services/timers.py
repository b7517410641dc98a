"""Deadline timers: the sweep that fires overdue deadlines and queues the ones that came near
(the task of a near deadline is queued after the commit that set it: ``enqueue.py``).

The deadline is a column of the table row; Redis only carries a reminder to look at it. Each
platform action re-checks the deadline (and the version, when given) under the table's row lock
(:mod:`games.services.play`), so a task delivered late, early or twice does nothing wrong, and
a task lost with a worker or a flushed Redis costs one sweep interval.
"""

from __future__ import annotations

import functools
import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from games.engine import IllegalMove
from games.models import Table

from . import enqueue
from .errors import ServiceError
from .play import table_close_buy_window, table_timeout_turn
from .rows import column_of

logger = logging.getLogger("games.timers")

SWEEP_BATCH = 50


def moved_on(*, table_id: int, version: int) -> bool:
    """Whether the table is past ``version`` (or gone), from one unlocked read: a timer task
    queued for that version then has nothing to do, since versions only grow and the change
    that moved the table on set (and queued) its own deadlines. Most timer tasks are such:
    a buy window answered by every seat long before its timer, whose task once took the lock,
    read the table with its seats and looked for an early deadline to find nothing."""
    with connection.cursor() as cursor:
        cursor.execute(_version_sql(), [table_id])
        row = cursor.fetchone()
    return row is None or row[0] != version


@functools.cache
def _version_sql() -> str:
    # Hand-compiled: the queryset's compilation was a third of a timer worker's CPU.
    return (
        f"SELECT {column_of(Table, 'version')} FROM {connection.ops.quote_name(Table._meta.db_table)} "
        f"WHERE {column_of(Table)} = %s"
    )


def requeue_if_early(
    *, table_id: int, version: int, field: str, now: datetime | None = None
) -> bool:
    """A timer task that arrived before its deadline (clocks of two hosts, a broker that
    delivered early) queues itself again for the deadline rather than leave it to the sweep,
    if the table is still at ``version``. True if it did."""
    now = now or timezone.now()
    row = Table.objects.filter(pk=table_id, version=version).values(field).first()
    deadline = row and row[field]
    if not deadline or deadline <= now:
        return False
    if field == "window_deadline":
        return bool(enqueue.queue_deadlines(table_id, version, deadline, None, now=now))
    return bool(enqueue.queue_deadlines(table_id, version, None, deadline, now=now))


def fire_overdue(*, now: datetime | None = None, limit: int = SWEEP_BATCH) -> int:
    """Apply the platform action of every overdue deadline (at most ``limit`` tables).

    The rows are claimed with ``SELECT ... FOR UPDATE SKIP LOCKED``: a table a move is being
    applied to right now is skipped (its commit sets new deadlines anyway), and two sweeps
    running at once take disjoint rows. The timer services then re-check the deadline under
    that same lock, so a table whose ETA task fired a moment ago is left alone.
    """
    now = now or timezone.now()
    fired = 0
    with transaction.atomic():
        rows = list(
            Table.objects.select_for_update(skip_locked=True)
            .filter(status=Table.Status.PLAYING)
            .filter(Q(window_deadline__lte=now) | Q(turn_deadline__lte=now))
            .order_by("pk")
            .values_list("pk", "window_deadline", "turn_deadline")[:limit]
        )
        for table_id, window_deadline, turn_deadline in rows:
            try:
                if window_deadline is not None and window_deadline <= now:
                    fired += table_close_buy_window(table_id=table_id, now=now)
                # The window's closing may have ended the turn; the service re-checks.
                if turn_deadline is not None and turn_deadline <= now:
                    fired += table_timeout_turn(table_id=table_id, now=now)
            except (ServiceError, IllegalMove) as exc:
                logger.error("sweep: table %s: %s", table_id, exc)
    if fired:
        logger.info("sweep fired %s overdue deadline(s)", fired)
    return fired


def queue_near(*, now: datetime | None = None, limit: int = SWEEP_BATCH) -> int:
    """Queue the ETA tasks of deadlines that came within the horizon since they were set.

    Each table's near deadlines are queued once per version: claimed by the conditional
    update of ``timers_queued``, so sweeps that overlap never queue them twice.
    """
    now = now or timezone.now()
    horizon = now + timedelta(seconds=settings.MAYI_TIMER_HORIZON)
    claimed = []
    with transaction.atomic():
        rows = list(
            Table.objects.select_for_update(skip_locked=True)
            .filter(status=Table.Status.PLAYING)
            .filter(Q(window_deadline__lte=horizon) | Q(turn_deadline__lte=horizon))
            .filter(Q(timers_queued__isnull=True) | ~Q(timers_queued=F("version")))
            .order_by("pk")
            .values_list("pk", "version", "window_deadline", "turn_deadline")[:limit]
        )
        for table_id, version, window_deadline, turn_deadline in rows:
            won = (
                Table.objects.filter(pk=table_id, version=version)
                .filter(Q(timers_queued__isnull=True) | ~Q(timers_queued=version))
                .update(timers_queued=version)
            )
            if won:
                claimed.append((table_id, version, window_deadline, turn_deadline))
    return sum(enqueue.queue_deadlines(*row, now=now) for row in claimed)
