"""What every page's header shows: the count of the games that wait on me (issue 26/28)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from games import services


def waiting(request: HttpRequest) -> dict[str, Any]:
    """``waiting_tables``: the ids of the games that wait on the signed-in user, read only when
    a template uses them (a page without the header, or an error page, costs no query)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"waiting_tables": SimpleLazyObject(lambda: services.tables_waiting_on(user=user))}
