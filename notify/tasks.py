"""Celery tasks of the notify app: thin, each takes ids and calls one service. They run on the
mail queue (MAYI_MAIL_QUEUE), beside the reminder emails: a slow push service never holds up a
turn clock."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from . import digest, nudges, services


@shared_task(name="notify.tasks.push_table_notices", ignore_result=True)
def push_table_notices(table_id: int, notices: list[list[Any]]) -> dict[str, str]:
    return services.push_table_notices(table_id=table_id, notices=notices)


@shared_task(name="notify.tasks.push_mentions", ignore_result=True)
def push_mentions(message_id: int) -> dict[str, str]:
    return services.push_mentions(message_id=message_id)


@shared_task(name="notify.tasks.push_invitation", ignore_result=True)
def push_invitation(invitation_id: int) -> str:
    return services.push_invitation(invitation_id=invitation_id)


@shared_task(name="notify.tasks.deliver_nudge", ignore_result=True)
def deliver_nudge(nudge_id: int) -> str:
    return nudges.nudge_deliver(nudge_id=nudge_id)


@shared_task(name="notify.tasks.send_digests", ignore_result=True)
def send_digests() -> dict[str, int]:
    """Beat, every hour: the digests whose local hour it is (and old push records pruned)."""
    services.push_sent_prune()
    return digest.digests_send()
