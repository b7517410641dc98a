"""Tournament services: registration, rounds and the tick; each change in its own
transaction under the tournament's row lock (docs/TOURNAMENTS.md)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from games.models import Seat, Table
from games.services import send_task_after_commit
from tournaments.models import RoundTable

from .common import lock_tournament, seat_range
from .errors import NotCreator, TournamentNotFound
from .registration import (
    registrations_close_due,
    tournament_create,
    tournament_join,
    tournament_start,
    tournament_withdraw,
)
from .rounds import deal_seed, pair_next_round, round_score, rounds_advance, tournament_advance

logger = logging.getLogger("tournaments")

ADVANCE = "tournaments.tasks.advance"


def tournaments_tick(*, now: datetime | None = None) -> dict[str, int]:
    """One tick of the beat (``manage.py tournaments_tick``): start the tournaments whose
    registration closed, finish the tables of rounds past their deadline by the bots, score
    the rounds whose tables all ended, pair the next rounds. Idempotent: a second run at once
    finds nothing to do."""
    now = now or timezone.now()
    return {"started": registrations_close_due(now=now), **rounds_advance(now=now)}


def tournament_table_ended(*, table: Table, seats: Sequence[Seat], now: datetime) -> None:
    """games' game-ended hook (games/hooks.py), inside the transaction of the game's last
    move: a tournament table's end queues its tournament's next step after the commit (score
    the round if it was the last table, pair the next). Nothing of the tournament is locked
    here, so a move never waits on a pairing; the tick does the same step if the task is lost."""
    if not table.options.get("duplicate"):
        return
    found = (
        RoundTable.objects.filter(table_id=table.pk)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if found is not None:
        send_task_after_commit(
            ADVANCE,
            (found,),
            queue=settings.CELERY_TASK_DEFAULT_QUEUE,
            what=f"the next step of tournament {found}",
        )


__all__ = [
    "NotCreator",
    "TournamentNotFound",
    "deal_seed",
    "lock_tournament",
    "pair_next_round",
    "round_score",
    "rounds_advance",
    "seat_range",
    "tournament_create",
    "tournament_join",
    "tournament_start",
    "tournament_withdraw",
    "tournament_advance",
    "tournament_table_ended",
    "tournaments_tick",
]
