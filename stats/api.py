"""``GET /api/players/<username>/stats``: the statistics page as JSON (same numbers)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.gzip import gzip_page
from ninja import Router
from ninja.decorators import decorate_view

from games.api_schemas import ErrorOut

from . import replay, selectors

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
        "reliability": page["reliability"].as_json(),
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


# A whole game is a few hundred moves: compressed, the one fetch of a replay stays small
# (nothing secret in it for BREACH to find: it is the same for everyone who may read it).
@router.get(
    "/tables/{int:table_id}/replay",
    response={200: dict[str, Any], **{c: ErrorOut for c in (400, 401, 403, 404, 409, 503)}},
    tags=["tables"],
    auth=None,
    url_name="table_replay",
)
@decorate_view(gzip_page)
def table_replay(request: HttpRequest, table_id: int) -> Any:
    """A finished game move by move, as its replay page draws it: the names, the rounds, the
    face of every card, and one frame per move (0: the deal) with the spectator's view of the
    table after it, every hand and the move's events; each frame after the first holds only
    what changed (the view's keys, the hands by seat). The same access as the replay page:
    a public game for anyone, a private one for its players; 403 ``game_not_finished`` while
    it is played."""
    try:
        return replay.replay_frames(table_id=table_id, viewer=request.user)
    except replay.ReplayRefused as exc:
        return _error(exc.status, exc.code, exc.message)
