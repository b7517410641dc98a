"""Reminder emails sent by a real Celery worker process (its beat sweeps, its task sends).

alice plays two bots on a 10 s clock and is offline: the worker's sweep writes the "your turn"
reminder 1 s into her turn and the half-clock one at 5 s, its task sends each by email (to
files in EMAIL_FILE_PATH), and sweeping again, or the send task arriving twice,
sends nothing more.
"""

from __future__ import annotations

import email
from collections.abc import Callable
from datetime import timedelta
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games import presence, services, tasks
from games.models import Reminder, Table
from games.services.clocks import REMIND_TURN
from tests.live.celeryworker import SWEEP_SECONDS, WorkerProcess, wait_for

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

# With this seed alice (seat 0) is first to draw at a table with two bots (as in tests/site).
SEED = "site-tests-seed"
SITE = "https://mayi.example"
TURN_SECONDS = 10
TURN_SUBJECT = "it is your turn"
HALF_SUBJECT = "half of your clock is gone"


def delivered(mail_dir: Path) -> list[Message]:
    """The emails the file backend wrote: one file per connection, messages split by a rule."""
    messages = []
    for path in sorted(mail_dir.glob("*.log")):
        for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if chunk.strip():
                messages.append(email.message_from_bytes(chunk))
    return messages


def body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(message.get_content_charset() or "utf-8")


def about(messages: list[Message], subject_end: str) -> list[Message]:
    return [m for m in messages if str(m["Subject"]).endswith(subject_end)]


@pytest.fixture
def mail_worker(
    start_worker: Callable[[], WorkerProcess],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    settings: Any,
) -> tuple[WorkerProcess, Path]:
    """A worker that writes emails to a directory, sends the half-clock email even for a
    short clock, and links to ``SITE``."""
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    # The worker process copies this process's environment when it starts.
    monkeypatch.setenv("EMAIL_FILE_PATH", str(mail_dir))
    monkeypatch.setenv("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
    monkeypatch.setenv("MAYI_CLOCK_REMINDER_MIN", "1")
    monkeypatch.setenv("MAYI_TURN_REMINDER_DELAY", "1")
    monkeypatch.setenv("MAYI_SITE_URL", SITE)
    # This process starts the table, so it sets the first reminder's time.
    settings.MAYI_TURN_REMINDER_DELAY = 1
    return start_worker(), mail_dir


def test_the_worker_emails_an_offline_player_once_per_reminder(mail_worker, alice):
    worker, mail_dir = mail_worker
    presence.mark_offline(alice.pk)
    table = services.table_create(
        host=alice, seats=3, turn_seconds=TURN_SECONDS, window_seconds=600
    )
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed=SEED)
    table.refresh_from_db()
    assert table.turn_started is not None and table.remind_at is not None

    turn = wait_for(lambda: about(delivered(mail_dir), TURN_SUBJECT), 1 + 5, "the your-turn email")
    (message,) = turn
    assert message["To"] == alice.email
    assert str(message["Subject"]) == f"May I? table #{table.pk}: {TURN_SUBJECT}"
    text = body(message)
    assert f"{SITE}/tables/{table.pk}/" in text
    assert "It is your turn" in text

    half = wait_for(
        lambda: about(delivered(mail_dir), HALF_SUBJECT),
        TURN_SECONDS / 2 + 4,
        "the half-clock email",
    )
    (message,) = half
    assert message["To"] == alice.email
    assert f"{SITE}/tables/{table.pk}/" in body(message)

    # Sweep the turn's reminders again from the start, and deliver the send task twice more:
    # the Reminder rows are the record of what was sent, so no email leaves a second time.
    Table.objects.filter(pk=table.pk).update(
        remind_stage=REMIND_TURN, remind_at=timezone.now() - timedelta(seconds=1)
    )
    sent = Reminder.objects.get(table=table, kind=Reminder.Kind.TURN)
    assert sent.status == Reminder.Status.SENT
    for _ in range(2):
        tasks.send_reminder.apply_async((sent.pk,), queue=worker.queue)
    wait_for(
        lambda: Table.objects.filter(pk=table.pk, remind_stage__gt=REMIND_TURN + 1).exists(),
        4 * SWEEP_SECONDS + 2,
        "the sweep to walk the stages again",
    )
    time_passes(3 * SWEEP_SECONDS)
    messages = delivered(mail_dir)
    assert len(about(messages, TURN_SUBJECT)) == 1, worker.output()[-3000:]
    assert len(about(messages, HALF_SUBJECT)) == 1
    assert Reminder.objects.filter(table=table, kind=Reminder.Kind.TURN).count() == 1


def time_passes(seconds: float) -> None:
    import time

    time.sleep(seconds)
