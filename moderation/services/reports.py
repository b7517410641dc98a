"""Reports: a player reports a message or a player; moderators assign and resolve them."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from chat.models import ChatMessage
from chat.services import chat_audiences
from games import services as games
from games.models import Move, Seat, Table

from ..audit import audit_write
from ..models import AuditEntry, Report, Restriction
from ..permissions import require
from ..recusal import require_not_recused
from .compat import actor_keyword
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
            room=room_of(message_id is not None, reason),
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


def room_of(is_message: bool, reason: str) -> str:
    """The queue's room a report goes to: a message to the chat room (chat moderators),
    cheating and stalling to the play room, the rest (a player's abuse, spam...) to other."""
    if is_message:
        return Report.Room.CHAT
    if reason in (Report.Reason.CHEATING, Report.Reason.STALLING):
        return Report.Room.PLAY
    return Report.Room.OTHER


def require_room(actor: User, report: Report) -> None:
    """The actor's role handles the report's room, and the report is not about them (or a
    member they must recuse themselves from)."""
    if report.room == Report.Room.CHAT:
        require(actor, "handle_chat_report", "handle chat reports")
    else:
        require(actor, "handle_play_report", f"handle the {report.room} room's reports")
    require_not_recused(actor, report.reported_user)


@actor_keyword
def report_assign(*, report_id: int, actor: User, assignee: User | None = None) -> Report:
    """Take a report (or give it to ``assignee``): it leaves the open queue."""
    assignee = assignee or actor
    with transaction.atomic():
        report = _locked(report_id)
        require_room(actor, report)
        if assignee.pk != actor.pk:
            require_room(assignee, report)
        if report.status == Report.Status.RESOLVED:
            raise BadReport("this report is already resolved")
        report.status = Report.Status.ASSIGNED
        report.assignee = assignee
        report.save(update_fields=["status", "assignee"])
        audit_write(
            actor=actor,
            action=AuditEntry.Action.REPORT_ASSIGN,
            target_user=report.reported_user,
            table=report.table,
            report=report.pk,
            assignee=assignee.get_username(),
        )
    return report


@actor_keyword
def report_resolve(
    *, report_id: int, actor: User, note: str, actioned: bool | None = None
) -> Report:
    """Close a report with a note saying what was done (or why nothing was). ``actioned``
    (whether the report led to action: the reporter's accuracy counts it) is read from the
    record when not given: a restriction of the member since the report, or its message
    hidden."""
    if not note.strip():
        raise BadReport("say how the report was resolved")
    with transaction.atomic():
        report = _locked(report_id)
        require_room(actor, report)
        if report.status == Report.Status.RESOLVED:
            raise BadReport("this report is already resolved")
        report.status = Report.Status.RESOLVED
        report.assignee = report.assignee or actor
        report.resolution = note.strip()
        report.resolved = timezone.now()
        report.actioned = _acted_on(report) if actioned is None else actioned
        report.save(update_fields=["status", "assignee", "resolution", "resolved", "actioned"])
        audit_write(
            actor=actor,
            action=AuditEntry.Action.REPORT_RESOLVE,
            target_user=report.reported_user,
            table=report.table,
            reason=report.resolution,
            report=report.pk,
        )
    return report


def _acted_on(report: Report) -> bool:
    if report.message is not None and report.message.hidden:
        return True
    if report.reported_user_id is None:
        return False
    return Restriction.objects.filter(
        user_id=report.reported_user_id, created__gte=report.created
    ).exists()


def report_automatic(
    *, user: User, table_id: int, reason: str, note: str, room: str | None = None
) -> Report | None:
    """A report the site files itself (timeouts in several games, a chat flood stopped by
    the rate limit): no reporter, full weight in the queue. None when one about ``user`` for
    ``reason`` is still open (one case, not a report per event)."""
    with transaction.atomic():
        open_one = Report.objects.filter(reported_user=user, reason=reason, automatic=True).exclude(
            status=Report.Status.RESOLVED
        )
        # The rate limit answers before the chat looks the table up, so a flood can name a
        # table that does not exist: there is nothing to attach a report to, and the 429
        # stands on its own.
        table = Table.objects.filter(pk=table_id).first()
        if table is None or open_one.exists():
            return None
        report = Report.objects.create(
            reporter=None,
            automatic=True,
            table=table,
            reported_user=user,
            reason=reason,
            note=note[:1000],
            move_seq=table.move_count,
            room=room or room_of(False, reason),
        )
        audit_write(
            actor=None,
            action=AuditEntry.Action.REPORT,
            target_user=user,
            table=table,
            reason=f"automatic: {note}"[:500],
            report=report.pk,
        )
    return report


def _locked(report_id: int) -> Report:
    report = (
        Report.objects.select_for_update(of=("self",))
        .select_related("table", "reported_user", "message")
        .filter(pk=report_id)
        .first()
    )
    if report is None:
        raise ReportNotFound(f"there is no report {report_id}")
    return report


TIMEOUT_GAMES = 3
TIMEOUT_DAYS = 7


def reports_for_timeouts(*, now: datetime | None = None) -> list[Report]:
    """File an automatic report (play room, stalling) about each member the clock expelled
    in ``TIMEOUT_GAMES`` different games within ``TIMEOUT_DAYS`` days (the beat runs this;
    one open case per member, so running it twice files nothing more)."""
    now = now or timezone.now()
    since = now - timedelta(days=TIMEOUT_DAYS)
    expelled: dict[tuple[int, int], datetime] = {}
    timeouts = Move.objects.filter(created__gte=since, seat=None, action__type="timeout")
    for table_id, events, created in timeouts.values_list("table_id", "events", "created"):
        for event in events or []:
            if isinstance(event, dict) and event.get("type") == "expelled":
                expelled.setdefault((table_id, int(event["seat"])), created)
    games_of: dict[int, list[int]] = {}
    for table_id, position, user_id in Seat.objects.filter(
        table_id__in={t for t, _ in expelled}, user__isnull=False
    ).values_list("table_id", "position", "user_id"):
        if (table_id, position) in expelled:
            games_of.setdefault(user_id, []).append(table_id)
    filed = []
    users = get_user_model().objects.in_bulk(
        [u for u, t in games_of.items() if len(set(t)) >= TIMEOUT_GAMES]
    )
    for user_id, user in users.items():
        tables = sorted(set(games_of[user_id]))
        report = report_automatic(
            user=user,
            table_id=tables[-1],
            reason=Report.Reason.STALLING,
            note=f"expelled by the clock in {len(tables)} games in {TIMEOUT_DAYS} days "
            f"(tables {', '.join(f'#{t}' for t in tables)})",
        )
        if report is not None:
            filed.append(report)
    return filed
