"""Appeals: a restricted member contests a restriction once; a senior moderator who did not
impose it upholds it, shortens it or lifts it, and the member is told why. Each step is
audited."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone

from mayi_site.timezones import zone_of_user

from ..audit import audit_write
from ..models import Appeal, AuditEntry, Restriction
from ..notify import tell_member
from ..permissions import require
from ..recusal import require_not_recused
from ..selectors import decision_words, in_force
from .errors import AppealDecided, AppealExists, AppealNotFound, BadAppeal, RestrictionNotFound
from .users import lift_locked

APPEAL_TEXT_LIMIT = 2000


def appeal_file(
    *,
    actor: User,
    text: str,
    restriction_id: int | None = None,
    restriction: Restriction | int | None = None,
) -> Appeal:
    """``actor`` appeals their own restriction (``restriction_id``, or ``restriction`` as a
    row or an id) in force, once."""
    restriction_id = _id_of(restriction_id, restriction, "restriction")
    text = text.strip()
    if not text:
        raise BadAppeal("say why the decision should change")
    if len(text) > APPEAL_TEXT_LIMIT:
        raise BadAppeal(f"an appeal is at most {APPEAL_TEXT_LIMIT} characters")
    with transaction.atomic():
        restriction = (
            Restriction.objects.select_for_update()
            .filter(pk=restriction_id, user_id=actor.pk)
            .first()
        )
        if restriction is None:
            raise RestrictionNotFound(f"you have no restriction {restriction_id}")
        if Appeal.objects.filter(restriction=restriction).exists():
            raise AppealExists("you have already appealed this decision")
        if not Restriction.objects.filter(in_force(), pk=restriction.pk).exists():
            raise BadAppeal("this restriction has ended: there is nothing left to appeal")
        try:
            with transaction.atomic():
                appeal = Appeal.objects.create(restriction=restriction, member=actor, text=text)
        except IntegrityError:
            raise AppealExists("you have already appealed this decision") from None
        audit_write(
            actor=actor,
            action=AuditEntry.Action.APPEAL_FILE,
            target_user=actor,
            reason=text[:500],
            appeal=appeal.pk,
            restriction=restriction.pk,
        )
    return appeal


def appeal_decide(
    *,
    actor: User,
    decision: str,
    reason: str,
    appeal_id: int | None = None,
    appeal: Appeal | int | None = None,
    until: datetime | None = None,
    duration: timedelta | None = None,
) -> Appeal:
    """A senior moderator decides: ``upheld`` (nothing changes), ``shortened`` (the
    restriction ends at ``until`` instead; a ban becomes a suspension) or ``lifted`` (it
    ends now). Never by the moderator who imposed the restriction, nor on an appeal of
    their own. The member is told the decision and ``reason``. A shortened restriction's new
    end is ``until``, or ``duration`` from now."""
    appeal_id = _id_of(appeal_id, appeal, "appeal")
    if until is None and duration is not None:
        until = timezone.now() + duration
    require(actor, "decide_appeal", "decide appeals")
    if decision not in (Appeal.Status.UPHELD, Appeal.Status.SHORTENED, Appeal.Status.LIFTED):
        raise BadAppeal("the decision is upheld, shortened or lifted")
    reason = reason.strip()
    if not reason:
        raise BadAppeal("say why: the member reads it")
    with transaction.atomic():
        found = (
            Appeal.objects.select_for_update(of=("self",))
            .select_related("restriction", "member")
            .filter(pk=appeal_id)
            .first()
        )
        if found is None:
            raise AppealNotFound(f"there is no appeal {appeal_id}")
        appeal = found
        restriction = appeal.restriction
        if restriction.created_by_id == actor.pk:
            raise PermissionDenied("you imposed this restriction: another senior decides")
        require_not_recused(actor, appeal.member)
        if appeal.status != Appeal.Status.PENDING:
            raise AppealDecided("this appeal is already decided")
        now = timezone.now()
        live = Restriction.objects.filter(in_force(now), pk=restriction.pk).exists()
        before = restriction.until
        if decision == Appeal.Status.SHORTENED:
            if not live:
                raise AppealDecided("the restriction has ended meanwhile: uphold or lift it")
            if until is None or until <= now or (before is not None and until >= before):
                raise BadAppeal("a shortened restriction ends later than now, sooner than before")
            restriction.until = until
            if restriction.kind == Restriction.Kind.BAN:
                restriction.kind = Restriction.Kind.SUSPEND
            restriction.save(update_fields=["until", "kind"])
        elif decision == Appeal.Status.LIFTED and live:
            lift_locked(restriction, actor=actor, reason=f"appeal {appeal.pk}: {reason}", now=now)
        appeal.status = decision
        appeal.decided_by = actor
        appeal.decided = now
        appeal.decision_reason = reason
        appeal.save(update_fields=["status", "decided_by", "decided", "decision_reason"])
        audit_write(
            actor=actor,
            action=AuditEntry.Action.APPEAL_DECIDE,
            target_user=appeal.member,
            reason=reason,
            appeal=appeal.pk,
            restriction=restriction.pk,
            decision=decision,
            until_before=before.isoformat() if before else None,
            until_after=restriction.until.isoformat() if restriction.until else None,
        )
        # The email is in the member's own zone (their profile page shows it in theirs too).
        with timezone.override(zone_of_user(appeal.member)):
            words = decision_words(appeal)
        tell_member(appeal.member, f"your appeal was {decision}", words)
    return appeal


def _id_of(given_id: int | None, given: object, what: str) -> int:
    """The id a caller named, as ``<what>_id=`` or as ``<what>=`` (a row or an id)."""
    if given_id is not None:
        return int(given_id)
    if given is None:
        raise TypeError(f"name the {what}: {what}_id= or {what}=")
    pk: Any = getattr(given, "pk", given)  # a row's pk, or the id itself
    return int(pk)
