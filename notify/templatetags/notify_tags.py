"""The push preferences card of the profile page, drawn from the signed-in user."""

from __future__ import annotations

from typing import Any

from django import template

from notify import digest, services
from notify.views import pref_fields

register = template.Library()


@register.inclusion_tag("notify/_profile_push.html", takes_context=True)
def push_card(context: Any) -> dict[str, Any]:
    request = context["request"]
    user = request.user
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "prefs": pref_fields(services.prefs_of(user)),
        "subscriptions": services.push_subscriptions_of(user),
        **digest.digest_context(user),
    }


@register.filter
def others_to_nudge(seats: Any, my_seat: Any) -> bool:
    """Whether a table's seats (the table meta's) hold a person besides me: a game against bots
    only has nobody a nudge could reach, so its page offers none."""
    return any(
        s.get("user") and not s.get("is_bot") and s.get("position") != my_seat for s in seats or ()
    )
