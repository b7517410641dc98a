"""No request answers 500: the failures a request can meet, each answered on purpose.

- A database error that a retry can cure (a terminated backend, a dead pooled connection, a
  restart or failover: Django's ``OperationalError`` / ``InterfaceError``) answers ``503
  unavailable`` with ``Retry-After``: in the API's error shape under ``/api/``, a plain page
  elsewhere (rendered without the database). The pool checks connections as it hands them out
  (``check`` in settings), so the retry gets a live one.
- A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` answers 413; a rate limit (mayi_site/ratelimits.py) 429.
- Under ``/api/`` every answer of 400 and more is in the error shape, Django's and ninja's own
  included (405 for a method a route does not take, with ``Allow``).
- Path parameters that no row can match answer 404 before a view runs: an integer beyond the
  64-bit range of an id (SQLite raised OverflowError), a string with a NUL (PostgreSQL refuses
  NUL in text).

``ResilienceMiddleware`` handles what reaches a view; ``server_error`` and ``bad_request`` are the
``handler500``/``handler400`` of mayi_site/urls.py for what fails in other middleware (a session
saved to a dead database); ``csrf_failure`` is the ``CSRF_FAILURE_VIEW`` (a form sent from a page
that went out of date); ``install(api)`` registers the same answers with django-ninja, whose
own handler would otherwise format them first.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.db import DataError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import render

from mayi_site import metrics
from mayi_site.ratelimits import RateLimited, duration

logger = logging.getLogger("mayi_site.errors")

RETRY_AFTER_SECONDS = 1
ID_MAX = 2**63 - 1

# Under /api/: the code for an answer that left Django or ninja in another shape.
CODES_BY_STATUS = {
    400: "bad_request",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    429: "rate_limited",
    500: "server_error",
    503: "unavailable",
}

UNAVAILABLE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Back in a moment</title></head>
<body><h1>Back in a moment</h1><p>The site could not reach its database. Nothing was lost:
reload the page in a second.</p></body></html>
"""


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def api_error(status: int, code: str, message: str, **headers: str) -> JsonResponse:
    response = JsonResponse({"error": {"code": code, "message": message}}, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def is_retryable(exc: BaseException) -> bool:
    """A database error worth a retry: the connection or the server, not the query."""
    return isinstance(exc, OperationalError | InterfaceError)


def unavailable(request: HttpRequest, exc: BaseException) -> HttpResponse:
    metrics.count_unavailable("database")
    logger.warning("database unavailable for %s %s: %s", request.method, request.path, exc)
    if is_api(request):
        return api_error(
            503,
            "unavailable",
            "the database is briefly unavailable: try again",
            Retry_After=str(RETRY_AFTER_SECONDS),
        )
    response = HttpResponse(UNAVAILABLE_PAGE, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def too_large(request: HttpRequest) -> HttpResponse:
    if is_api(request):
        return api_error(413, "payload_too_large", "the request body is too large")
    return HttpResponse("Request body too large.", status=413, content_type="text/plain")


def rate_limited(request: HttpRequest, exc: RateLimited) -> HttpResponse:
    if is_api(request):
        return api_error(429, exc.code, exc.message, Retry_After=str(exc.retry_after))
    response = render(
        request,
        "429.html",
        {"reason": exc.reason, "wait": duration(exc.retry_after)},
        status=429,
    )
    response["Retry-After"] = str(exc.retry_after)
    return response


def bad_text(request: HttpRequest) -> HttpResponse:
    if is_api(request):
        return api_error(400, "bad_request", "text may not contain NUL characters")
    return HttpResponse("Bad request.", status=400, content_type="text/plain")


def answer_for(request: HttpRequest, exc: BaseException) -> HttpResponse | None:
    """The answer for an exception we know how to answer, else None."""
    if isinstance(exc, RateLimited):
        return rate_limited(request, exc)
    if isinstance(exc, RequestDataTooBig):
        return too_large(request)
    if isinstance(exc, DataError | ValueError) and "NUL" in str(exc):
        return bad_text(request)
    if is_retryable(exc):
        return unavailable(request, exc)
    return None


class ResilienceMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        head = is_api(request) and request.method == "HEAD"
        if head:
            # HEAD on an API route answers as GET does, without the body (HTTP says so; the
            # routes are declared for GET alone, so ninja answered 405 while pages answer 200).
            request.method = "GET"
        response = self.get_response(request)
        if is_api(request) and response.status_code >= 400 and not _is_json(response):
            response = _reshape(request, response)
        if head:
            request.method = "HEAD"
            if isinstance(response, HttpResponse):  # not a streaming one: it has a body
                length = len(response.content)
                response.content = b""
                response["Content-Length"] = str(length)
        return response

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        for name, value in kwargs.items():
            if (isinstance(value, int) and not isinstance(value, bool) and value > ID_MAX) or (
                isinstance(value, str) and "\x00" in value
            ):
                if is_api(request):
                    code = "table_not_found" if name == "table_id" else "not_found"
                    return api_error(404, code, f"no such {name.removesuffix('_id')}")
                raise Http404(f"no such {name}")
        return None

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        return answer_for(request, exc)


def _is_json(response: HttpResponseBase) -> bool:
    return str(response.get("Content-Type", "")).startswith("application/json")


def _reshape(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    status = response.status_code
    code = CODES_BY_STATUS.get(status, "bad_request" if status < 500 else "server_error")
    if status == 405:
        message = f"{request.method} is not allowed here; allowed: {response.get('Allow', '')}"
    else:
        text = getattr(response, "content", b"")[:200].decode("utf-8", "replace").strip()
        message = text if text and "<" not in text else code.replace("_", " ")
    if status == 405:
        reshaped = api_error(405, "method_not_allowed", message)
    elif status == 403:
        reshaped = api_error(403, "forbidden", message)
    else:
        reshaped = api_error(status, code, message)
    # Every header the answer already had (Allow, Retry-After, and the ones the middleware
    # below added: Content-Security-Policy, X-Frame-Options, X-Content-Type-Options...) but
    # the body's own.
    for header, value in response.items():
        if header.lower() not in ("content-type", "content-length"):
            reshaped[header] = value
    return reshaped


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: Django calls it inside its ``except`` block, so the exception is at hand."""
    exc = sys.exc_info()[1]
    if exc is not None:
        answer = answer_for(request, exc)
        if answer is not None:
            return answer
    if is_api(request):
        return api_error(500, "server_error", "something went wrong on our side")
    return HttpResponse(
        "<!doctype html><title>Server error</title><h1>Something went wrong</h1>",
        status=500,
    )


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: a body over the limit read in middleware (CSRF) is a 413."""
    if isinstance(exception, RequestDataTooBig):
        return too_large(request)
    if is_api(request):
        return api_error(400, "bad_request", "bad request")
    return HttpResponse("Bad request.", status=400, content_type="text/plain")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a form sent from a page opened before the player last logged in or
    out (the token changes then) or kept open past its session. Django's own page said
    "Forbidden (403) CSRF verification failed. Request aborted." and nothing a player could do."""
    if is_api(request):
        return api_error(403, "csrf_failed", "CSRF check failed: send the X-CSRFToken header")
    context = {"no_cookie": reason == REASON_NO_CSRF_COOKIE}
    return render(request, "403_csrf.html", context, status=403)


def install(api: Any) -> None:
    """Register these answers with a NinjaAPI (its own Exception handler would come first)."""
    for kind in (RateLimited, RequestDataTooBig, OperationalError, InterfaceError, DataError):
        api.add_exception_handler(kind, _ninja_handler)


def _ninja_handler(request: HttpRequest, exc: Exception) -> HttpResponse:
    answer = answer_for(request, exc)
    if answer is None:
        raise exc
    return answer
