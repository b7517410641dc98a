"""Errors of the moderation services (ServiceError subclasses: the API's error shape)."""

from __future__ import annotations

from games.services import ServiceError


class BadReport(ServiceError):
    status = 400
    code = "bad_report"


class ReportNotFound(ServiceError):
    status = 404
    code = "report_not_found"


class ModerationRefused(ServiceError):
    """A moderator action that does not apply (a seat that is not there, a finished table)."""

    status = 409
    code = "moderation_refused"
