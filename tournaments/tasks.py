"""Celery: the tournaments' tick, run by the beat every MAYI_TOURNAMENT_TICK_SECONDS."""

from __future__ import annotations

from celery import shared_task

from tournaments.services import tournament_advance, tournaments_tick
from tournaments.services.notify import round_push_ready


@shared_task(name="tournaments.tasks.tick", ignore_result=True)
def tick() -> dict[str, int]:
    """Idempotent: two ticks at once, or one run again, pair a round once."""
    return tournaments_tick()


# Named explicitly: the pairing queues it by name after its commit (services/notify.py).
@shared_task(name="tournaments.tasks.push_tables_ready", ignore_result=True)
def push_tables_ready(round_id: int) -> dict[str, str]:
    """Push "your table is ready" to the round's players (once each: notify's PushSent)."""
    return round_push_ready(round_id=round_id)


# Named explicitly: a tournament table's end queues it by name (services.tournament_table_ended).
@shared_task(name="tournaments.tasks.advance", ignore_result=True)
def advance(tournament_id: int) -> dict[str, int]:
    """One tournament's step (as the tick's): idempotent, so a repeated task does nothing."""
    return tournament_advance(tournament_id=tournament_id)
