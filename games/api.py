"""The JSON API under /api/: thin; authenticate, parse, call one service, shape the answer.

Every refusal has the shape ``{"error": {"code", "message"}}`` (a stale version adds the fresh
``table`` and ``view``), including ninja's own validation and parsing errors.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from ninja import NinjaAPI, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from ninja.security import HttpBearer, SessionAuth
from ninja.utils import check_csrf

from accounts.models import Profile
from accounts.requests import ApiRequest
from accounts.tokens import token_of_inactive_user, token_user
from chat.api import router as chat_router
from games import services
from games.api_messages import validation_message
from games.api_schemas import (
    ActionIn,
    BotsIn,
    BuyOrderIn,
    CheckIn,
    CheckOut,
    ErrorOut,
    InviteIn,
    LogPageOut,
    PlayNowIn,
    StaleOut,
    TableCreateIn,
    TableListOut,
    TableOut,
    VacationIn,
    VacationOut,
)
from games.engine import IllegalMove
from games.errors import error_body
from games.models import BenchWrite, Table
from games.ratelimits import ratelimited
from mayi_site.fastjson import OrjsonRenderer, api_json
from mayi_site.middleware import install as install_error_answers
from moderation.api import router as moderation_router
from stats.api import router as stats_router

logger = logging.getLogger("games.api")


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class BadJson(ValueError):
    pass


class JsonParser(Parser):
    def parse_body(self, request: HttpRequest) -> Any:
        if not request.body.strip():
            # No body at all is an empty object: "Play now" needs none; an endpoint that needs
            # fields still refuses it, as bad_request naming them.
            return {}
        try:
            return json.loads(request.body)
        except (ValueError, UnicodeDecodeError) as exc:
            # ninja wraps this in HttpError(400); the handler below finds it as the cause.
            raise BadJson(str(exc)) from exc


class BearerToken(HttpBearer):
    """``Authorization: Bearer <token>`` for bots and scripts; no CSRF (no ambient cookie)."""

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        user = token_user(token.strip())
        if user is None:
            if token_of_inactive_user(token.strip()):
                raise ApiError(
                    401,
                    "bad_token",
                    "this API token's account is suspended or banned: "
                    "sign in on the site to read why",
                )
            raise ApiError(401, "bad_token", "this API token is not valid")
        request.user = user
        return user


class BrowserSession(SessionAuth):
    """The browser's session cookie; unsafe methods must carry the CSRF token."""

    def __call__(self, request: HttpRequest) -> Any:
        if not request.user.is_authenticated:
            return None
        if (
            request.method not in ("GET", "HEAD", "OPTIONS", "TRACE")
            and not getattr(request, "_ninja_csrf_exempt", False)
            and check_csrf(request) is not None
        ):
            raise ApiError(403, "csrf_failed", "CSRF check failed: send the X-CSRFToken header")
        return request.user


api = NinjaAPI(
    title="May I?",
    version="1",
    description="Tables, seats and moves of the May I? card game.",
    auth=[BearerToken(), BrowserSession()],
    parser=JsonParser(),
    renderer=OrjsonRenderer(),
    urls_namespace="api",
)
# 503 for retryable database errors, 413, 429 (mayi_site/middleware.py).
install_error_answers(api)


def error(status: int, code: str, message: str, **extra: Any) -> HttpResponse:
    """A refusal in the one shape (codes and statuses: games/errors.py)."""
    return JsonResponse(error_body(code, message, **extra), status=status)


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return error(exc.status, exc.code, exc.message)


@api.exception_handler(services.StaleVersion)
def _stale(request: ApiRequest, exc: services.StaleVersion) -> HttpResponse:
    try:
        # The fresh view goes only to someone who may see the table.
        services.table_check_access(exc.table, exc.seats, request.auth)
    except services.NotSeated as refused:
        return error(refused.status, refused.code, refused.message)
    payload = services.table_payload(exc.table, exc.seats, request.auth, since=exc.since)
    return error(exc.status, exc.code, exc.message, **payload)


@api.exception_handler(services.ServiceError)
def _service_error(request: HttpRequest, exc: services.ServiceError) -> HttpResponse:
    return error(*services.refusal(exc))


@api.exception_handler(IllegalMove)
def _illegal(request: HttpRequest, exc: IllegalMove) -> HttpResponse:
    return error(*services.refusal(exc))


@api.exception_handler(ValidationError)
def _validation(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    # In players' words (the page shows the message as it is); the code stays bad_request.
    return error(400, "bad_request", validation_message(exc.errors))


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return error(401, "not_authenticated", "sign in, or send Authorization: Bearer <token>")


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if isinstance(exc.__cause__, BadJson):
        return error(400, "bad_json", f"the body is not valid JSON: {exc.__cause__}")
    return error(exc.status_code, "bad_request" if exc.status_code == 400 else "error", str(exc))


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error(404, "not_found", "no such resource")


def _payload(request: ApiRequest, table: Table) -> dict[str, Any]:
    table, seats = services.table_read(table_id=table.pk)
    return services.table_payload(table, seats, request.auth)


ERRORS: dict[int, Any] = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 503: ErrorOut}


@api.get("/tables", response={200: TableListOut, 401: ErrorOut}, tags=["tables"])
def list_tables(request: ApiRequest) -> dict[str, Any]:
    """Open public tables, and every table the caller sits at."""
    user = request.auth
    tables = services.table_list_for_user(user=user)
    return {"tables": [services.table_meta(t, services.seats_of(t), user) for t in tables]}


@api.post("/tables", response={201: TableOut, 429: ErrorOut, **ERRORS}, tags=["tables"])
@ratelimited("table_create")
def create_table(request: ApiRequest, payload: TableCreateIn) -> Status:
    table = services.table_create(
        host=request.auth,
        ruleset=payload.ruleset,
        seats=payload.seats,
        turn_seconds=payload.turn_seconds,
        window_seconds=payload.window_seconds,
        strikes=payload.strikes,
        bank_seconds=payload.bank_seconds,
        bank_max_seconds=payload.bank_max_seconds,
        public=payload.public,
        timeout_level=payload.timeout_level,
        bot_level=payload.bot_level,
        engine_options=payload.engine_options,
    )
    return Status(201, _payload(request, table))


@api.post("/tables/play-now", response={201: TableOut, 429: ErrorOut, **ERRORS}, tags=["tables"])
@ratelimited("table_create")
def play_now(request: ApiRequest, payload: PlayNowIn | None = None) -> Status:
    """A started table against bots in one call (the body may be left out)."""
    options = payload or PlayNowIn()
    table = services.table_play_now(
        user=request.auth,
        ruleset=options.ruleset,
        seats=options.seats,
        level=options.level,
    )
    return Status(201, _payload(request, table))


@api.post("/tables/join", response={200: TableOut, 409: ErrorOut, **ERRORS}, tags=["tables"])
def join_by_invite(request: ApiRequest, payload: InviteIn) -> dict[str, Any]:
    """Join a table (public or private) with its invite code."""
    table = services.table_join(user=request.auth, invite_code=payload.invite_code)
    return _payload(request, table)


@api.get("/tables/{int:table_id}", response={200: TableOut, **ERRORS}, tags=["tables"])
def get_table(request: ApiRequest, table_id: int, since: int | None = None) -> dict[str, Any]:
    """The table, the caller's view of the game (a spectator's view for a public table) and
    the log of the moves after version ``since`` (without it: the last 200 moves)."""
    user = request.auth
    table, seats = services.table_get_for_user(table_id=table_id, user=user)
    payload = services.table_payload(table, seats, user, since=since)
    services.seat_mark_seen(seats=seats, user=user, version=table.version)
    return payload


@api.get("/tables/{int:table_id}/log", response={200: LogPageOut, **ERRORS}, tags=["play"])
def get_table_log(
    request: ApiRequest, table_id: int, before: int | None = None, limit: int = 100
) -> dict[str, Any]:
    """Older moves of the log: up to ``limit`` (at most 200) moves before seq ``before``
    (without it: the newest), oldest first, each as the caller's seat may see it."""
    user = request.auth
    table, seats = services.table_get_for_user(table_id=table_id, user=user)
    return services.table_log_page(table=table, seats=seats, user=user, before=before, limit=limit)


@api.post(
    "/tables/{int:table_id}/join",
    response={200: TableOut, 409: ErrorOut, **ERRORS},
    tags=["tables"],
)
def join_table(request: ApiRequest, table_id: int) -> dict[str, Any]:
    table = services.table_join(user=request.auth, table_id=table_id)
    return _payload(request, table)


@api.post(
    "/tables/{int:table_id}/leave",
    response={200: TableOut, 409: ErrorOut, **ERRORS},
    tags=["tables"],
)
def leave_table(request: ApiRequest, table_id: int) -> dict[str, Any]:
    table = services.table_leave(user=request.auth, table_id=table_id)
    return _payload(request, table)


@api.post(
    "/tables/{int:table_id}/bots",
    response={200: TableOut, 409: ErrorOut, **ERRORS},
    tags=["tables"],
)
def fill_with_bots(
    request: ApiRequest, table_id: int, payload: BotsIn | None = None
) -> dict[str, Any]:
    """The host fills every empty seat with a bot, at ``level`` (easy, normal, strong). The
    body may be left out: the bots then play at the table's ``bot_level`` (normal unless the
    table was made with another)."""
    level = payload.level if payload is not None else None
    table = services.table_fill_with_bots(user=request.auth, table_id=table_id, level=level)
    return _payload(request, table)


@api.post(
    "/tables/{int:table_id}/start",
    response={200: TableOut, 409: ErrorOut, **ERRORS},
    tags=["tables"],
)
def start_table(request: ApiRequest, table_id: int) -> dict[str, Any]:
    table = services.table_start(user=request.auth, table_id=table_id)
    return _payload(request, table)


@api.post(
    "/tables/{int:table_id}/actions",
    response={200: TableOut, 409: StaleOut, 429: ErrorOut, **ERRORS},
    tags=["play"],
)
@ratelimited("action")
def submit_action(request: ApiRequest, table_id: int, payload: ActionIn) -> HttpResponse:
    """Play one action at ``expect_version``; 200 with the new view, 409 with the fresh one."""
    action = payload.model_dump(exclude={"expect_version"}, exclude_none=True)
    table, seats = services.table_submit_action(
        table_id=table_id,
        user=request.auth,
        action=action,
        expect_version=payload.expect_version,
    )
    # The hot path: the payload is built by our own code in TableOut's shape (the tests check
    # it), so it skips ninja's response validation.
    # Its log: the moves this commit wrote (the action's, the bots' and standing orders').
    answer = services.table_payload(table, seats, request.auth, moves=table.committed_moves)
    return HttpResponse(api_json(answer), content_type="application/json")


@api.post(
    "/tables/{int:table_id}/rematch",
    response={200: TableOut, 409: ErrorOut, **ERRORS},
    tags=["tables"],
)
def rematch(request: ApiRequest, table_id: int) -> dict[str, Any]:
    """ "Play again" with the same players: the new table (made once; asking again, or
    another player asking, answers the same table)."""
    table = services.table_rematch(user=request.auth, table_id=table_id)
    return _payload(request, table)


@api.post(
    "/tables/{int:table_id}/check",
    response={200: CheckOut, 409: ErrorOut, **ERRORS},
    tags=["play"],
)
def check_selection(request: ApiRequest, table_id: int, payload: CheckIn) -> dict[str, Any]:
    """What my selected and staged cards make against the round's contract (the page's
    meter), and, for one selected card, where it may be laid off now. Reads only."""
    return services.table_check_selection(
        table_id=table_id,
        user=request.auth,
        cards=payload.cards,
        melds=payload.melds,
    )


@api.post(
    "/tables/{int:table_id}/orders",
    response={200: TableOut, 409: ErrorOut, **ERRORS},
    tags=["play"],
)
def set_buy_order(request: ApiRequest, table_id: int, payload: BuyOrderIn) -> dict[str, Any]:
    """My standing order for "May I?" windows at this table; it answers at once when it can."""
    table, seats = services.seat_set_buy_order(
        table_id=table_id,
        user=request.auth,
        order=payload.order,
        limit=payload.limit,
    )
    return services.table_payload(table, seats, request.auth)


def _vacation(profile: Any) -> dict[str, Any]:
    now = timezone.now()
    until = profile.vacation_until if profile and profile.vacation_until else None
    return {
        "vacation_until": until.isoformat() if until and until > now else None,
        "days_left": services.vacation_days_left(profile, now),
        "days_per_year": settings.MAYI_VACATION_DAYS_PER_YEAR,
    }


@api.get("/vacation", response={200: VacationOut, **ERRORS}, tags=["clocks"])
def get_vacation(request: ApiRequest) -> dict[str, Any]:
    profile = Profile.objects.for_user(request.auth)
    return _vacation(profile)


@api.post("/vacation", response={200: VacationOut, **ERRORS}, tags=["clocks"])
def start_vacation(request: ApiRequest, payload: VacationIn) -> dict[str, Any]:
    """Spend days to pause my turn clocks at every table (from now, or after the current one)."""
    return _vacation(services.vacation_start(user=request.auth, days=payload.days))


@api.post("/vacation/end", response={200: VacationOut, **ERRORS}, tags=["clocks"])
def end_vacation(request: ApiRequest) -> dict[str, Any]:
    """Come back early: my clocks run again; whole days not begun are given back."""
    return _vacation(services.vacation_end(user=request.auth))


@api.post("/bench/write", include_in_schema=False)
def bench_write(request: ApiRequest) -> dict[str, Any]:
    """The floor of the stack for bench/api_moves.py: same auth and server, one row written."""
    if not settings.MAYI_BENCH_ENDPOINTS:
        raise Http404
    row = BenchWrite.objects.create(note=str(request.auth)[:40])
    return {"id": row.pk}


# Feature routers of other apps (table chat, reports), under the same auth and error shape.
api.add_router("", chat_router)
api.add_router("", moderation_router)
api.add_router("", stats_router)


def api_not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Anything under /api/ that no route matches still answers in the API's error shape."""
    return error(404, "not_found", f"no API route {request.path}")
