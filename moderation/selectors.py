"""Reading restrictions (is a user muted, suspended or banned right now), a moderator's desk
(what waits on them), a member's record (what a moderator weighs a report against), and a
player's own reports (what became of them)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db.models import Count, Min, Q, QuerySet
from django.utils import timezone

from accounts.models import Profile
from games.models import Seat
from mayi_site.timezones import DAY_TIME, zoned
from social.models import Block
from stats.reliability import Figure, reliability

from .models import (
    Appeal,
    AuditEntry,
    CannedReason,
    MemberNote,
    Report,
    Restriction,
    SignInTrace,
)

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
    appeals_pending: int = 0


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
        appeals_pending=Appeal.objects.filter(status=Appeal.Status.PENDING).count(),
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


def decision_words(appeal: Appeal) -> str:
    """What the member reads of a decision (the email, their profile, the sign-in page)."""
    restriction = appeal.restriction
    if appeal.status == Appeal.Status.UPHELD:
        head = "A senior moderator read your appeal and upheld the decision."
    elif appeal.status == Appeal.Status.SHORTENED and restriction.until is not None:
        head = (
            "A senior moderator read your appeal and shortened the restriction: it ends "
            f"{zoned(restriction.until, DAY_TIME)}."
        )
    elif appeal.status == Appeal.Status.LIFTED:
        head = "A senior moderator read your appeal and lifted the restriction."
    else:
        return "Your appeal waits for a senior moderator."
    return f"{head} Their reason: {appeal.decision_reason}"


@dataclass(frozen=True)
class OwnRestriction:
    """One of a member's restrictions as they see it: what they were told, and their appeal
    (None: not appealed; ``can_appeal``: the form is offered)."""

    restriction: Restriction
    in_force: bool
    appeal: Appeal | None
    decision: str
    can_appeal: bool
    # ``until`` in the active zone (the viewer's), named; "" for none.
    until: str = ""


OWN_SHOWN_DAYS = 90


def own_restrictions(user: User, now: datetime | None = None) -> list[OwnRestriction]:
    """The member's restrictions in force, and those of the last 90 days they appealed:
    newest first. Never the moderator's private note."""
    now = now or timezone.now()
    since = now - timedelta(days=OWN_SHOWN_DAYS)
    live_ids = set(
        Restriction.objects.filter(in_force(now), user=user).values_list("pk", flat=True)
    )
    rows = (
        Restriction.objects.filter(user=user)
        .filter(Q(pk__in=live_ids) | Q(appeal__isnull=False, created__gte=since))
        .select_related("appeal")
        .order_by("-created")
    )
    out = []
    for r in rows:
        appeal = getattr(r, "appeal", None)
        out.append(
            OwnRestriction(
                restriction=r,
                in_force=r.pk in live_ids,
                appeal=appeal,
                decision=decision_words(appeal) if appeal is not None else "",
                can_appeal=appeal is None and r.pk in live_ids,
                until=zoned(r.until, DAY_TIME),
            )
        )
    return out


def profile_part(*, user: User, profile: Profile, now: datetime) -> dict[str, object]:
    """What the member's profile page shows of moderation (``accounts.hooks.provide_profile``):
    their reports and where each stands, their restrictions."""
    return {"reports": reports_filed_by(user), "restrictions": own_restrictions(user, now)}


@dataclass(frozen=True)
class Link:
    """Another account that signed in from the same address or browser (within 90 days)."""

    user: User
    kinds: list[str]
    last_seen: datetime


def linked_accounts(user: User) -> list[Link]:
    """The accounts sharing a sign-in trace with ``user``, most recently seen first."""
    digests = SignInTrace.objects.filter(user=user).values("digest")
    found: dict[int, tuple[set[str], datetime, User]] = {}
    for trace in (
        SignInTrace.objects.filter(digest__in=digests).exclude(user=user).select_related("user")
    ):
        kinds, seen, other = found.get(trace.user_id, (set(), trace.last_seen, trace.user))
        kinds.add(trace.get_kind_display())
        found[trace.user_id] = (kinds, max(seen, trace.last_seen), other)
    return sorted(
        (
            Link(user=other, kinds=sorted(kinds), last_seen=seen)
            for kinds, seen, other in found.values()
        ),
        key=lambda link: link.last_seen,
        reverse=True,
    )


@dataclass(frozen=True)
class Accuracy:
    """A reporter's record: how many of their resolved reports led to action."""

    filed: int
    resolved: int
    actioned: int

    @property
    def share(self) -> float | None:
        return None if not self.resolved else self.actioned / self.resolved

    @property
    def weight(self) -> float:
        """How much their next report counts (a newcomer 0.5; one whose reports led to action
        up to 1; one who reported falsely often down to near 0): (actioned + 1) / (resolved
        + 2), Laplace's rule, so a single report weighs neither nothing nor everything."""
        return (self.actioned + 1) / (self.resolved + 2)


def reporter_accuracy(user_ids: Iterable[int]) -> dict[int, Accuracy]:
    """The accuracy of many reporters in one query (every id given is in the answer)."""
    ids = set(user_ids)
    rows = {
        row["reporter_id"]: row
        for row in Report.objects.filter(reporter_id__in=ids, automatic=False)
        .values("reporter_id")
        .annotate(
            filed=Count("pk"),
            resolved=Count("pk", filter=Q(status=Report.Status.RESOLVED)),
            actioned=Count("pk", filter=Q(status=Report.Status.RESOLVED, actioned=True)),
        )
    }
    return {
        i: Accuracy(
            filed=rows[i]["filed"] if i in rows else 0,
            resolved=rows[i]["resolved"] if i in rows else 0,
            actioned=rows[i]["actioned"] if i in rows else 0,
        )
        for i in ids
    }


FILE_ROWS = 20


@dataclass(frozen=True)
class MemberFile:
    """What a moderator's page of a member shows beyond the account: every report by and
    against them, their appeals, the moderators' notes, linked accounts, their blocks as a
    count, their reliability and their recent games. Never shown to the member."""

    reports_against: list[Report]
    reports_against_total: int
    reports_by: list[Report]
    accuracy: Accuracy
    appeals: list[Appeal]
    notes: list[MemberNote]
    linked: list[Link]
    blocks_made: int
    blocked_by: int
    reliability: Figure
    recent_seats: list[Seat]


def member_file(user: User) -> MemberFile:
    against = Report.objects.filter(reported_user=user)
    return MemberFile(
        reports_against=list(
            against.select_related("reporter", "assignee").order_by("-created")[:FILE_ROWS]
        ),
        reports_against_total=against.count(),
        reports_by=list(
            Report.objects.filter(reporter=user)
            .select_related("reported_user")
            .order_by("-created")[:FILE_ROWS]
        ),
        accuracy=reporter_accuracy([user.pk])[user.pk],
        appeals=list(
            Appeal.objects.filter(member=user)
            .select_related("restriction", "decided_by")
            .order_by("-created")
        ),
        notes=list(MemberNote.objects.filter(member=user).select_related("author")),
        linked=linked_accounts(user),
        blocks_made=Block.objects.filter(blocker=user).count(),
        blocked_by=Block.objects.filter(blocked=user).count(),
        reliability=reliability(user),
        recent_seats=list(
            Seat.objects.filter(user=user).select_related("table").order_by("-table_id")[:10]
        ),
    )


# How grave each reason is: the base of a report's weight in the queue (docs/MODERATION.md).
SEVERITY: dict[str, float] = {
    Report.Reason.CHEATING.value: 5.0,
    Report.Reason.ABUSE.value: 4.0,
    Report.Reason.STALLING.value: 3.0,
    Report.Reason.SPAM.value: 2.0,
    Report.Reason.OTHER.value: 1.0,
}
# A report the site filed itself (timeouts, a flood) counts as a reporter always right.
AUTOMATIC_WEIGHT = 1.0


@dataclass(frozen=True)
class Case:
    """The unresolved reports about one member (one report when it names nobody), merged:
    the queue's unit of work."""

    member: User | None
    reports: list[Report]
    score: float

    @property
    def rooms(self) -> list[str]:
        return sorted({r.room for r in self.reports})

    @property
    def reasons(self) -> list[str]:
        return sorted({str(r.get_reason_display()) for r in self.reports})

    @property
    def oldest(self) -> datetime:
        return min(r.created for r in self.reports)

    @property
    def assignees(self) -> list[str]:
        return sorted({r.assignee.get_username() for r in self.reports if r.assignee})

    @property
    def reporters(self) -> int:
        return len({r.reporter_id if not r.automatic else "site" for r in self.reports})


def report_weight(report: Report, accuracy: dict[int, Accuracy]) -> float:
    """One report's part of its case's score: the reason's severity times what its reporter's
    word is worth (their past accuracy)."""
    if report.automatic:
        weight = AUTOMATIC_WEIGHT
    elif report.reporter_id is None:
        weight = Accuracy(0, 0, 0).weight
    else:
        weight = accuracy[report.reporter_id].weight
    return SEVERITY.get(report.reason, 1.0) * weight


def report_queue(*, room: str | None = None) -> list[Case]:
    """The unresolved reports (``room`` only, if given) merged into one case per member,
    highest score first (then the longest waiting). A case's score adds each reporter's
    heaviest report about the member: several people reporting one member raise it, one
    person reporting them ten times does not."""
    reports = list(
        Report.objects.exclude(status=Report.Status.RESOLVED)
        .filter(**({"room": room} if room else {}))
        .select_related("reported_user", "reporter", "assignee", "message")
        .order_by("created")
    )
    accuracy = reporter_accuracy({r.reporter_id for r in reports if r.reporter_id})
    grouped: dict[object, list[Report]] = {}
    for r in reports:
        key = r.reported_user_id if r.reported_user_id is not None else ("report", r.pk)
        grouped.setdefault(key, []).append(r)
    cases = []
    for group in grouped.values():
        heaviest: dict[object, float] = {}
        for r in group:
            who = "site" if r.automatic else (r.reporter_id or ("gone", r.pk))
            heaviest[who] = max(heaviest.get(who, 0.0), report_weight(r, accuracy))
        cases.append(
            Case(
                member=group[0].reported_user,
                reports=group,
                score=round(sum(heaviest.values()), 2),
            )
        )
    return sorted(cases, key=lambda c: (-c.score, c.oldest))


# The penalty grid: each restriction of the same kind in the last 30 days multiplies the
# canned reason's suggested duration by 3 (a second chat mute in 30 days: three times as long).
ESCALATION_DAYS = 30
ESCALATION_FACTOR = 3


@dataclass(frozen=True)
class Suggestion:
    """A canned reason's suggested duration for one member (None: a ban, no end)."""

    preset: CannedReason
    member: User
    prior: int
    hours: int | None

    @property
    def words(self) -> str:
        if self.hours is None:
            return "for good"
        if self.hours % 24 == 0:
            return f"{self.hours // 24} day{'s' if self.hours != 24 else ''}"
        return f"{self.hours} h"


def suggestions(
    members: Iterable[User], kind: str, now: datetime | None = None
) -> list[Suggestion]:
    """Per active canned reason of ``kind`` and per member: the suggested duration, longer for
    each restriction of that kind they had in the last 30 days. The moderator decides."""
    since = (now or timezone.now()) - timedelta(days=ESCALATION_DAYS)
    members = list(members)
    prior = dict(
        Restriction.objects.filter(user__in=members, kind=kind, created__gte=since)
        .values("user_id")
        .annotate(n=Count("pk"))
        .values_list("user_id", "n")
    )
    out = []
    for preset in CannedReason.objects.filter(kind=kind, active=True):
        for member in members:
            n = prior.get(member.pk, 0)
            hours = (
                None
                if preset.suggested_hours is None
                else preset.suggested_hours * ESCALATION_FACTOR**n
            )
            out.append(Suggestion(preset=preset, member=member, prior=n, hours=hours))
    return out
