"""Moderation services: each does one change in one transaction and writes an audit row, and
each checks its actor's role itself (django.core.exceptions.PermissionDenied when the role
lacks the power: moderation/permissions.py)."""

from .appeals import APPEAL_TEXT_LIMIT, appeal_decide, appeal_file, decision_words
from .errors import (
    AppealDecided,
    AppealExists,
    AppealNotFound,
    BadAppeal,
    BadReport,
    ModerationRefused,
    ReportNotFound,
    RestrictionNotFound,
)
from .linking import sign_in_record, sign_in_traces_purge, trace_digest
from .notes import member_stats_read, note_add, note_delete
from .reports import (
    report_assign,
    report_automatic,
    report_create,
    report_resolve,
    reports_for_timeouts,
    room_of,
)
from .roles import moderator_grant, moderators_group, role_group
from .tables import seat_to_bot, seat_to_user, table_abort, table_inspect, table_inspect_frames
from .twofactor import (
    otp_device_confirm,
    otp_device_pending,
    otp_enrolled,
    otp_recovery_codes_new,
)
from .users import restriction_lift, restrictions_expire, user_ban, user_mute, user_suspend

__all__ = [
    "APPEAL_TEXT_LIMIT",
    "AppealDecided",
    "AppealExists",
    "AppealNotFound",
    "BadAppeal",
    "BadReport",
    "ModerationRefused",
    "ReportNotFound",
    "RestrictionNotFound",
    "appeal_decide",
    "appeal_file",
    "decision_words",
    "member_stats_read",
    "moderator_grant",
    "note_add",
    "note_delete",
    "moderators_group",
    "otp_device_confirm",
    "otp_device_pending",
    "otp_enrolled",
    "otp_recovery_codes_new",
    "report_assign",
    "report_automatic",
    "report_create",
    "report_resolve",
    "reports_for_timeouts",
    "restriction_lift",
    "restrictions_expire",
    "role_group",
    "room_of",
    "seat_to_bot",
    "sign_in_record",
    "sign_in_traces_purge",
    "trace_digest",
    "seat_to_user",
    "table_abort",
    "table_inspect",
    "table_inspect_frames",
    "user_ban",
    "user_mute",
    "user_suspend",
]
