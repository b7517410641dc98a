"""``/api/me/export`` and ``/api/me/delete``: a player's own data over the API (thin)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from ninja import Router, Schema, Status
from pydantic import ConfigDict, Field, StrictStr

from accounts.requests import ApiRequest
from games.api_schemas import ErrorOut

from . import services
from .models import DataExport

router = Router(tags=["me"])

ERRORS: dict[int, Any] = {c: ErrorOut for c in (400, 401, 403, 404, 429, 503)}


class ExportOut(Schema):
    id: int
    status: str


class ExportCreatedOut(Schema):
    export: ExportOut


class ExportStatusOut(Schema):
    id: int
    status: str = Field(description="pending, ready, failed or expired")
    url: str | None = Field(default=None, description="the zip's address, once ready (24 h)")
    expires: str | None = None
    size: int | None = None


class DeleteIn(Schema):
    model_config = ConfigDict(extra="forbid")

    password: StrictStr = Field(max_length=4096)


class DeletedOut(Schema):
    deleted: bool
    username: str


def status_of(request: HttpRequest, export: DataExport) -> dict[str, Any]:
    if export.status == DataExport.Status.READY and not services.export_live(export):
        return {"id": export.pk, "status": "expired"}
    body: dict[str, Any] = {"id": export.pk, "status": export.status}
    if export.status == DataExport.Status.READY:
        path = reverse("privacy_download", args=[export.pk, export.token])
        body.update(
            url=request.build_absolute_uri(path),
            expires=export.expires.isoformat() if export.expires else None,
            size=export.size,
        )
    return body


@router.post("/me/export", response={202: ExportCreatedOut, **ERRORS})
def export_create(request: ApiRequest) -> Status:
    """Ask for a zip of everything the site holds about me (JSON and CSV); a task prepares
    it. Poll ``GET /api/me/export/<id>`` for its ``url``, valid 24 hours, for me alone."""
    export = services.export_request(user=request.auth)
    return Status(202, {"export": {"id": export.pk, "status": export.status}})


@router.get("/me/export/{int:export_id}", response={200: ExportStatusOut, **ERRORS})
def export_status(request: ApiRequest, export_id: int) -> dict[str, Any]:
    return status_of(request, services.export_of(user=request.auth, export_id=export_id))


@router.post("/me/delete", response={200: DeletedOut, **ERRORS})
def account_delete(request: ApiRequest, payload: DeleteIn) -> dict[str, Any]:
    """Delete my account, confirmed with my password (what goes and what stays: the profile
    page says it, and privacy/services.py)."""
    user = services.account_delete(user=request.auth, password=payload.password)
    return {"deleted": True, "username": user.get_username()}
