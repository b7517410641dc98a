"""Moderation services: each does one change in one transaction and writes an audit row."""

from .errors import BadReport, ModerationRefused, ReportNotFound
from .reports import report_assign, report_create, report_resolve

__all__ = [
    "BadReport",
    "ModerationRefused",
    "ReportNotFound",
    "report_assign",
    "report_create",
    "report_resolve",
]
