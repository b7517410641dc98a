"""Celery tasks of moderation: thin, through the services."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="moderation.tasks.expire_restrictions", ignore_result=True)
def expire_restrictions() -> int:
    """Suspensions and mutes whose time is up end (the beat runs this every minute)."""
    return services.restrictions_expire()
