"""Moderation services: each does one change in one transaction and writes an audit row."""

from .errors import BadReport, ModerationRefused, ReportNotFound
from .reports import report_assign, report_create, report_resolve
from .roles import moderator_grant, moderators_group
from .tables import seat_to_bot, seat_to_user, table_abort, table_inspect
from .twofactor import (
    otp_device_confirm,
    otp_device_pending,
    otp_enrolled,
    otp_recovery_codes_new,
)
from .users import restriction_lift, restrictions_expire, user_ban, user_mute, user_suspend

__all__ = [
    "BadReport",
    "ModerationRefused",
    "ReportNotFound",
    "moderator_grant",
    "moderators_group",
    "otp_device_confirm",
    "otp_device_pending",
    "otp_enrolled",
    "otp_recovery_codes_new",
    "report_assign",
    "report_create",
    "report_resolve",
    "restriction_lift",
    "restrictions_expire",
    "seat_to_bot",
    "seat_to_user",
    "table_abort",
    "table_inspect",
    "user_ban",
    "user_mute",
    "user_suspend",
]
