"""Telling a member what moderation decided about them: an email (when they gave an
address), sent after the commit from accounts.mail's background sender."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage

from accounts.mail import send_later


def tell_member(member: Any, subject: str, body: str) -> bool:
    """Email ``member`` (inside the caller's transaction: sent once it commits). False when
    they have no address: the site's pages still tell them."""
    if not getattr(member, "email", ""):
        return False
    text = f"Hello {member.get_username()},\n\n{body}\n\n-- The moderators of May I?\n"
    send_later(
        EmailMessage(f"May I?: {subject}", text, settings.DEFAULT_FROM_EMAIL, [member.email]),
        kind="moderation",
    )
    return True
