"""The chat API: ``GET /api/tables/<id>/chat?before=<id>`` and ``POST /api/tables/<id>/chat``.

Thin: a ninja router mounted on the site's API (mayi_site/api.py), so authentication and the error
shape are the API's own; the rate limit (``chat`` in ``MAYI_RATE_LIMITS``, per user,
mayi_site/ratelimits.py) is checked here, at the edge, before the service runs.
"""

from __future__ import annotations

from typing import Any

from ninja import Router, Schema, Status
from pydantic import ConfigDict, Field, StrictStr

from accounts.requests import ApiRequest
from games.api_schemas import ErrorOut
from mayi_site.ratelimits import RateLimited
from mayi_site.ratelimits import check as ratelimit_check

from . import services
from .models import TEXT_MAX
from .signals import flood_blocked

router = Router(tags=["chat"])

ERRORS: dict[int, Any] = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut}


class ChatIn(Schema):
    model_config = ConfigDict(extra="forbid")

    text: StrictStr | None = Field(default=None, max_length=TEXT_MAX * 2)
    reaction: StrictStr | None = Field(
        default=None, max_length=20, description=f"one of {', '.join(services.REACTIONS)}"
    )


class ChatMessageOut(Schema):
    id: int
    hidden: bool
    author: str | None = None
    mine: bool = False
    audience: str | None = None
    text: str | None = None
    reaction: str | None = None
    move: int | None = None
    created: str | None = None


class ChatPageOut(Schema):
    messages: list[ChatMessageOut]
    more: bool = Field(description="older messages exist: ask again with before=<first id>")
    reactions: dict[str, str]


@router.get("/tables/{int:table_id}/chat", response={200: ChatPageOut, **ERRORS})
def chat_page(request: ApiRequest, table_id: int, before: int | None = None) -> dict[str, Any]:
    """The newest messages I may see at this table (oldest first), older ones with ``before``."""
    user = request.auth
    messages, more = services.chat_page(table_id=table_id, user=user, before=before)
    return {
        "messages": [services.chat_json(m, user) for m in messages],
        "more": more,
        "reactions": services.REACTIONS,
    }


@router.post(
    "/tables/{int:table_id}/chat",
    response={201: ChatMessageOut, 409: ErrorOut, 429: ErrorOut, **ERRORS},
)
def chat_post(request: ApiRequest, table_id: int, payload: ChatIn) -> Status:
    """Say something at the table: players to players, spectators of a public table to
    spectators. Plain text (no HTML), at most 500 characters, or a canned ``reaction``."""
    user = request.auth
    try:
        ratelimit_check("chat", user=user, message="you are sending messages too fast")
    except RateLimited:
        flood_blocked.send(sender=chat_post, user=user, table_id=table_id)
        raise
    message = services.chat_post(
        table_id=table_id, user=user, text=payload.text, reaction=payload.reaction
    )
    return Status(201, services.chat_json(message, user))
