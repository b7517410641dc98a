"""Reminder emails: when they fall due, who gets them, quiet hours, and never twice."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from accounts.models import Profile
from games import presence
from games.models import Reminder, Table
from games.services import reminders
from games.services.clocks import REMIND_DONE, REMIND_HALF, REMIND_LATE

from .test_timebank import bank_table


@pytest.fixture(autouse=True)
def _offline(alice: Any) -> None:
    presence.mark_offline(alice.pk)


def due_rows(table: Table, now: datetime) -> list[Reminder]:
    reminders.reminders_create_due(now=now)
    return list(Reminder.objects.filter(table=table).order_by("pk"))


def test_stages_fall_due_at_the_turn_then_half_and_80_percent(alice, settings):
    table = bank_table(alice, turn_seconds=1000)
    start = table.turn_started
    assert table.remind_at == start + timedelta(seconds=settings.MAYI_TURN_REMINDER_DELAY)
    assert due_rows(table, start) == []
    rows = due_rows(table, table.remind_at)
    assert [r.kind for r in rows] == ["turn"]
    table.refresh_from_db()
    assert table.remind_stage == REMIND_HALF and table.remind_at == start + timedelta(seconds=500)
    rows = due_rows(table, start + timedelta(seconds=500))
    table.refresh_from_db()
    assert table.remind_stage == REMIND_LATE and table.remind_at == start + timedelta(seconds=800)
    rows = due_rows(table, start + timedelta(seconds=800))
    assert [r.kind for r in rows] == ["turn", "half", "late"]
    table.refresh_from_db()
    assert table.remind_stage == REMIND_DONE and table.remind_at is None
    # A sweep running again writes nothing more.
    assert len(due_rows(table, start + timedelta(seconds=900))) == 3


def test_a_reminder_is_sent_once_with_a_link(alice, settings, django_capture_on_commit_callbacks):
    settings.MAYI_SITE_URL = "https://mayi.example"
    table = bank_table(alice, turn_seconds=1000)
    (row,) = due_rows(table, table.remind_at)
    # The email leaves after the commit that marks it sent.
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders.reminder_send(reminder_id=row.pk) == "sent"
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders.reminder_send(reminder_id=row.pk) == "gone"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert f"https://mayi.example/tables/{table.pk}/" in message.body
    row.refresh_from_db()
    assert row.status == "sent" and row.sent is not None


def test_no_email_when_online_opted_out_on_vacation_or_turn_over(alice):
    table = bank_table(alice, turn_seconds=1000)
    (row,) = due_rows(table, table.remind_at)
    presence.mark_online(alice.pk)
    assert reminders.reminder_send(reminder_id=row.pk) == "skipped: online"
    presence.mark_offline(alice.pk)

    rows = due_rows(table, table.turn_started + timedelta(seconds=500))
    Profile.objects.create(user=alice, email_clock=False)
    assert reminders.reminder_send(reminder_id=rows[-1].pk) == "skipped: opted out"

    rows = due_rows(table, table.turn_started + timedelta(seconds=800))
    Table.objects.filter(pk=table.pk).update(turn_seq=table.turn_seq + 1)
    assert reminders.reminder_send(reminder_id=rows[-1].pk) == "skipped: turn over"
    assert mail.outbox == []


def test_quiet_hours_hold_a_reminder_until_they_end(alice):
    table = bank_table(alice, turn_seconds=1000)
    (row,) = due_rows(table, table.remind_at)
    Profile.objects.create(
        user=alice, quiet_start=time(22, 0), quiet_end=time(7, 30), time_zone="Europe/Paris"
    )
    # 23:00 in Paris (22:00 UTC in winter): held until 07:30 Paris (06:30 UTC) the next day.
    night = datetime(2026, 1, 15, 22, 0, tzinfo=UTC)
    assert reminders.reminder_send(reminder_id=row.pk, now=night) == "deferred"
    row.refresh_from_db()
    assert row.status == "pending" and row.due == datetime(2026, 1, 16, 6, 30, tzinfo=UTC)
    assert mail.outbox == []


def test_quiet_hours_arithmetic():
    profile = Profile(quiet_start=time(9, 0), quiet_end=time(17, 0), time_zone="UTC")
    at = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    assert reminders.quiet_until(profile, at) == datetime(2026, 3, 1, 17, 0, tzinfo=UTC)
    assert reminders.quiet_until(profile, at.replace(hour=8)) is None
    assert reminders.quiet_until(profile, at.replace(hour=17)) is None
    night = Profile(quiet_start=time(23, 0), quiet_end=time(6, 0), time_zone="Not/AZone")
    assert reminders.quiet_until(night, at.replace(hour=3)) == at.replace(hour=6)
    assert reminders.quiet_until(Profile(), at) is None


def test_the_sweep_queues_each_due_reminder_once(alice, monkeypatch):
    from games.services import enqueue

    table = bank_table(alice, turn_seconds=1000)
    sent: list[tuple[int, str]] = []
    monkeypatch.setattr(
        enqueue,
        "send_task",
        lambda name, args, **kw: (
            sent.append((args[0], kw["queue"])) if name == "games.tasks.send_reminder" else None
        ),
    )
    now = table.remind_at
    assert reminders.reminders_queue_due(now=now) == 1
    assert reminders.reminders_queue_due(now=now) == 0
    assert len(sent) == 1
    # On the mail queue: a slow mail server never holds up the timers' queue.
    assert sent[0][1] == settings.MAYI_MAIL_QUEUE != settings.CELERY_TASK_DEFAULT_QUEUE
    # A queued reminder whose task was lost is queued again, later.
    assert reminders.reminders_queue_due(now=now + timedelta(minutes=6)) == 1


def test_presence_marks_signed_in_requests(alice, client):
    assert not presence.is_online(alice.pk)
    client.force_login(alice)
    client.get("/")
    assert presence.is_online(alice.pk)
    assert timezone.now()  # the mark has a time to live; nothing to clean up


def test_a_short_clock_gets_no_half_or_80_percent_email(alice):
    table = bank_table(alice, turn_seconds=300)
    for _ in range(3):  # one stage per sweep
        rows = due_rows(table, table.turn_started + timedelta(seconds=299))
    assert [r.kind for r in rows] == ["turn"]
    table.refresh_from_db()
    assert table.remind_stage == REMIND_DONE
