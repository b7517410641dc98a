"""Celery tasks of the privacy app: thin, each calls one service."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name=services.BUILD_EXPORT, ignore_result=True)
def build_export(export_id: int) -> str:
    return services.export_build(export_id=export_id)


@shared_task(name="privacy.tasks.expire_exports", ignore_result=True)
def expire_exports() -> int:
    return services.exports_expire()
