"""Suspend, ban, mute, lift: restrictions on a user, each with its audit row.

A suspension or a ban clears ``is_active``, which every door checks already: sign-in (the
auth backend), each request's session (Django's auth middleware reads the user afresh), API
tokens (accounts/tokens.py selects active users only) and websockets (accounts/sessions.py reads the
session and user for every frame, and the user's open sockets are closed at once here).
The user's seats at tables being played go to the bot; their seats at tables still waiting for
players are given up (a host's table passes to the next player, or closes).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games.models import Seat, Table
from games.services import table_leave
from mayi_site.timezones import DAY_TIME, zone_of_user, zoned

from ..audit import audit_write
from ..live import close_user_sockets_on_commit
from ..models import AuditEntry, CannedReason, Restriction
from ..notify import tell_member
from ..permissions import holds, require, require_length
from ..recusal import require_not_recused
from ..selectors import ACCOUNT_KINDS, active_restrictions
from .compat import actor_keyword
from .errors import ModerationRefused
from .seats import seat_to_bot_locked, seat_to_owner_locked

MAX_DAYS = 3650


def _check_target(actor: User, user: User) -> None:
    if user.pk == actor.pk:
        raise ModerationRefused("you cannot restrict yourself")
    if getattr(user, "is_superuser", False) and not getattr(actor, "is_superuser", False):
        raise ModerationRefused("only a superuser can restrict a superuser")
    require_not_recused(actor, user)


def _until(duration: timedelta) -> datetime:
    if duration <= timedelta(0) or duration > timedelta(days=MAX_DAYS):
        raise ModerationRefused(f"a duration is more than nothing and at most {MAX_DAYS} days")
    return timezone.now() + duration


def _preset_of(preset: CannedReason | int | None, kind: str) -> CannedReason | None:
    if preset is None or isinstance(preset, CannedReason):
        found = preset
    else:
        found = CannedReason.objects.filter(pk=preset).first()
        if found is None:
            raise ModerationRefused(f"there is no canned reason {preset}")
    if found is not None and found.kind != kind:
        raise ModerationRefused(f"the canned reason {found.title!r} is for a {found.kind}")
    return found


@dataclass(frozen=True)
class _Wording:
    """What a restriction records: the reason (the audit log's and the moderators' pages'),
    the member's message (sent and shown to them) and the moderator's private note."""

    preset: CannedReason | None
    reason: str
    message: str
    note: str


def _wording(kind: str, preset: CannedReason | int | None, reason: str, note: str) -> _Wording:
    chosen = _preset_of(preset, kind)
    reason, note = reason.strip(), note.strip()
    if chosen is not None:
        return _Wording(chosen, reason or chosen.title, chosen.message, note)
    if not reason:
        raise ModerationRefused("pick a canned reason or write one")
    # Free text: the member reads it as written (the pages mark it as not a canned reason).
    return _Wording(None, reason, reason, note)


@actor_keyword
def user_suspend(
    *,
    actor: User,
    user: User,
    duration: timedelta,
    reason: str = "",
    preset: CannedReason | int | None = None,
    note: str = "",
) -> Restriction:
    """Suspend ``user`` for ``duration``: they are signed out everywhere at once, cannot sign
    in until it ends, and the bot plays their seats. A game moderator suspends for up to 7
    days; a senior for any length (PermissionDenied otherwise)."""
    require_length(actor, Restriction.Kind.SUSPEND, duration)
    return _restrict_account(
        actor=actor,
        user=user,
        until=_until(duration),
        wording=_wording(Restriction.Kind.SUSPEND, preset, reason, note),
        ban=False,
    )


@actor_keyword
def user_ban(
    *,
    actor: User,
    user: User,
    reason: str = "",
    preset: CannedReason | int | None = None,
    note: str = "",
) -> Restriction:
    """Ban ``user`` for good (until a moderator lifts it): as a suspension with no end.
    Senior moderators only."""
    require(actor, "ban_member", "ban members")
    return _restrict_account(
        actor=actor,
        user=user,
        until=None,
        wording=_wording(Restriction.Kind.BAN, preset, reason, note),
        ban=True,
    )


def _restrict_account(
    *,
    actor: User,
    user: User,
    until: datetime | None,
    wording: _Wording,
    ban: bool,
) -> Restriction:
    _check_target(actor, user)
    kind = Restriction.Kind.BAN if ban else Restriction.Kind.SUSPEND
    with transaction.atomic():
        restriction = Restriction.objects.create(
            user=user,
            kind=kind,
            until=until,
            reason=wording.reason,
            preset=wording.preset,
            message=wording.message,
            note=wording.note,
            created_by=actor,
        )
        get_user_model().objects.filter(pk=user.pk).update(is_active=False)
        user.is_active = False
        # Tables in id order, each locked in turn: two moderators never deadlock.
        seats = (
            Seat.objects.filter(
                user=user, expelled=False, is_bot=False, table__status=Table.Status.PLAYING
            )
            .order_by("table_id")
            .values_list("table_id", "position")
        )
        tables = []
        for table_id, position in list(seats):
            seat_to_bot_locked(table_id, position)
            tables.append(table_id)
            restriction.seats.append([table_id, position])
        if restriction.seats:
            restriction.save(update_fields=["seats"])
        # Tables still waiting for players: the seat is given up as if they had left (a host
        # hands the table on to the next player, or it closes with nobody left), so that no
        # table waits in the lobby on someone who cannot sign in to start it.
        waiting = list(
            Seat.objects.filter(user=user, table__status=Table.Status.OPEN)
            .order_by("table_id")
            .values_list("table_id", flat=True)
        )
        for table_id in waiting:
            table_leave(user=user, table_id=table_id)
        audit_write(
            actor=actor,
            action=AuditEntry.Action.BAN if ban else AuditEntry.Action.SUSPEND,
            target_user=user,
            reason=wording.reason,
            restriction=restriction.pk,
            until=until.isoformat() if until else None,
            preset=wording.preset.title if wording.preset else None,
            seats_to_bot=tables,
            left_open_tables=waiting,
        )
        _tell(restriction)
        close_user_sockets_on_commit(
            user.pk, "your account is banned" if ban else "your account is suspended"
        )
    return restriction


@actor_keyword
def user_mute(
    *,
    actor: User,
    user: User,
    duration: timedelta,
    reason: str = "",
    preset: CannedReason | int | None = None,
    note: str = "",
) -> Restriction:
    """Mute ``user`` in every table chat for ``duration`` (they still play). A chat
    moderator mutes for up to 24 hours, a game moderator up to 7 days, a senior for any
    length (PermissionDenied otherwise)."""
    require_length(actor, Restriction.Kind.MUTE, duration)
    _check_target(actor, user)
    until = _until(duration)
    wording = _wording(Restriction.Kind.MUTE, preset, reason, note)
    with transaction.atomic():
        restriction = Restriction.objects.create(
            user=user,
            kind=Restriction.Kind.MUTE,
            until=until,
            reason=wording.reason,
            preset=wording.preset,
            message=wording.message,
            note=wording.note,
            created_by=actor,
        )
        audit_write(
            actor=actor,
            action=AuditEntry.Action.MUTE,
            target_user=user,
            reason=wording.reason,
            restriction=restriction.pk,
            until=until.isoformat(),
            preset=wording.preset.title if wording.preset else None,
        )
        _tell(restriction)
    return restriction


def _tell(restriction: Restriction) -> None:
    """The member's message by email (their next sign-in page shows it too)."""
    kind = restriction.get_kind_display()
    # In the member's own zone, named: the email is read wherever they are.
    with timezone.override(zone_of_user(restriction.user)):
        until = f" until {zoned(restriction.until, DAY_TIME)}" if restriction.until else " for good"
    tell_member(
        restriction.user,
        f"you are {kind}",
        f"A moderator decided that you are {kind}{until}.\n\n{restriction.message}\n\n"
        "You may appeal this decision once, from your profile page (or from the sign-in "
        "page if you cannot sign in).",
    )


@actor_keyword
def restriction_lift(*, actor: User, restriction_id: int, reason: str) -> Restriction:
    """End a restriction early. Once no suspension or ban is left the user may sign in again
    and gets back the seats the bot took over, in games still being played (the bot played
    them meanwhile: a game does not wait for a suspension). A moderator lifts a restriction
    they imposed themselves; one another moderator imposed needs a senior."""
    with transaction.atomic():
        restriction = (
            Restriction.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(pk=restriction_id)
            .first()
        )
        now = timezone.now()
        if (
            restriction is None
            or restriction.lifted
            or (restriction.until is not None and restriction.until <= now)
        ):
            raise ModerationRefused("this restriction is not in force")
        if restriction.created_by_id != actor.pk:
            require(actor, "lift_member", "lift a restriction another moderator imposed")
        elif not holds(actor, "mute_member"):
            require(actor, "lift_member", "lift restrictions")
        lift_locked(restriction, actor=actor, reason=reason, now=now)
    return restriction


def lift_locked(restriction: Restriction, *, actor: User, reason: str, now: datetime) -> None:
    """Under the caller's transaction and the restriction's row lock: end it now (audited),
    and let the member in again if nothing else keeps them out."""
    restriction.lifted = now
    restriction.save(update_fields=["lifted"])
    returned = _reactivate_if_free(restriction.user, now)
    audit_write(
        actor=actor,
        action=AuditEntry.Action.LIFT,
        target_user=restriction.user,
        reason=reason,
        restriction=restriction.pk,
        kind=restriction.kind,
        seats_returned=returned,
    )


def restrictions_expire(*, now: datetime | None = None) -> int:
    """End the restrictions whose time is up (the beat runs this every minute): a suspended
    user may sign in again. Safe to run twice: each row is claimed by a conditional update."""
    now = now or timezone.now()
    done = 0
    due = Restriction.objects.filter(lifted=None, until__lte=now).select_related("user")
    for restriction in list(due[:500]):
        with transaction.atomic():
            claimed = Restriction.objects.filter(pk=restriction.pk, lifted=None).update(
                lifted=restriction.until
            )
            if not claimed:
                continue
            returned = _reactivate_if_free(restriction.user, now)
            audit_write(
                actor=None,
                action=AuditEntry.Action.EXPIRE,
                target_user=restriction.user,
                reason=f"{restriction.get_kind_display()} ended",
                restriction=restriction.pk,
                kind=restriction.kind,
                seats_returned=returned,
            )
            done += 1
    return done


def _reactivate_if_free(user: User, now: datetime) -> list[int]:
    """Let ``user`` sign in again if no suspension or ban is left, and give back the seats
    the ended ones took; the tables whose seat came back, in id order."""
    if active_restrictions(user, ACCOUNT_KINDS, now).exists():
        return []
    ended = list(
        Restriction.objects.select_for_update()
        .filter(user=user, kind__in=ACCOUNT_KINDS)
        .order_by("pk")
    )
    if not ended:
        return []  # never restricted by moderation: is_active is not ours to set
    get_user_model().objects.filter(pk=user.pk).update(is_active=True)
    user.is_active = True
    taken = sorted({(t, p) for r in ended for t, p in r.seats})
    returned = [t for t, p in taken if seat_to_owner_locked(t, p, user)]
    Restriction.objects.filter(pk__in=[r.pk for r in ended if r.seats]).update(seats=[])
    return returned
