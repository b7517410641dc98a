"""``POST /api/tables/<id>/reports``: a player reports a message or a player (thin)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django_ratelimit.core import is_ratelimited
from ninja import Router, Schema, Status
from pydantic import ConfigDict, Field, StrictInt, StrictStr

from accounts.requests import ApiRequest
from chat.api import RateLimited
from games.api_schemas import ErrorOut

from . import services
from .models import Report

router = Router(tags=["moderation"])


class ReportIn(Schema):
    model_config = ConfigDict(extra="forbid")

    reason: StrictStr = Field(description=f"one of {', '.join(Report.Reason.values)}")
    note: StrictStr = Field(default="", max_length=1000)
    message: StrictInt | None = Field(default=None, description="the chat message's id")
    user: StrictStr | None = Field(default=None, max_length=150, description="a player's name")


class ReportOut(Schema):
    id: int
    status: str


@router.post(
    "/tables/{int:table_id}/reports",
    response={201: ReportOut, **{c: ErrorOut for c in (400, 401, 403, 404, 429)}},
)
def report_create(request: ApiRequest, table_id: int, payload: ReportIn) -> Status:
    """Report a chat message (``message``) or a player (``user``) of this table to the
    moderators, with a reason and an optional note."""
    user: Any = request.auth
    if is_ratelimited(
        request,
        group="report",
        key=lambda group, req: str(user.pk),
        rate=settings.MAYI_REPORT_RATE,
        increment=True,
    ):
        raise RateLimited("you have sent many reports; wait a little")
    report = services.report_create(
        reporter=user,
        table_id=table_id,
        reason=payload.reason,
        note=payload.note,
        message_id=payload.message,
        username=payload.user,
    )
    return Status(201, {"id": report.pk, "status": report.status})
