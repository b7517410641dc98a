"""The chat panel's one question to the server when the table page is drawn."""

from __future__ import annotations

from typing import Any

from django import template

from chat.services import chat_mute_notice

register = template.Library()


@register.simple_tag
def chat_muted(user: Any) -> str:
    """Why ``user`` may not write in the chat now ("" when they may)."""
    return chat_mute_notice(user)
