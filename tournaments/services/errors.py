"""A tournament service's refusals: the games services' kind, so the API answers them in the
one error shape with the status of their registered code (games/errors.py)."""

from __future__ import annotations

from games.services import BadOptions, Conflict, NotSeated, ServiceError

__all__ = ["BadOptions", "Conflict", "NotCreator", "NotSeated", "TournamentNotFound"]


class TournamentNotFound(ServiceError):
    status = 404
    code = "tournament_not_found"


class NotCreator(ServiceError):
    status = 403
    code = "not_creator"
