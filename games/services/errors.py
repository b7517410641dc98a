"""Errors a service raises; the API turns each into ``{"error": {"code", "message"}}``."""

from __future__ import annotations

from games.models import Seat, Table


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status


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
