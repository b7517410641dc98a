"""``POST /api/tables/<id>/reports``: a player reports a message or a player; ``POST
/api/appeals``: a restricted member appeals a restriction (thin)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema, Status
from ninja.security import HttpBearer, SessionAuth
from ninja.utils import check_csrf
from pydantic import ConfigDict, Field, StrictInt, StrictStr

from accounts.requests import ApiRequest
from accounts.tokens import token_owner
from games.api_schemas import ErrorOut
from games.services import ServiceError
from mayi_site.ratelimits import check as ratelimit_check

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
    ratelimit_check("report", user=user, message="you have sent many reports")
    report = services.report_create(
        reporter=user,
        table_id=table_id,
        reason=payload.reason,
        note=payload.note,
        message_id=payload.message,
        username=payload.user,
    )
    return Status(201, {"id": report.pk, "status": report.status})


class AppealIn(Schema):
    model_config = ConfigDict(extra="forbid")

    restriction: StrictInt = Field(description="the restriction's id (the member's own)")
    text: StrictStr = Field(max_length=services.APPEAL_TEXT_LIMIT)


class AppealOut(Schema):
    id: int
    restriction: int
    status: str


class RestrictedMemberToken(HttpBearer):
    """A bearer token, even of a suspended or banned member (every other endpoint refuses
    theirs with 401): they may still appeal with it. Otherwise the site's usual doors."""

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        return token_owner(token.strip())


class MemberSession(SessionAuth):
    """The browser's session (a muted member's), the CSRF token required as everywhere."""

    def __call__(self, request: HttpRequest) -> Any:
        if not request.user.is_authenticated:
            return None
        if not getattr(request, "_ninja_csrf_exempt", False) and check_csrf(request) is not None:
            raise ServiceError("CSRF check failed: send the X-CSRFToken header", code="csrf_failed")
        return request.user


@router.post(
    "/appeals",
    response={201: AppealOut, **{c: ErrorOut for c in (400, 401, 403, 404, 409, 429)}},
    auth=[RestrictedMemberToken(), MemberSession()],
)
def appeal_file(request: ApiRequest, payload: AppealIn) -> Status:
    """Appeal one of my restrictions (a mute, a suspension, a ban) to the senior moderators:
    once per restriction (a second answers 409 ``appeal_exists``)."""
    user: Any = request.auth
    appeal = services.appeal_file(actor=user, restriction_id=payload.restriction, text=payload.text)
    return Status(
        201, {"id": appeal.pk, "restriction": appeal.restriction_id, "status": appeal.status}
    )
