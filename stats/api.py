"""``GET /api/players/<username>/stats``: the statistics page as JSON (same numbers)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from ninja import Router

from games.api_schemas import ErrorOut

from . import selectors

router = Router(tags=["players"])


def _error(status: int, code: str, message: str) -> HttpResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


# Every answer is documented, refusals in the error shape (tests/site/test_schema_fuzz.py).
@router.get(
    "/players/{username}/stats",
    response={200: dict[str, Any], **{c: ErrorOut for c in (400, 401, 403, 404, 503)}},
)
def player_stats(
    request: HttpRequest, username: str, ruleset: str = selectors.ALL, games: int = 1
) -> Any:
    """``games``: the page of the finished games (``history``), 20 to a page, 1 the newest."""
    try:
        page = selectors.player_stats(
            username=username, viewer=request.user, ruleset=ruleset, history_page=games
        )
    except selectors.PlayerNotFound as exc:
        return _error(404, "player_not_found", str(exc))
    except selectors.PlayerHidden as exc:
        return _error(403, "stats_hidden", str(exc))
    return {
        "username": page["username"],
        "scope": page["scope"],
        "rulesets": page["rulesets"],
        "ratings": page["ratings"],
        "rating_history": page["rating_history"],
        "figures": page["figures"],
        "history_page": page["history_page"],
        "history_pages": page["history_pages"],
        "history": [
            {
                "table": g.table_id,
                "ruleset": g.ruleset,
                "finished": g.finished.isoformat(),
                "players": g.players,
                "place": g.place,
                "total": g.total,
                "rated": g.rated,
                "rating_before": g.rating_before,
                "rating_after": g.rating_after,
                "rating_change": g.rating_change,
                "others": g.others,
            }
            for g in page["history"]
        ],
    }
