"""Hooks from the apps below: a chat flood the rate limit stopped becomes an automatic report
in the chat room (one open case per member); a moderator's read of a hidden statistics page
is audited."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from chat.signals import flood_blocked
from stats.signals import hidden_stats_read

from .models import Report
from .services import member_stats_read, report_automatic


@receiver(flood_blocked, dispatch_uid="moderation.flood_report")
def on_flood(sender: Any, user: Any, table_id: int, **kwargs: Any) -> None:
    report_automatic(
        user=user,
        table_id=table_id,
        reason=Report.Reason.SPAM,
        note="chat flood: the rate limit refused their messages",
        room=Report.Room.CHAT,
    )


@receiver(hidden_stats_read, dispatch_uid="moderation.hidden_stats_read")
def on_hidden_stats_read(sender: Any, viewer: Any, owner: Any, **kwargs: Any) -> None:
    member_stats_read(actor=viewer, member=owner)
