"""Reports: a player reports a message or a player; moderators assign and resolve them."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from chat.models import ChatMessage
from chat.services import chat_audiences
from games import services as games

from ..audit import audit_write
from ..models import AuditEntry, Report
from .errors import BadReport, ReportNotFound

EXCERPT_SIZE = 12


def report_create(
    *,
    reporter: User,
    table_id: int,
    reason: str,
    note: str = "",
    message_id: int | None = None,
    username: str | None = None,
) -> Report:
    """``reporter`` reports a chat message they saw at the table, or a player of it.

    The report keeps the table's move number (the message's, or now) and the chat the
    reporter could see up to then, so the moderator reads what they read."""
    if reason not in Report.Reason.values:
        raise BadReport(f"reason must be one of {', '.join(Report.Reason.values)}")
    if (message_id is None) == (username is None):
        raise BadReport("report either a message or a player")
    with transaction.atomic():
        table, seats = games.table_get_for_user(table_id=table_id, user=reporter)
        audiences = chat_audiences(table, seats, reporter)
        visible = ChatMessage.objects.filter(table=table, audience__in=audiences, hidden=False)
        message = None
        reported: User | None
        if message_id is not None:
            message = visible.select_related("author").filter(pk=message_id).first()
            if message is None or message.author is None:
                raise BadReport("there is no such message at this table")
            reported = message.author
            move_seq = message.move_seq
            visible = visible.filter(pk__lte=message.pk)
        else:
            reported = get_user_model().objects.filter(username=username).first()
            if reported is None or not any(s.user_id == reported.pk for s in seats):
                raise BadReport("there is no such player at this table")
            move_seq = table.move_count
        if reported.pk == reporter.pk:
            raise BadReport("you cannot report yourself")
        excerpt = [
            {
                "id": m.pk,
                "author": m.author.get_username() if m.author else None,
                "text": m.text,
                "move": m.move_seq,
                "created": m.created.isoformat(),
            }
            for m in reversed(visible.select_related("author").order_by("-id")[:EXCERPT_SIZE])
        ]
        report = Report.objects.create(
            reporter=reporter,
            table=table,
            message=message,
            reported_user=reported,
            reason=reason,
            note=note.strip()[:1000],
            move_seq=move_seq,
            excerpt=excerpt,
        )
        audit_write(
            actor=reporter,
            action=AuditEntry.Action.REPORT,
            target_user=reported,
            table=table,
            reason=report.get_reason_display(),
            report=report.pk,
            message=message.pk if message else None,
        )
    return report


def report_assign(*, report_id: int, moderator: User, assignee: User | None = None) -> Report:
    """Take a report (or give it to ``assignee``): it leaves the open queue."""
    assignee = assignee or moderator
    with transaction.atomic():
        report = _locked(report_id)
        if report.status == Report.Status.RESOLVED:
            raise BadReport("this report is already resolved")
        report.status = Report.Status.ASSIGNED
        report.assignee = assignee
        report.save(update_fields=["status", "assignee"])
        audit_write(
            actor=moderator,
            action=AuditEntry.Action.REPORT_ASSIGN,
            target_user=report.reported_user,
            table=report.table,
            report=report.pk,
            assignee=assignee.get_username(),
        )
    return report


def report_resolve(*, report_id: int, moderator: User, note: str) -> Report:
    """Close a report with a note saying what was done (or why nothing was)."""
    if not note.strip():
        raise BadReport("say how the report was resolved")
    with transaction.atomic():
        report = _locked(report_id)
        if report.status == Report.Status.RESOLVED:
            raise BadReport("this report is already resolved")
        report.status = Report.Status.RESOLVED
        report.assignee = report.assignee or moderator
        report.resolution = note.strip()
        report.resolved = timezone.now()
        report.save(update_fields=["status", "assignee", "resolution", "resolved"])
        audit_write(
            actor=moderator,
            action=AuditEntry.Action.REPORT_RESOLVE,
            target_user=report.reported_user,
            table=report.table,
            reason=report.resolution,
            report=report.pk,
        )
    return report


def _locked(report_id: int) -> Report:
    report = (
        Report.objects.select_for_update(of=("self",))
        .select_related("table", "reported_user")
        .filter(pk=report_id)
        .first()
    )
    if report is None:
        raise ReportNotFound(f"there is no report {report_id}")
    return report
