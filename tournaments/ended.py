"""Whether a round's tables have ended, read from their status.

A tournament learns that a table of theirs ended from games' game-ended hook
(``services.tournament_table_ended``, registered in apps.py), which queues the tournament's
step after the commit. The step itself, and the tick, read the tables' status here: so a task
lost with its broker, or a table a moderator aborted (no game ended), costs at most one tick
interval (``MAYI_TOURNAMENT_TICK_SECONDS``).
"""

from __future__ import annotations

from games.models import Table

from .models import Round

ENDED = (Table.Status.FINISHED, Table.Status.ABORTED)


def round_tables_ended(round_: Round) -> bool:
    """Has every table of the round ended (finished, or aborted by a moderator)?"""
    statuses = Table.objects.filter(tournament_table__round=round_).values_list("status", flat=True)
    return all(status in ENDED for status in statuses)


def round_tables_playing(round_: Round) -> list[int]:
    """The ids of the round's tables still being played."""
    return list(
        Table.objects.filter(tournament_table__round=round_)
        .exclude(status__in=ENDED)
        .values_list("pk", flat=True)
    )
