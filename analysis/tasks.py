"""Celery tasks of the analysis app, on its own queue (``MAYI_ANALYSIS_QUEUE``): thin, each
calls one service."""

from __future__ import annotations

from celery import shared_task

from . import run, services


@shared_task(name=services.ANALYSE_GAME, ignore_result=True)
def analyse_game(table_id: int) -> str:
    """One slice of a finished game's analysis (the next one is queued by this one)."""
    return run.analysis_run_slice(table_id=table_id)


@shared_task(name=services.SWEEP, ignore_result=True)
def sweep() -> int:
    """Queue the games waiting for their analysis while the queue has room (beat)."""
    return services.analysis_sweep()
