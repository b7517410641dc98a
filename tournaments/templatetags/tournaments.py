"""Tournament panels drawn into other apps' pages without those apps importing tournaments:
the lobby's "your next table is ready" and the statistics page's results."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import selectors

register = template.Library()


@register.inclusion_tag("tournaments/_lobby.html", takes_context=True)
def tournaments_lobby(context: dict[str, Any]) -> dict[str, Any]:
    user = context["user"]
    ready = selectors.tables_ready(user=user) if user.is_authenticated else []
    return {"ready": ready, "open": selectors.tournament_list(viewer=user)[:5]}


@register.inclusion_tag("tournaments/_results.html")
def tournament_results(username: str) -> dict[str, Any]:
    return {"results": selectors.player_results(username=username)}


@register.filter
def seconds_text(seconds: int) -> str:
    """A clock in words: "1 h", "10 min", "7 days", "1 day 12 h".

    >>> seconds_text(600), seconds_text(3600), seconds_text(7 * 86400), seconds_text(129600)
    ('10 min', '1 h', '7 days', '1 day 12 h')
    """
    days, rest = divmod(int(seconds), 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = []
    if days:
        parts.append(f"{days} day{'s' if days != 1 else ''}")
    if hours:
        parts.append(f"{hours} h")
    if minutes:
        parts.append(f"{minutes} min")
    if secs or not parts:
        parts.append(f"{secs} s")
    return " ".join(parts[:2])
