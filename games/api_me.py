"""``GET /api/me/waiting``: the games that wait on me, for the header's count on every page
(static/js/waiting.js) and for clients that poll it (push, digest: issue 28)."""

from __future__ import annotations

from typing import Any

from ninja import Router, Schema

from accounts.requests import ApiRequest
from games import services
from games.api_schemas import ErrorOut

router = Router(tags=["me"])


class WaitingOut(Schema):
    count: int
    tables: list[int]


@router.get(
    "/me/waiting",
    url_name="my_waiting",
    response={200: WaitingOut, **{c: ErrorOut for c in (400, 401, 403, 404, 503)}},
)
def my_waiting(request: ApiRequest) -> dict[str, Any]:
    """The games being played that wait on me (my turn, or a "May I?" I may answer), oldest
    table first: the lobby's "your turn" and "May I? open" marks, counted."""
    tables = services.tables_waiting_on(user=request.auth)
    return {"count": len(tables), "tables": tables}
