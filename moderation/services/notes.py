"""Moderators' private notes on a member: written by any moderator, deleted by a senior;
never shown to the member. Both audited."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from ..audit import audit_write
from ..models import AuditEntry, MemberNote
from ..permissions import require
from .errors import BadReport, ModerationRefused

NOTE_LIMIT = 2000


def note_add(*, actor: User, member: User, text: str) -> MemberNote:
    require(actor, "add_membernote", "write notes on members")
    text = text.strip()
    if not text or len(text) > NOTE_LIMIT:
        raise BadReport(f"a note has 1 to {NOTE_LIMIT} characters")
    if member.pk == actor.pk:
        raise ModerationRefused("another moderator writes the notes on you")
    with transaction.atomic():
        note = MemberNote.objects.create(member=member, author=actor, text=text)
        audit_write(
            actor=actor, action=AuditEntry.Action.NOTE_ADD, target_user=member, note=note.pk
        )
    return note


def note_delete(*, actor: User, note_id: int, reason: str) -> None:
    """A senior deletes a note; the audit row keeps its text (the note's record stays)."""
    require(actor, "delete_membernote", "delete members' notes")
    with transaction.atomic():
        note = MemberNote.objects.select_for_update().filter(pk=note_id).first()
        if note is None:
            raise ModerationRefused(f"there is no note {note_id}")
        audit_write(
            actor=actor,
            action=AuditEntry.Action.NOTE_DELETE,
            target_user=note.member,
            reason=reason,
            note=note.pk,
            text=note.text,
            author=note.author.get_username() if note.author else None,
        )
        note.delete()


def member_stats_read(*, actor: User, member: User) -> None:
    """Audit a moderator's read of a member's hidden statistics page."""
    require(actor, "view_hidden_stats_member", "read hidden statistics pages")
    with transaction.atomic():
        audit_write(actor=actor, action=AuditEntry.Action.STATS_VIEW, target_user=member)
