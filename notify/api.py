"""The push API: the VAPID key, and a browser's subscription stored or forgotten.

Pinned: ``GET /api/push/key`` → ``{"public_key"}``; ``POST /api/push/subscriptions`` with
``PushSubscription.toJSON()`` → 201 (new) or 200 (known); ``DELETE /api/push/subscriptions``
``{"endpoint"}`` → 204; an endpoint the SSRF guard refuses → 400 ``bad_push_endpoint``.
Mounted on the site's API (mayi_site/api.py): its authentication and error shape.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, JsonResponse
from ninja import Router, Schema, Status
from pydantic import ConfigDict, Field, StrictStr

from accounts.requests import ApiRequest
from games.api_schemas import ErrorOut
from games.errors import error_body

from . import guard, nudges, services, vapid

router = Router(tags=["push"])

ERRORS: dict[int, Any] = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 503: ErrorOut}


def _refusal(status: int, code: str, message: str, **headers: str) -> HttpResponse:
    response = JsonResponse(error_body(code, message), status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


class KeyOut(Schema):
    public_key: str = Field(description="the VAPID application server key, base64url")


class KeysIn(Schema):
    model_config = ConfigDict(extra="ignore")

    p256dh: StrictStr = Field(min_length=16, max_length=200)
    auth: StrictStr = Field(min_length=8, max_length=100)


class SubscriptionIn(Schema):
    """The browser's ``PushSubscription.toJSON()`` (``expirationTime`` is ignored)."""

    model_config = ConfigDict(extra="ignore")

    endpoint: StrictStr = Field(max_length=guard.MAX_LENGTH)
    keys: KeysIn


class EndpointIn(Schema):
    model_config = ConfigDict(extra="ignore")

    endpoint: StrictStr = Field(max_length=guard.MAX_LENGTH)


class SubscriptionOut(Schema):
    id: int
    endpoint: str
    label: str
    created: str


def _key_or_refusal() -> str | HttpResponse:
    try:
        return vapid.public_key()
    except vapid.PushOff as exc:
        return _refusal(503, "push_unavailable", str(exc))


@router.get("/push/key", response={200: KeyOut, **ERRORS})
def push_key(request: ApiRequest) -> Any:
    """The key a browser subscribes with (``pushManager.subscribe``'s applicationServerKey)."""
    key = _key_or_refusal()
    if isinstance(key, HttpResponse):
        return key
    return {"public_key": key}


@router.get("/push/subscriptions", response={200: list[SubscriptionOut], **ERRORS})
def push_list(request: ApiRequest) -> list[dict[str, Any]]:
    """My browsers that get pushes."""
    return [
        {"id": s.pk, "endpoint": s.endpoint, "label": s.label, "created": s.created.isoformat()}
        for s in services.push_subscriptions_of(request.auth)
    ]


@router.post("/push/subscriptions", response={200: SubscriptionOut, 201: SubscriptionOut, **ERRORS})
def push_subscribe(request: ApiRequest, payload: SubscriptionIn) -> Any:
    """Store this browser's subscription: 201 when new, 200 when it was known already."""
    key = _key_or_refusal()
    if isinstance(key, HttpResponse):
        return key
    try:
        done = services.push_subscribe(
            user=request.auth,
            endpoint=payload.endpoint,
            p256dh=payload.keys.p256dh,
            auth=payload.keys.auth,
            label=_label(request.headers.get("User-Agent", "")),
        )
    except guard.BadEndpoint as exc:
        return _refusal(400, "bad_push_endpoint", str(exc))
    sub = done.subscription
    body = {
        "id": sub.pk,
        "endpoint": sub.endpoint,
        "label": sub.label,
        "created": sub.created.isoformat(),
    }
    return Status(201 if done.created else 200, body)


@router.delete("/push/subscriptions", response={204: None, **ERRORS})
def push_unsubscribe(request: ApiRequest, payload: EndpointIn) -> Any:
    """Forget this browser's subscription (204 whether or not it was known: it is gone)."""
    services.push_unsubscribe(user=request.auth, endpoint=payload.endpoint)
    return Status(204, None)


def _label(user_agent: str) -> str:
    """A name for a browser the profile lists ("Firefox on Android"), from its user agent."""
    ua = user_agent
    browser = next(
        (
            name
            for token, name in (
                ("Edg/", "Edge"),
                ("OPR/", "Opera"),
                ("Firefox/", "Firefox"),
                ("Chrome/", "Chrome"),
                ("Safari/", "Safari"),
            )
            if token in ua
        ),
        "A browser",
    )
    system = next(
        (
            name
            for token, name in (
                ("Android", "Android"),
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Windows", "Windows"),
                ("Mac OS", "macOS"),
                ("CrOS", "ChromeOS"),
                ("Linux", "Linux"),
            )
            if token in ua
        ),
        "",
    )
    return f"{browser} on {system}" if system else browser


class NudgeOut(Schema):
    nudged: int = Field(description="the seat (0-based) of the player nudged")


@router.post(
    "/tables/{int:table_id}/nudge",
    response={200: NudgeOut, 404: ErrorOut, 409: ErrorOut, 429: ErrorOut, **ERRORS},
    tags=["play"],
)
def nudge(request: ApiRequest, table_id: int) -> Any:
    """Nudge the player whose turn keeps the table waiting (held an hour or more; once per
    table per day: 429 ``nudge_limit`` with Retry-After). Only they are told."""
    try:
        done = nudges.nudge_send(table_id=table_id, user=request.auth)
    except nudges.NudgeLimit as exc:
        return _refusal(429, exc.code, exc.message, Retry_After=str(exc.retry_after))
    return {"nudged": done.seat}
