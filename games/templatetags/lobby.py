"""Filters of the lobby's pages."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

from games import names

register = template.Library()


@register.filter
def ago(moment: datetime | None) -> str:
    """ "just now", "5 minutes ago", "2 days, 3 hours ago": the age of the last move."""
    if moment is None:
        return ""
    if timezone.now() - moment < timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment)} ago"


@register.filter
def bot_name(position: int) -> str:
    """A bot's name from its seat's position (games.names.bot_name)."""
    return names.bot_name(position)
