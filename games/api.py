"""The games' JSON endpoints under /api/ (tables, seats, moves, clocks): thin; parse, call one
service, shape the answer.

A router mounted on the site's API (mayi_site/api.py), which authenticates the caller and
gives every refusal its one shape, ``{"error": {"code", "message"}}`` (a stale version adds
the fresh ``table`` and ``view``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpResponse
from django.utils import timezone
from ninja import Router, Status

from accounts.models import Profile
from accounts.requests import ApiRequest
from games import broadcast, services
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
from games.models import Table
from games.services.pace import LobbyFilters
from mayi_site.fastjson import api_json
from mayi_site.ratelimits import ratelimited

router = Router()


def _payload(request: ApiRequest, table: Table) -> dict[str, Any]:
    table, seats = services.table_read(table_id=table.pk)
    return services.table_payload(table, seats, request.auth)


ERRORS: dict[int, Any] = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 503: ErrorOut}


@router.get("/tables", response={200: TableListOut, 400: ErrorOut, 401: ErrorOut}, tags=["tables"])
def list_tables(
    request: ApiRequest, ruleset: str = "", pace: str = "", seats_free: int = 1
) -> dict[str, Any]:
    """Open public tables with a seat free (filtered: ``ruleset``; ``pace`` fast, day or slow;
    at least ``seats_free`` free), and every table the caller sits at. None where a player sits
    whom the caller blocked or who blocked them."""
    user = request.auth
    tables = services.table_list_for_user(
        user=user,
        filters=LobbyFilters.parse({"ruleset": ruleset, "pace": pace, "seats_free": seats_free}),
    )
    return {"tables": [services.table_meta(t, services.seats_of(t), user) for t in tables]}


@router.post("/tables", response={201: TableOut, 429: ErrorOut, **ERRORS}, tags=["tables"])
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
        min_reliability=payload.min_reliability,
        max_timeouts=payload.max_timeouts,
    )
    return Status(201, _payload(request, table))


@router.post("/tables/play-now", response={201: TableOut, 429: ErrorOut, **ERRORS}, tags=["tables"])
@ratelimited("table_create")
def play_now(request: ApiRequest, payload: PlayNowIn | None = None) -> Status:
    """A started table against bots in one call (the body may be left out)."""
    options = payload or PlayNowIn()
    table = services.table_play_now(
        user=request.auth,
        ruleset=options.ruleset,
        seats=options.seats,
        level=options.level,
        window_seconds=options.window_seconds,
    )
    return Status(201, _payload(request, table))


@router.post("/tables/join", response={200: TableOut, 409: ErrorOut, **ERRORS}, tags=["tables"])
def join_by_invite(request: ApiRequest, payload: InviteIn) -> dict[str, Any]:
    """Join a table (public or private) with its invite code."""
    table = services.table_join(user=request.auth, invite_code=payload.invite_code)
    return _payload(request, table)


@router.get("/tables/{int:table_id}", response={200: TableOut, **ERRORS}, tags=["tables"])
def get_table(
    request: ApiRequest, table_id: int, since: int | None = None, hidden: bool = False
) -> dict[str, Any]:
    """The table, the caller's view of the game (a spectator's view for a public table) and
    the log of the moves after version ``since`` (without it: the last 200 moves). The read
    records the version as seen by the player ("since you last looked"), unless ``hidden``:
    a page in a background tab reads it, nobody looks."""
    user = request.auth
    table, seats = services.table_get_for_user(table_id=table_id, user=user)
    payload = services.table_payload(table, seats, user, since=since)
    if not hidden:
        services.seat_mark_seen(seats=seats, user=user, version=table.version)
    return payload


@router.get("/tables/{int:table_id}/log", response={200: LogPageOut, **ERRORS}, tags=["play"])
def get_table_log(
    request: ApiRequest, table_id: int, before: int | None = None, limit: int = 100
) -> dict[str, Any]:
    """Older moves of the log: up to ``limit`` (at most 200) moves before seq ``before``
    (without it: the newest), oldest first, each as the caller's seat may see it."""
    user = request.auth
    table, seats = services.table_get_for_user(table_id=table_id, user=user)
    return services.table_log_page(table=table, seats=seats, user=user, before=before, limit=limit)


@router.post(
    "/tables/{int:table_id}/join",
    response={200: TableOut, 409: ErrorOut, **ERRORS},
    tags=["tables"],
)
def join_table(request: ApiRequest, table_id: int) -> dict[str, Any]:
    table = services.table_join(user=request.auth, table_id=table_id)
    return _payload(request, table)


@router.post(
    "/tables/{int:table_id}/leave",
    response={200: TableOut, 409: ErrorOut, **ERRORS},
    tags=["tables"],
)
def leave_table(request: ApiRequest, table_id: int) -> dict[str, Any]:
    table = services.table_leave(user=request.auth, table_id=table_id)
    return _payload(request, table)


@router.post(
    "/tables/{int:table_id}/bots",
    response={200: TableOut, 409: ErrorOut, **ERRORS},
    tags=["tables"],
)
def fill_with_bots(
    request: ApiRequest, table_id: int, payload: BotsIn | None = None
) -> dict[str, Any]:
    """The host fills every empty seat with a bot, at ``level`` (easy, normal, strong,
    expert). The body may be left out: the bots then play at the table's ``bot_level`` (normal
    unless the table was made with another)."""
    level = payload.level if payload is not None else None
    table = services.table_fill_with_bots(user=request.auth, table_id=table_id, level=level)
    return _payload(request, table)


@router.post(
    "/tables/{int:table_id}/start",
    response={200: TableOut, 409: ErrorOut, **ERRORS},
    tags=["tables"],
)
def start_table(request: ApiRequest, table_id: int) -> dict[str, Any]:
    table = services.table_start(user=request.auth, table_id=table_id)
    return _payload(request, table)


@router.post(
    "/tables/{int:table_id}/actions",
    response={200: TableOut, 409: StaleOut, 429: ErrorOut, **ERRORS},
    tags=["play"],
)
@ratelimited("action")
def submit_action(request: ApiRequest, table_id: int, payload: ActionIn) -> HttpResponse:
    """Play one action at ``expect_version``; 200 with the new view, 409 with the fresh one."""
    action = payload.model_dump(exclude={"expect_version"}, exclude_none=True)
    # ``X-Table-Socket``: the page's socket of this table (its ``?client=``), which this
    # answer brings up to date: not sent the new version as a frame too. Read from META, as
    # the token is (mayi_site/api.py), so no request on this path builds ``request.headers``.
    socket = request.META.get("HTTP_X_TABLE_SOCKET")
    with broadcast.answering(table_id, socket, request.auth.pk):
        committed = services.table_submit_action(
            table_id=table_id,
            user=request.auth,
            action=action,
            expect_version=payload.expect_version,
        )
    # The hot path: the payload is built by our own code in TableOut's shape (the tests check
    # it), so it skips ninja's response validation.
    # Its log: the moves this commit wrote (the action's, the bots' and standing orders').
    answer = services.table_payload(
        committed.table, committed.seats, request.auth, moves=committed.moves
    )
    return HttpResponse(api_json(answer), content_type="application/json")


@router.post(
    "/tables/{int:table_id}/rematch",
    response={200: TableOut, 409: ErrorOut, **ERRORS},
    tags=["tables"],
)
def rematch(request: ApiRequest, table_id: int) -> dict[str, Any]:
    """ "Play again" with the same players: the new table (made once; asking again, or
    another player asking, answers the same table)."""
    table = services.table_rematch(user=request.auth, table_id=table_id)
    return _payload(request, table)


@router.post(
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


@router.post(
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


@router.get("/vacation", response={200: VacationOut, **ERRORS}, tags=["clocks"])
def get_vacation(request: ApiRequest) -> dict[str, Any]:
    profile = Profile.objects.for_user(request.auth)
    return _vacation(profile)


@router.post("/vacation", response={200: VacationOut, **ERRORS}, tags=["clocks"])
def start_vacation(request: ApiRequest, payload: VacationIn) -> dict[str, Any]:
    """Spend days to pause my turn clocks at every table (from now, or after the current one)."""
    return _vacation(services.vacation_start(user=request.auth, days=payload.days))


@router.post("/vacation/end", response={200: VacationOut, **ERRORS}, tags=["clocks"])
def end_vacation(request: ApiRequest) -> dict[str, Any]:
    """Come back early: my clocks run again; whole days not begun are given back."""
    return _vacation(services.vacation_end(user=request.auth))
