"""The site's JSON API under /api/: one NinjaAPI, its authentication (a bearer token or the
browser's session with CSRF), its parser and renderer, and the one shape of every refusal,
``{"error": {"code", "message"}}`` (a stale version adds the fresh ``table`` and ``view``),
including ninja's own validation and parsing errors. Each app's endpoints are a router mounted
here (games, chat, moderation, stats, analysis, social, notify, tournaments): the root sits
above the apps, so none of them imports another's API.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from ninja.security import HttpBearer, SessionAuth
from ninja.utils import check_csrf

from accounts.requests import ApiRequest
from accounts.tokens import token_of_inactive_user, token_user
from analysis.api import router as analysis_router
from chat.api import router as chat_router
from games import services
from games.api import router as games_router
from games.api_me import router as me_router
from games.api_messages import validation_message
from games.engine import IllegalMove
from games.errors import error_body
from mayi_site.fastjson import OrjsonRenderer
from mayi_site.middleware import install as install_error_answers
from moderation.api import router as moderation_router
from notify.api import router as notify_router
from privacy.api import router as privacy_router
from social.api import router as social_router
from stats.api import router as stats_router
from tournaments.api import router as tournaments_router

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

    def __call__(self, request: HttpRequest) -> Any:
        # HttpBearer's own reading, but of the one header in META: ``request.headers`` builds
        # a dict of every header on first use, 0.8% of daphne's CPU under bench/load.py.
        value = request.META.get("HTTP_AUTHORIZATION")
        if not value:
            return None
        scheme, _, token = value.partition(" ")
        if scheme.lower() != self.openapi_scheme:
            return None
        return self.authenticate(request, token)

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
        payload = services.table_stale_payload(exc, request.auth)
    except services.NotSeated as refused:
        return error(refused.status, refused.code, refused.message)
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


# The games' endpoints first (the schema lists them first, as before), then the other apps',
# all under the same auth and error shape.
api.add_router("", games_router)
api.add_router("", chat_router)
api.add_router("", moderation_router)
api.add_router("", stats_router)
api.add_router("", analysis_router)
api.add_router("", me_router)
api.add_router("", social_router)
api.add_router("", notify_router)
api.add_router("", tournaments_router)
api.add_router("", privacy_router)
# The floor of bench/api_moves.py: the bench's own app, installed (settings.py) and in the
# site's URLs only when the setting turns it on; its models cannot load otherwise.
if settings.MAYI_BENCH_ENDPOINTS:
    from benchapp.api import router as bench_router

    api.add_router("", bench_router)


def api_not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Anything under /api/ that no route matches still answers in the API's error shape."""
    return error(404, "not_found", f"no API route {request.path}")
