"""Celery tasks of moderation: thin, through the services."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="moderation.tasks.expire_restrictions", ignore_result=True)
def expire_restrictions() -> int:
    """Suspensions and mutes whose time is up end (the beat runs this every minute)."""
    return services.restrictions_expire()


@shared_task(name="moderation.tasks.purge_sign_in_traces", ignore_result=True)
def purge_sign_in_traces() -> int:
    """Linked accounts' traces not seen for 90 days are forgotten (the beat, hourly)."""
    return services.sign_in_traces_purge()


@shared_task(name="moderation.tasks.report_timeouts", ignore_result=True)
def report_timeouts() -> int:
    """Members expelled by the clock in 3 games in 7 days are reported (every 10 minutes)."""
    return len(services.reports_for_timeouts())
