"""The bench's own endpoint: one row written behind the API's authentication, the floor of the
stack that bench/api_moves.py measures. Mounted on the API (mayi_site/api.py) only when
``MAYI_BENCH_ENDPOINTS`` is on (bench/api_moves.py starts its server so); the product's URLs
do not have it otherwise.
"""

from __future__ import annotations

from typing import Any

from ninja import Router

from accounts.requests import ApiRequest

from .models import BenchWrite

router = Router()


@router.post("/bench/write", include_in_schema=False)
def bench_write(request: ApiRequest) -> dict[str, Any]:
    """The floor of the stack for bench/api_moves.py: same auth and server, one row written."""
    # The default manager, not ``objects``: mypy's Django plugin knows ``objects`` only of an
    # installed app's models, and this app is installed only with MAYI_BENCH_ENDPOINTS.
    row = BenchWrite._default_manager.create(note=str(request.auth)[:40])
    return {"id": row.pk}
