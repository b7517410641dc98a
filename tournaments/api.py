"""``/api/tournaments``: thin; authenticate (the API's own auth), parse, call one service.
Refusals are the games services' kind, answered in the one error shape by the API's handler."""

from __future__ import annotations

from typing import Any

from ninja import Router, Status

from accounts.requests import ApiRequest
from games.api_schemas import ErrorOut
from games.services import BadOptions

from . import selectors, services
from .schemas import TournamentCreateIn, TournamentJoinIn

router = Router(tags=["tournaments"])

ERRORS: dict[int, Any] = {c: ErrorOut for c in (400, 401, 403, 404, 409, 503)}


def _payload(request: ApiRequest, tournament_id: int) -> dict[str, Any]:
    tournament = selectors.tournament_for(tournament_id=tournament_id, viewer=request.auth)
    return selectors.tournament_payload(tournament, request.auth)


@router.get("/tournaments", response={200: dict[str, Any], **ERRORS})
def list_tournaments(request: ApiRequest) -> dict[str, Any]:
    """Public tournaments and mine, newest first."""
    return {
        "tournaments": [
            {
                "id": t.pk,
                "name": t.name,
                "status": t.status,
                "round": t.round,
                "rounds": t.rounds,
                "ruleset": t.ruleset,
                "table_size": t.table_size,
                "public": t.public,
                "players": getattr(t, "players", 0),
                "max_players": t.max_players,
            }
            for t in selectors.tournament_list(viewer=request.auth)
        ]
    }


@router.post("/tournaments", response={201: dict[str, Any], **ERRORS})
def create_tournament(request: ApiRequest, payload: TournamentCreateIn) -> Status:
    tournament = services.tournament_create(creator=request.auth, **payload.dict())
    return Status(201, _payload(request, tournament.pk))


@router.get("/tournaments/{int:tournament_id}", response={200: dict[str, Any], **ERRORS})
def get_tournament(request: ApiRequest, tournament_id: int) -> dict[str, Any]:
    """The tournament, its standings and each round's tables."""
    return _payload(request, tournament_id)


@router.post("/tournaments/{int:tournament_id}/join", response={200: dict[str, Any], **ERRORS})
def join_tournament(request: ApiRequest, tournament_id: int) -> dict[str, Any]:
    """Register. A tournament by invitation takes its code: the JSON body
    ``{"invite_code": "..."}`` (or ``?invite_code=``); any other body is ignored, so a bare
    POST joins a public one."""
    services.tournament_join(
        user=request.auth, tournament_id=tournament_id, invite_code=_invite_code(request)
    )
    return _payload(request, tournament_id)


def _invite_code(request: ApiRequest) -> str | None:
    code = request.GET.get("invite_code")
    if request.content_type == "application/json" and request.body.strip():
        try:
            body = TournamentJoinIn.model_validate_json(request.body)
        except ValueError:
            raise BadOptions(
                'the body must be {"invite_code": "..."}', code="bad_request"
            ) from None
        code = body.invite_code or code
    return code


@router.post("/tournaments/{int:tournament_id}/withdraw", response={200: dict[str, Any], **ERRORS})
def withdraw_from_tournament(request: ApiRequest, tournament_id: int) -> dict[str, Any]:
    """Leave: points kept; a game being played goes to the bot (the seat scores last)."""
    services.tournament_withdraw(user=request.auth, tournament_id=tournament_id)
    return _payload(request, tournament_id)


@router.post("/tournaments/{int:tournament_id}/start", response={200: dict[str, Any], **ERRORS})
def start_tournament(request: ApiRequest, tournament_id: int) -> dict[str, Any]:
    """The creator (or staff) starts round 1, with at least one table's players."""
    services.tournament_start(user=request.auth, tournament_id=tournament_id)
    return _payload(request, tournament_id)
