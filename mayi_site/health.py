"""``GET /healthz``: this process serves requests (for a proxy's active health checks).

It touches neither the database nor Redis: a database that is briefly away must not make the
proxy take every process out of rotation at once (requests then answer 503 ``unavailable``
themselves, with Retry-After), and a check runs every second on every process.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})
