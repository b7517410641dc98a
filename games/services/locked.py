"""Changes to a locked table: the one public layer that writes a table's version and clocks.

Every ``do_*`` function here (and ``Transition``, ``do_seats_changed`` in transition.py) is a
change *under the lock*, as Zulip's ``zerver/actions`` ``do_*`` functions are: the caller has
locked the table's row with :func:`~games.services.locking.lock_table_with_seats` inside
``transaction.atomic()`` and keeps the transaction open until the change is written. Each
bumps the table's version once, so every client's ``expect_version`` goes stale, and announces
the new version after the commit (never before: a socket that read the table before the commit
would send the old view as new).

The services of ``games`` (tables, play, vacation, rematch) and of other apps (moderation, and
whatever comes next: friends, tournaments) change a table through these, never by writing
``version``, the deadlines or the status themselves. All are exported from ``games.services``
and listed in docs/ARCHITECTURE.md ("Changing a table").
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from games import broadcast
from games.models import Table

from . import enqueue, recent

# The columns of a table's clocks: a deadline, a running turn, a reminder.
CLOCK_FIELDS = ("window_deadline", "turn_deadline", "turn_started", "remind_at")


def do_announce(table: Table, committed: recent.Committed | None = None) -> None:
    """Under the lock, once the change is written: after this transaction commits, announce the
    table's version to its sockets, then queue the timers of its near deadlines (if this change
    claimed them, ``table.timers_queued``).

    ``committed``: a Transition's commit, whose table, seats and moves the frames of this version
    may use as they are (recent.py). A failing broadcast or broker never turns the answer of a
    change that went through into an error: the change is committed, and the client's retry
    would be refused as stale."""
    table_id, version = table.pk, table.version
    deadlines = (table.window_deadline, table.turn_deadline)
    queue = table.timers_queued == version

    def after_commit() -> None:
        if committed is not None:
            recent.remember(committed.table, committed.seats, committed.moves)
        try:
            # First: the broadcast stamps the commit time as it starts.
            broadcast.table_changed(table_id, version)
        finally:
            enqueue.table_moved_on(table_id, version)
            if queue:
                # Never raises: a timer the broker did not take is queued by the sweep.
                enqueue.queue_deadlines(table_id, version, *deadlines)

    transaction.on_commit(after_commit, robust=True)


def do_bump_version(
    table: Table, *, fields: Sequence[str] = (), queue_timers: bool | None = None
) -> int:
    """Under the lock: save ``fields`` of ``table`` (already set by the caller) with a new
    version, and announce it after the commit. Returns the new version.

    ``queue_timers``: the change moved a deadline; True when it is near enough that this change
    queues its timer after the commit (``clocks.near``), False when the sweep will."""
    table.version += 1
    saved = ["version", "updated", *fields]
    if queue_timers is not None:
        table.timers_queued = table.version if queue_timers else None
        saved.append("timers_queued")
    table.save(update_fields=saved)
    do_announce(table)
    return table.version


def do_stop_clocks(table: Table) -> tuple[str, ...]:
    """Under the lock, as a game ends (finished or aborted): no deadline, no running turn, no
    reminder. Sets the fields only; returns their names for the caller's write."""
    table.window_deadline = table.turn_deadline = table.turn_started = None
    table.remind_at = None
    return CLOCK_FIELDS


def do_end_game(table: Table, *, status: Table.Status, options: dict | None = None) -> int:
    """Under the lock: end the table now with ``status`` (a moderator's abort: ``ABORTED``),
    clocks stopped, ``options`` saved when given (why it ended), a new version announced.
    A game that ends by its last move ends in ``Transition.commit`` instead (with its
    statistics). Returns the new version."""
    table.status = status
    fields = ["status", *do_stop_clocks(table)]
    if options is not None:
        table.options = options
        fields.append("options")
    return do_bump_version(table, fields=fields)
