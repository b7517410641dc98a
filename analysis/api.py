"""``GET /api/tables/<id>/analysis`` (a finished game's analysis) and ``POST`` (a player asks
for it): thin, each calls one service."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest
from ninja import Router, Schema, Status
from pydantic import Field

from accounts.requests import ApiRequest
from accounts.tokens import token_user
from games.api_schemas import ErrorOut
from games.engine import RULESETS
from games.services import ServiceError
from mayi_site.ratelimits import check
from stats.selectors import ALL, PlayerHidden, PlayerNotFound, visible_player

from . import selectors, services
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


KindName = Literal["draw", "buy", "discard", "lay_down", "lay_off"]


class KindFiguresOut(Schema):
    kind: KindName
    decisions: int
    cost: float | None = Field(description="the average cost of these decisions (null: none)")
    wrong: int = Field(description="how many were not the best")


class RulesetFiguresOut(Schema):
    ruleset: str
    decisions: int
    cost: float | None = Field(description="the average cost per decision, in penalty points")
    wrong: int = Field(description="decisions that were not the best")
    wrong_share: float | None
    blunders: int
    kinds: list[KindFiguresOut]


class PatternOut(Schema):
    kind: KindName
    pattern: str = Field(description="what the choice made and the best had in common, in words")
    times: int
    cost: float = Field(description="the average cost of these decisions")


class GameFiguresOut(Schema):
    table: int
    ended: datetime | None
    ruleset: str
    public: bool
    decisions: int
    cost: float = Field(description="the average cost of the player's decisions in that game")
    serious: int = Field(description="mistakes and blunders")


class PlayerAnalysisOut(Schema):
    username: str
    scope: str = Field(description="the ruleset the figures cover, or all")
    rulesets: list[RulesetFiguresOut] = Field(description="the most analysed ruleset first")
    patterns: list[PatternOut] = Field(description="the decisions most often not the best")
    games: list[GameFiguresOut] = Field(description="the last analysed games, oldest first")


@router.get(
    "/players/{username}/analysis",
    response={200: PlayerAnalysisOut, **ERRORS},
    tags=["players"],
    url_name="player_analysis",
)
def player_analysis(request: ApiRequest, username: str, ruleset: str = ALL) -> dict[str, Any]:
    """The statistics page's "Decisions" section as JSON: a player's analysed decisions, per
    ruleset and by kind, the mistakes they make most often, and game by game. Readable by
    whoever signed in may read their statistics, as ``/api/players/<username>/stats`` (404
    ``player_not_found``, 403 ``stats_hidden``); ``ruleset`` one of the rulesets, else every
    one."""
    try:
        player = visible_player(username=username, viewer=request.auth)
    except PlayerNotFound as exc:
        raise ServiceError(str(exc), code="player_not_found", status=404) from None
    except PlayerHidden as exc:
        raise ServiceError(str(exc), code="stats_hidden", status=403) from None
    scope = ruleset if ruleset in RULESETS else ALL
    figures = selectors.player_decisions(user=player, scope=scope)
    return {
        "username": player.get_username(),
        "scope": scope,
        "rulesets": [
            {
                "ruleset": r.ruleset,
                "decisions": r.decisions,
                "cost": r.cost,
                "wrong": r.wrong,
                "wrong_share": r.wrong_share,
                "blunders": r.blunders,
                "kinds": [
                    {"kind": k.kind, "decisions": k.decisions, "cost": k.cost, "wrong": k.wrong}
                    for k in r.kinds
                ],
            }
            for r in figures["rulesets"]
        ],
        "patterns": [
            {"kind": p["kind"], "pattern": p["pattern"], "times": p["n"], "cost": p["mean"]}
            for p in figures["patterns"]
        ],
        "games": figures["games"],
    }
