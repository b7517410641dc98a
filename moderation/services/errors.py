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


class BadAppeal(ServiceError):
    status = 400
    code = "bad_appeal"


class AppealExists(ServiceError):
    """One appeal per restriction."""

    status = 409
    code = "appeal_exists"


class AppealNotFound(ServiceError):
    status = 404
    code = "appeal_not_found"


class RestrictionNotFound(ServiceError):
    """No such restriction of the caller's (another member's is not theirs to appeal)."""

    status = 404
    code = "restriction_not_found"


class AppealDecided(ServiceError):
    status = 409
    code = "appeal_decided"
