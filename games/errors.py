"""The registry of error codes: every ``{"error": {"code", "message"}}`` the site answers with.

One entry per code: its HTTP status and a one-line description (the OpenAPI schema lists the
codes, the API documentation and docs/ARCHITECTURE.md describe them from here). The engine's
codes (``games.engine.ERROR_CODES``) are all refusals of a move, answered with 400. Anyone
adding a new code adds it here; tests/site/test_error_codes.py finds every code raised in the
sources and fails for one that is not registered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import ERROR_CODES as ENGINE_CODES


@dataclass(frozen=True)
class ErrorCode:
    code: str
    status: int
    description: str
    # who raises it: "engine", "api", "services", "chat", "moderation", "stats", "analysis",
    # "notify", "tournaments", "privacy"
    source: str


_SITE: list[tuple[str, int, str, str]] = [
    # A player's own data (privacy/).
    ("wrong_password", 403, "the account's password, asked to confirm, is not right", "privacy"),
    ("export_not_found", 404, "no such download of my data (or it is another player's)", "privacy"),
    # Statistics and replays.
    ("player_not_found", 404, "there is no player of that name", "stats"),
    ("stats_hidden", 403, "the player keeps their statistics private", "stats"),
    ("game_not_finished", 403, "a replay opens when the game ends (it shows every hand)", "stats"),
    ("replay_failed", 409, "the game's move log does not replay from its seed", "stats"),
    # A finished game's analysis (analysis/).
    (
        "analysis_not_found",
        404,
        "a game has an analysis once it has ended (an aborted game has none)",
        "analysis",
    ),
    # The API's edge: parsing and authentication.
    ("bad_json", 400, "the body is not valid JSON", "api"),
    ("bad_request", 400, "the request's fields are missing or malformed", "api"),
    ("not_authenticated", 401, "sign in, or send Authorization: Bearer <token>", "api"),
    ("bad_token", 401, "the API token is not valid", "api"),
    ("csrf_failed", 403, "a browser's unsafe request lacks the X-CSRFToken header", "api"),
    ("not_found", 404, "no such API route or resource", "api"),
    ("error", 400, "another HTTP error of the API framework (the status says which)", "api"),
    ("game_not_over", 409, "a rematch is for a finished game", "services"),
    # Answers of mayi_site/middleware.py and games/ws_guard.py (issue 14).
    ("unavailable", 503, "the database is briefly unavailable: retry (Retry-After)", "api"),
    ("method_not_allowed", 405, "this route does not take that method (see Allow)", "api"),
    ("payload_too_large", 413, "the request body is over the size limit", "api"),
    ("forbidden", 403, "a refusal by the framework outside the API's own checks", "api"),
    ("server_error", 500, "never expected: a bug, reported as such", "api"),
    ("bad_frame", 400, "a websocket frame that is not text (binary)", "api"),
    # The table services.
    ("table_not_found", 404, "there is no such table", "services"),
    ("invite_not_found", 404, "no table has this invite code", "services"),
    ("not_seated", 403, "the caller has no seat at this table (or it is private)", "services"),
    ("expelled", 403, "the caller was expelled: a bot plays the seat", "services"),
    ("invite_required", 403, "a private table is joined with its invite code", "services"),
    ("not_host", 403, "only the table's host may do this", "services"),
    ("conflict", 409, "the table is not in a state that allows this", "services"),
    (
        "stale_version",
        409,
        "the table moved on since the version sent (the answer has the fresh table and view)",
        "services",
    ),
    ("game_not_started", 409, "the game has not started yet", "services"),
    ("game_finished", 409, "the game is over", "services"),
    ("table_started", 409, "the table has started: seats are fixed", "services"),
    ("table_full", 409, "no seat is free", "services"),
    ("table_not_full", 409, "the table starts once every seat is taken", "services"),
    ("already_seated", 409, "the caller already has a seat at this table", "services"),
    ("bad_options", 400, "a table option or standing order is out of range", "services"),
    ("no_days_left", 400, "no vacation days left this year", "services"),
    ("busy", 503, "the table stayed locked by other writers through every retry", "services"),
    # Friends, blocks and the rules of joining a table (issue 29).
    ("not_friends", 400, "a table invitation goes to a friend (each follows the other)", "social"),
    ("blocked", 403, "the caller cannot join this table", "services"),
    (
        "below_table_reliability",
        403,
        "the caller's reliability or timeouts do not meet the table's rule (the message says which)",
        "services",
    ),
    (
        "too_many_games",
        403,
        "the caller has as many unfinished turn-based games as they may (finish one first)",
        "services",
    ),
    # Table chat and moderation.
    ("chat_closed", 409, "the table is closed: its chat takes no more messages", "chat"),
    ("chat_muted", 403, "a moderator muted the caller in chat", "chat"),
    ("bad_message", 400, "the chat message is empty, too long, or no known reaction", "chat"),
    ("message_not_found", 404, "there is no such chat message", "chat"),
    ("rate_limited", 429, "too many requests of one kind in a short time (Retry-After)", "chat"),
    (
        "bad_report",
        400,
        "the report does not name a message or a player of this table",
        "moderation",
    ),
    ("report_not_found", 404, "there is no such report", "moderation"),
    # Tournaments (tournaments/): duplicate deals, Swiss rounds.
    (
        "deal_in_play",
        403,
        "another table of the deal the caller's own table is still playing (duplicate deals)",
        "services",
    ),
    ("tournament_not_found", 404, "there is no such tournament", "tournaments"),
    ("not_registered", 409, "the caller is not registered in this tournament", "tournaments"),
    ("not_creator", 403, "only the tournament's creator (or staff) may do this", "tournaments"),
    ("tournament_full", 409, "the tournament has its cap of players", "tournaments"),
    ("tournament_started", 409, "registration is over: the tournament has started", "tournaments"),
    ("tournament_finished", 409, "the tournament is over", "tournaments"),
    (
        "too_few_players",
        409,
        "a tournament starts with at least one table's players",
        "tournaments",
    ),
    (
        "below_tournament_reliability",
        403,
        "the caller's reliability is below the tournament's minimum",
        "tournaments",
    ),
    (
        "moderation_refused",
        409,
        "a moderator action that does not apply (no such seat, a finished table)",
        "moderation",
    ),
    # Appeals (issue 31).
    (
        "bad_appeal",
        400,
        "an appeal's text is empty or too long, or its decision unknown",
        "moderation",
    ),
    ("appeal_exists", 409, "this restriction was appealed already: one appeal each", "moderation"),
    ("appeal_not_found", 404, "there is no such appeal", "moderation"),
    ("appeal_decided", 409, "the appeal is decided already", "moderation"),
    ("restriction_not_found", 404, "the caller has no such restriction", "moderation"),
    # Web push and nudges (notify/).
    (
        "bad_push_endpoint",
        400,
        "a push endpoint must be https on a public address (not private, loopback, link-local)",
        "notify",
    ),
    ("push_unavailable", 503, "web push is off on this site (no VAPID key configured)", "notify"),
    ("nudge_too_early", 400, "a nudge waits until the turn has been held for an hour", "notify"),
    ("nudge_limit", 429, "one nudge per table per 24 hours (Retry-After)", "notify"),
    ("nudge_not_waiting", 409, "nobody else's turn keeps this game waiting on them", "notify"),
]

CODES: dict[str, ErrorCode] = {
    **{code: ErrorCode(code, 400, text, "engine") for code, text in ENGINE_CODES.items()},
    **{row[0]: ErrorCode(*row) for row in _SITE},
}
# Codes both the engine and the services raise: the site's status and text win above.

CODE_NAMES: tuple[str, ...] = tuple(sorted(CODES))


def status_of(code: str, default: int = 400) -> int:
    """The HTTP status a refusal with ``code`` answers with."""
    found = CODES.get(code)
    return found.status if found is not None else default


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The one shape of every refusal, over HTTP and the websocket."""
    return {"error": {"code": code, "message": message}, **extra}
