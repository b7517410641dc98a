"""``GET /api/tables/<id>/analysis`` (a finished game's analysis) and ``POST`` (a player asks
for it): thin, each calls one service."""

from __future__ import annotations

from typing import Any, Literal

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest
from ninja import Router, Schema, Status
from pydantic import Field

from accounts.requests import ApiRequest
from accounts.tokens import token_user
from games.api_schemas import ErrorOut
from games.services import ServiceError
from mayi_site.ratelimits import check

from . import services
from .models import Decision

router = Router(tags=["tables"])

ERRORS: dict[int, Any] = {c: ErrorOut for c in (400, 401, 403, 404, 409, 429, 503)}


class DecisionOut(Schema):
    seq: int = Field(description="the move's number in the game's log (the replay's ?move=)")
    seat: int
    action: dict[str, Any] = Field(description="the choice made, as the move log holds it")
    best: dict[str, Any] = Field(description="the best choice the rollouts found")
    cost: float = Field(
        description="expected penalty points the choice made cost against the best (0: it was)"
    )
    label: Literal["best", "inaccuracy", "mistake", "blunder"] = Field(
        description="by the cost, in cards of the ruleset (docs/ANALYSIS.md)"
    )
    kind: Literal["draw", "buy", "discard", "lay_down", "lay_off"]
    round: int
    low: float = Field(description="the cost's confidence interval, low end")
    high: float = Field(description="the cost's confidence interval, high end")
    samples: int = Field(description="rollouts per choice")
    expected: float | None = Field(
        description="the deciding seat's expected score for the round (its final penalty, less "
        "its MAYI melds) with the best choice, as it could know it then: the replay's chart"
    )


class AnalysisOut(Schema):
    status: Literal["pending", "ready"] = Field(
        description="pending: queued or waiting for the analysis queue to be short (decisions "
        "empty); ready: every decision weighed within the budget"
    )
    decisions: list[DecisionOut]
    complete: bool = Field(
        description="every decision of the game's players was weighed (false: the CPU budget "
        "per game ran out first, or the analysis failed)"
    )
    version: int = Field(description="the engine's analysis version it was made with")
    queued: bool = Field(description="this request queued the analysis")


def decision_out(d: Decision) -> dict[str, Any]:
    return {
        "seq": d.seq,
        "seat": d.seat,
        "action": d.action,
        "best": d.best,
        "cost": d.cost,
        "label": d.label,
        "kind": d.kind,
        "round": d.round_no,
        "low": d.low,
        "high": d.high,
        "samples": d.samples,
        "expected": d.expected,
    }


def analysis_out(read: services.AnalysisRead) -> dict[str, Any]:
    return {
        "status": "ready" if read.ready else "pending",
        "decisions": [decision_out(d) for d in read.decisions],
        "complete": read.analysis.complete,
        "version": read.analysis.version,
        "queued": read.queued,
    }


def reader(request: HttpRequest) -> User | AnonymousUser:
    """Who reads: a bearer token's user (a bot or a script reading its private game), else the
    browser's session, else nobody signed in (a public game's analysis is for anyone)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        user = token_user(token.strip())
        if user is None:
            raise ServiceError("this API token is not valid", code="bad_token", status=401)
        return user
    return request.user


@router.get(
    "/tables/{int:table_id}/analysis",
    response={200: AnalysisOut, **ERRORS},
    auth=None,
    url_name="table_analysis",
)
def table_analysis(request: HttpRequest, table_id: int) -> dict[str, Any]:
    """A finished game's analysis: each decision of its players, the choice made and the best
    found, with the cost of the choice made in expected penalty points. For whoever may read
    the game's replay (a public game, or a private one they sat at), every seat's decisions
    (the game is over: every hand is public). 404 ``analysis_not_found`` before the game's end.
    Not made yet: ``pending``, and queued when the analysis queue is short."""
    return analysis_out(services.analysis_read(table_id=table_id, viewer=reader(request)))


@router.post(
    "/tables/{int:table_id}/analysis",
    response={200: AnalysisOut, 202: AnalysisOut, **ERRORS},
    url_name="table_analysis_request",
)
def table_analysis_request(request: ApiRequest, table_id: int) -> Status:
    """A player of a finished game asks for its analysis: queued whatever the queue's length
    (202, pending), or already made (200, ready). Rate-limited (``MAYI_RATE_ANALYSIS``)."""
    check("analysis", user=request.auth, message="you asked for many analyses")
    read = services.analysis_request(table_id=table_id, user=request.auth)
    return Status(200 if read.ready else 202, analysis_out(read))
