"""Reading restrictions (is a user muted, suspended or banned right now), a moderator's desk
(what waits on them), a member's record (what a moderator weighs a report against), and a
player's own reports (what became of them)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Count, Min, Q, QuerySet
from django.utils import timezone

from .models import AuditEntry, Report, Restriction

ACCOUNT_KINDS = (Restriction.Kind.SUSPEND, Restriction.Kind.BAN)


def in_force(now: datetime | None = None) -> Q:
    """A restriction in force at ``now``: not lifted, and with no end or an end to come (one
    past its end counts as ended before the sweep marks it lifted)."""
    return Q(lifted=None) & (Q(until=None) | Q(until__gt=now or timezone.now()))


def active_restrictions(
    user: User, kinds: Iterable[str], now: datetime | None = None
) -> QuerySet[Restriction]:
    return Restriction.objects.filter(in_force(now), user=user, kind__in=list(kinds))


def lasting_longest(
    user: User, kinds: Iterable[str], now: datetime | None = None
) -> Restriction | None:
    """Of the user's live restrictions of ``kinds``, the one lasting longest (one with no end
    first), or None."""
    live = list(active_restrictions(user, kinds, now))
    return max(live, key=lambda r: (r.until is None, r.until or timezone.now()), default=None)


def muted_until(user: User, now: datetime | None = None) -> Restriction | None:
    """The user's live chat mute (the one lasting longest), or None."""
    return lasting_longest(user, [Restriction.Kind.MUTE], now)


@dataclass(frozen=True)
class Desk:
    """What the admin's front page shows a moderator: the queue's size and age, the reports
    they took, the restrictions in force, and their own last actions."""

    unassigned: int
    oldest_unassigned: datetime | None
    mine: int
    in_force: int
    my_actions: list[AuditEntry]


DESK_ACTIONS = 8


def moderator_desk(user: User) -> Desk:
    waiting = Report.objects.filter(status=Report.Status.OPEN).aggregate(
        count=Count("pk"), oldest=Min("created")
    )
    return Desk(
        unassigned=waiting["count"],
        oldest_unassigned=waiting["oldest"],
        mine=Report.objects.filter(status=Report.Status.ASSIGNED, assignee=user).count(),
        in_force=Restriction.objects.filter(in_force()).count(),
        my_actions=list(
            # Reading a table's hands is audited too, but a moderator going through a case
            # reads many: their changes would scroll out of sight.
            AuditEntry.objects.filter(actor=user)
            .exclude(action=AuditEntry.Action.INSPECT_TABLE)
            .select_related("target_user", "table")
            .order_by("-created")[:DESK_ACTIONS]
        ),
    )


@dataclass(frozen=True)
class ReportCounts:
    """The reports about a member, and how many of them are not resolved yet."""

    total: int
    unresolved: int


def report_counts(user: User) -> ReportCounts:
    counts = Report.objects.filter(reported_user=user).aggregate(
        total=Count("pk"), unresolved=Count("pk", filter=~Q(status=Report.Status.RESOLVED))
    )
    return ReportCounts(total=counts["total"], unresolved=counts["unresolved"])


@dataclass(frozen=True)
class Record:
    """A member's record as a moderator reading a report about them needs it at a glance."""

    reports: ReportCounts
    in_force: list[Restriction]
    earlier_restrictions: int


def member_record(user: User, now: datetime | None = None) -> Record:
    live = in_force(now)
    return Record(
        reports=report_counts(user),
        in_force=list(Restriction.objects.filter(live, user=user).order_by("created")),
        earlier_restrictions=Restriction.objects.filter(user=user).exclude(live).count(),
    )


REPORTS_SHOWN = 10


def reports_filed_by(user: User) -> list[Report]:
    """The user's last reports, newest first: their profile says whether a moderator took
    each and when it was handled (not the moderator's note, which is for the staff)."""
    return list(
        Report.objects.filter(reporter=user)
        .select_related("reported_user")
        .only(
            "pk", "table_id", "reason", "status", "created", "resolved", "reported_user__username"
        )
        .order_by("-created")[:REPORTS_SHOWN]
    )
