"""Errors a service raises, and the one mapping of a refusal (a service's or the engine's) to
the ``{"error": {"code", "message"}}`` that the API and the websocket answer with. Each code,
its status and its meaning are registered in games/errors.py."""

from __future__ import annotations

from games.engine import IllegalMove
from games.errors import status_of
from games.models import Seat, Table


class ServiceError(Exception):
    """A refusal of a service. ``code`` is one of games/errors.py, whose entry gives the HTTP
    status (the class's ``status`` for a code not registered: the registry test fails then)."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.status = status if status is not None else status_of(self.code, type(self).status)


class TableNotFound(ServiceError):
    status = 404
    code = "table_not_found"


class NotSeated(ServiceError):
    status = 403
    code = "not_seated"


class NotHost(ServiceError):
    status = 403
    code = "not_host"


class Conflict(ServiceError):
    """The table is not in a state that allows this (full, already started, finished...)."""

    status = 409
    code = "conflict"


class BadOptions(ServiceError):
    status = 400
    code = "bad_options"


class Busy(ServiceError):
    """The table stayed locked by other writers through every retry."""

    status = 503
    code = "busy"


class StaleVersion(ServiceError):
    """The client acted on a version that is no longer current; carries the fresh table."""

    status = 409
    code = "stale_version"

    def __init__(
        self, message: str, *, table: Table, seats: list[Seat], since: int | None = None
    ) -> None:
        super().__init__(message)
        self.table = table
        self.seats = seats
        # The version the client had: the answer's log carries the moves after it.
        self.since = since


def refusal(exc: ServiceError | IllegalMove) -> tuple[int, str, str]:
    """The HTTP status, code and message of a refused request: the one mapping, used by the
    API (games/api.py) and the websocket (games/consumers.py)."""
    if isinstance(exc, ServiceError):
        return exc.status, exc.code, exc.message
    return status_of(exc.code), exc.code, exc.message
