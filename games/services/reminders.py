"""Reminder emails: "it is your turn", and half and 80% of your clock gone.

The table row says when the next reminder about its running turn falls due (``remind_at``,
``remind_stage``, set with the deadlines). The sweep claims due stages with a conditional
update and writes one :class:`Reminder` row per (table, turn, kind, user): the unique row is
the record that it was sent, so nothing is sent twice. A task then decides and sends it:
skipped if the turn moved on, the player is online, on vacation or opted out; moved to the
end of the player's quiet hours if it falls in them.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games import engine, presence
from games.models import Reminder, Seat, Table
from mayi_site import metrics

from . import enqueue
from .clocks import REMIND_DONE, REMIND_HALF, REMIND_LATE, REMIND_TURN, next_reminder

logger = logging.getLogger("games.reminders")

KIND_OF_STAGE = {
    REMIND_TURN: Reminder.Kind.TURN,
    REMIND_HALF: Reminder.Kind.HALF,
    REMIND_LATE: Reminder.Kind.LATE,
}
BATCH = 100
# A queued reminder whose task never ran (a lost worker) is queued again after this.
REQUEUE_AFTER = timedelta(minutes=5)


def reminders_create_due(*, now: datetime | None = None, limit: int = BATCH) -> int:
    """Write the Reminder rows of turns whose next reminder fell due; advance their stage."""
    now = now or timezone.now()
    made = 0
    with transaction.atomic():
        tables = list(
            Table.objects.select_for_update(skip_locked=True)
            .filter(status=Table.Status.PLAYING, remind_at__lte=now)
            .order_by("remind_at")[:limit]
        )
        for table in tables:
            stage = table.remind_stage
            kind = KIND_OF_STAGE.get(stage)
            table.remind_stage = stage + 1
            nxt = next_reminder(table) if table.remind_stage < REMIND_DONE else None
            # Claim the stage: only the sweep that moves it from ``stage`` writes its row.
            won = Table.objects.filter(
                pk=table.pk, remind_stage=stage, remind_at=table.remind_at
            ).update(remind_stage=table.remind_stage, remind_at=nxt)
            if not won or kind is None or table.state is None:
                continue
            if kind != Reminder.Kind.TURN and _allowance(table) < settings.MAYI_CLOCK_REMINDER_MIN:
                # A short clock is a live game: half of it gone is no news worth an email.
                continue
            active = engine.active_seat(table.state)
            if active is None:
                continue
            seat = Seat.objects.filter(table=table, position=active).first()
            if seat is None or seat.user_id is None or seat.played_by_bot:
                continue
            _, created = Reminder.objects.get_or_create(
                table=table,
                turn_seq=table.turn_seq,
                kind=kind,
                user_id=seat.user_id,
                defaults={"due": now},
            )
            made += created
    return made


def _allowance(table: Table) -> float:
    if table.turn_started is None or table.turn_deadline is None:
        return 0.0
    return (table.turn_deadline - table.turn_started).total_seconds()


def reminders_queue_due(*, now: datetime | None = None, limit: int = BATCH) -> int:
    """Create due reminders, then queue a send task for each pending one that is due."""
    now = now or timezone.now()
    reminders_create_due(now=now)
    ids = list(
        Reminder.objects.filter(status=Reminder.Status.PENDING, due__lte=now)
        .filter(Q(queued__isnull=True) | Q(queued__lt=now - REQUEUE_AFTER))
        .values_list("pk", flat=True)[:limit]
    )
    queued = 0
    for reminder_id in ids:
        # Claim: only one sweep queues a given reminder (until REQUEUE_AFTER has passed).
        won = (
            Reminder.objects.filter(pk=reminder_id, status=Reminder.Status.PENDING)
            .filter(Q(queued__isnull=True) | Q(queued__lt=now - REQUEUE_AFTER))
            .update(queued=now)
        )
        if won:
            try:
                enqueue.send_task(
                    enqueue.SEND_REMINDER, (reminder_id,), queue=settings.MAYI_MAIL_QUEUE
                )
                queued += 1
            except Exception:
                logger.exception("could not queue reminder %s", reminder_id)
    return queued


def quiet_until(profile: Profile | None, now: datetime) -> datetime | None:
    """The end of the player's quiet hours if ``now`` falls in them, else None.

    Quiet hours are local times in the profile's time zone; start > end spans midnight.
    """
    if profile is None or profile.quiet_start is None or profile.quiet_end is None:
        return None
    if profile.quiet_start == profile.quiet_end:
        return None
    try:
        zone = ZoneInfo(profile.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = now.astimezone(zone)
    start, end, t = profile.quiet_start, profile.quiet_end, local.time()
    inside = start <= t < end if start < end else (t >= start or t < end)
    if not inside:
        return None
    end_day = local.date() if t < end else local.date() + timedelta(days=1)
    return datetime.combine(end_day, end, tzinfo=zone).astimezone(ZoneInfo("UTC"))


def _wanted(profile: Profile | None, kind: str) -> bool:
    if profile is None:
        return True
    return profile.email_turn if kind == Reminder.Kind.TURN else profile.email_clock


def reminder_send(*, reminder_id: int, now: datetime | None = None) -> str:
    """Decide and send one reminder. Returns what happened (sent, skipped: why, deferred).

    Marked sent in the same transaction that decides, and the email leaves after commit: a
    crash between the two loses one reminder rather than ever sending it twice.
    """
    now = now or timezone.now()
    with transaction.atomic():
        reminder = (
            Reminder.objects.select_for_update(skip_locked=True)
            .select_related("user", "table")
            .filter(pk=reminder_id, status=Reminder.Status.PENDING)
            .first()
        )
        if reminder is None:
            return "gone"
        table, user = reminder.table, reminder.user
        profile = Profile.objects.filter(user=user).first()
        why = _skip_reason(reminder, table, profile, now)
        if why is None:
            later = quiet_until(profile, now)
            if later is not None:
                reminder.due, reminder.queued = later, None
                reminder.save(update_fields=["due", "queued"])
                return "deferred"
        reminder.status = Reminder.Status.SKIPPED if why else Reminder.Status.SENT
        reminder.note = why or ""
        reminder.sent = None if why else now
        reminder.save(update_fields=["status", "note", "sent"])
        if why:
            return f"skipped: {why}"
        subject, body = _email(reminder, table)
        address = user.email
        transaction.on_commit(lambda: _send_reminder_email(subject, body, address))
    return "sent"


def _send_reminder_email(subject: str, body: str, address: str) -> None:
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    except Exception:
        metrics.count_email("reminder", ok=False)
        raise
    metrics.count_email("reminder", ok=True)


def _skip_reason(
    reminder: Reminder, table: Table, profile: Profile | None, now: datetime
) -> str | None:
    if table.status != Table.Status.PLAYING or table.turn_seq != reminder.turn_seq:
        return "turn over"
    if not reminder.user.email:
        return "no email"
    if not _wanted(profile, reminder.kind):
        return "opted out"
    if profile is not None and profile.vacation_until and profile.vacation_until > now:
        return "on vacation"
    if presence.is_online(reminder.user_id):
        return "online"
    return None


def _email(reminder: Reminder, table: Table) -> tuple[str, str]:
    link = settings.MAYI_SITE_URL + reverse("table", args=[table.pk])
    left = ""
    if table.turn_deadline is not None:
        minutes = max(0, int((table.turn_deadline - timezone.now()).total_seconds() // 60))
        left = f"\nTime left on your clock: {minutes // 60} h {minutes % 60} min.\n"
    lines = {
        Reminder.Kind.TURN: "It is your turn",
        Reminder.Kind.HALF: "Half of your clock is gone",
        Reminder.Kind.LATE: "80% of your clock is gone",
    }
    head = lines[Reminder.Kind(reminder.kind)]
    subject = f"May I? table #{table.pk}: {head.lower()}"
    body = (
        f"{head} at table #{table.pk}.\n{left}\nOpen the game: {link}\n\n"
        "When your clock runs out a bot plays your turn and you get a strike.\n"
        f"Reminder settings: {settings.MAYI_SITE_URL}{reverse('profile')}\n"
    )
    return subject, body
