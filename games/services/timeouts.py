"""Old timeouts made concrete in the move log: each timeout recorded without its plays (before
they were recorded) gets them, read back from its own events (``engine.recorded``), so that
its game replays the same whatever the bots become (docs/ARCHITECTURE.md, "A move is
recorded as played").

The only change ever made to a stored move, and one that adds what the move did without
changing it: a table is rewritten only when, with the plays found, every rewritten timeout
makes exactly the events stored with it and the whole log replays from the seed to the
table's stored state. A table that does not is left as it is and reported.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import transaction

from games.engine import timeouts_with_plays
from games.models import Move, Table


@dataclass
class TimeoutsRecorded:
    tables: int = 0  # tables whose log has (or had) bare timeouts, looked at
    rewritten: int = 0  # timeouts that got their plays
    problems: dict[int, str] = field(default_factory=dict)  # table id -> why it was left


def bare_timeout_tables() -> list[int]:
    """Tables with a timeout recorded without its plays."""
    rows = (
        Move.objects.filter(seat=None, action__type="timeout")
        .exclude(action__has_key="plays")
        .values_list("table_id", flat=True)
        .distinct()
    )
    return sorted(set(rows))


def tables_record_timeout_plays(
    *, table_ids: Iterable[int] | None = None, dry_run: bool = False
) -> TimeoutsRecorded:
    """Give the bare timeouts of these tables (default: all that have one) their plays, one
    table per transaction under its row lock (no move lands meanwhile). ``dry_run``: check
    and count, write nothing."""
    out = TimeoutsRecorded()
    wanted = bare_timeout_tables()
    if table_ids is not None:
        only = set(table_ids)
        wanted = [t for t in wanted if t in only]
    for table_id in wanted:
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None or table.state is None:
                continue
            out.tables += 1
            moves = list(
                Move.objects.filter(table=table)
                .order_by("seq")
                .only("pk", "seq", "seat", "action", "events")
            )
            found = timeouts_with_plays(table.state, [(m.seat, m.action, m.events) for m in moves])
            if found.problem is not None:
                out.problems[table_id] = found.problem
                continue
            out.rewritten += len(found.actions)
            if dry_run:
                continue
            for i, action in found.actions.items():
                # An update, not save(): Move.save refuses to touch a stored move.
                Move.objects.filter(pk=moves[i].pk).update(action=action)
    return out
