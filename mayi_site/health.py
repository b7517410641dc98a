"""``GET /healthz`` (liveness) and ``GET /readyz`` (readiness).

``/healthz`` touches neither the database nor Redis: a database that is briefly away must not
make the proxy take every process out of rotation at once (requests then answer 503
``unavailable`` themselves, with Retry-After), and a check runs every second on every process.

``/readyz`` says whether this process can do its work: ``{"ready": bool, "checks": {...}}``,
200 or 503, each check ``"ok"`` or what failed (``"error: ..."``), or ``"skipped"`` when the
deployment has no such part:

- ``database``: it answers a query;
- ``migrations``: every migration of the code is applied (a deploy that skipped ``migrate``);
- ``redis``: it answers PING (when ``REDIS_URL`` is set);
- ``worker``: a Celery worker's heartbeat was seen in the last 2 minutes (when
  ``MAYI_READY_CHECK_WORKER`` is on, by default in production with Redis: every worker writes
  one every 30 s, mayi_site/celery.py).
"""

from __future__ import annotations

import time
from typing import Any

import redis
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from mayi_site import heartbeat

# Once every migration is applied it stays so until the next deploy restarts the process;
# loading the migration graph costs ~50 ms, so a positive answer is kept a while.
_MIGRATIONS_OK_FOR = 60.0
_migrations_ok_at = 0.0


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


def _error(exc: BaseException) -> str:
    return f"error: {type(exc).__name__}: {exc}"[:200]


def check_database() -> str:
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return _error(exc)
    return "ok"


def check_migrations() -> str:
    global _migrations_ok_at
    if time.monotonic() - _migrations_ok_at < _MIGRATIONS_OK_FOR:
        return "ok"
    try:
        executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except Exception as exc:
        return _error(exc)
    if plan:
        names = ", ".join(f"{m.app_label}.{m.name}" for m, _ in plan[:3])
        return f"error: {len(plan)} migration(s) not applied ({names})"
    _migrations_ok_at = time.monotonic()
    return "ok"


def check_redis() -> str:
    if not settings.REDIS_URL:
        return "skipped"
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5
        )
        client.ping()
        client.close()
    except Exception as exc:
        return _error(exc)
    return "ok"


def check_worker() -> str:
    if not settings.MAYI_READY_CHECK_WORKER:
        return "skipped"
    try:
        seen = heartbeat.last_seen()
    except Exception as exc:
        return _error(exc)
    if seen is None:
        return "error: no worker heartbeat seen"
    age = time.time() - seen
    if age > heartbeat.STALE:
        return f"error: last worker heartbeat {int(age)} s ago"
    return "ok"


@never_cache
@require_safe
def readyz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, Any] = {"database": check_database()}
    checks["migrations"] = check_migrations() if checks["database"] == "ok" else "skipped"
    checks["redis"] = check_redis()
    checks["worker"] = check_worker()
    ready = all(state in ("ok", "skipped") for state in checks.values())
    failing = [name for name, state in checks.items() if state not in ("ok", "skipped")]
    body: dict[str, Any] = {"ready": ready, "checks": checks}
    if failing:
        body["failing"] = failing
    return JsonResponse(body, status=200 if ready else 503)
