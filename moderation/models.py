"""Moderation: restrictions on users, the reports queue and the audit log.

Every moderator action is a service in ``moderation.services`` that writes one ``AuditEntry``
in the transaction of its change; the admin only calls those services.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q

from games.models import Table


class Restriction(models.Model):
    """A suspension, a ban or a chat mute of one user.

    Active while not lifted and ``until`` is in the future (a ban has none). A suspension or a
    ban also clears the user's ``is_active`` flag, which every door already checks (sign-in,
    the session of each request, API tokens, websockets); lifting or expiry sets it again.
    """

    class Kind(models.TextChoices):
        SUSPEND = "suspend", "suspended"
        BAN = "ban", "banned"
        MUTE = "mute", "muted in chat"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="restrictions"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    until = models.DateTimeField(null=True, blank=True)
    reason = models.TextField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    # Set when a moderator lifts it, or when it expired (the sweep).
    lifted = models.DateTimeField(null=True, blank=True)
    # The seats ([table id, position]) this suspension gave to the bot: they go back to the
    # user when it ends, if their game is still on and the seat was not given to someone else.
    seats = models.JSONField(default=list, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["user", "kind"], name="restriction_live_idx", condition=Q(lifted=None)
            ),
            models.Index(fields=["until"], name="restriction_until_idx", condition=Q(lifted=None)),
        ]

    def __str__(self) -> str:
        until = self.until.strftime("%Y-%m-%d %H:%M UTC") if self.until else "for good"
        return f"{self.user} {self.get_kind_display()} until {until}"


class AuditEntry(models.Model):
    """Who did what, when, why, to whom. Only ever inserted (the admin shows it read-only)."""

    class Action(models.TextChoices):
        SUSPEND = "suspend", "suspend a user"
        BAN = "ban", "ban a user"
        MUTE = "mute", "mute a user in chat"
        LIFT = "lift", "lift a restriction"
        EXPIRE = "expire", "a restriction expired"
        HIDE_MESSAGE = "hide_message", "hide a chat message"
        UNHIDE_MESSAGE = "unhide_message", "show a hidden chat message again"
        ABORT_TABLE = "abort_table", "abort a table"
        SEAT_TO_BOT = "seat_to_bot", "give a seat to the bot"
        SEAT_TO_USER = "seat_to_user", "give a seat to another user"
        INSPECT_TABLE = "inspect_table", "read a table's state and hands"
        REPORT = "report", "report filed"
        REPORT_ASSIGN = "report_assign", "report assigned"
        REPORT_RESOLVE = "report_resolve", "report resolved"
        OTP_ENROL = "otp_enrol", "set up two-factor sign-in"
        OTP_CODES = "otp_codes", "new recovery codes"
        ROLE = "role", "moderator role given or taken"

    # None: the site itself (an expiry).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(blank=True)
    # What else identifies the change: a message id, a seat, an end time...
    details = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        actor = self.actor.get_username() if self.actor else "site"
        return f"{self.created:%Y-%m-%d %H:%M} {actor}: {self.get_action_display()}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise ValueError("audit entries are append-only")
        super().save(*args, **kwargs)  # type: ignore[arg-type]


class Report(models.Model):
    """A player's report of a chat message or a player, in the moderators' queue."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", "abusive or hateful"
        SPAM = "spam", "spam"
        CHEATING = "cheating", "cheating or collusion"
        STALLING = "stalling", "stalling or quitting"
        OTHER = "other", "something else"

    class Status(models.TextChoices):
        OPEN = "open", "open"
        ASSIGNED = "assigned", "assigned"
        RESOLVED = "resolved", "resolved"

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    message = models.ForeignKey(
        "chat.ChatMessage", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports_against",
    )
    reason = models.CharField(max_length=10, choices=Reason.choices)
    note = models.TextField(blank=True, max_length=1000)
    # The table's move count when reported (or the message's), and the chat around it then.
    move_seq = models.PositiveIntegerField(default=0)
    excerpt = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    assignee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    resolution = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    resolved = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "-created"], name="report_queue_idx")]

    def __str__(self) -> str:
        return f"report {self.pk} ({self.get_reason_display()}, {self.status})"


class Member(get_user_model()):  # type: ignore[misc]
    """The users, as the moderators' admin shows them (a proxy: no table of its own); its
    permissions are the user actions moderators may take."""

    class Meta:
        proxy = True
        verbose_name = "member"
        permissions = [
            ("suspend_member", "Can suspend a member for a time"),
            ("ban_member", "Can ban a member"),
            ("mute_member", "Can mute a member in chat"),
            ("lift_member", "Can lift a member's suspension, ban or mute"),
        ]


class TableCase(Table):
    """The tables, as the moderators' admin shows them (a proxy of games.Table)."""

    class Meta:
        proxy = True
        verbose_name = "table case"
        permissions = [
            ("abort_tablecase", "Can abort a table"),
            ("reseat_tablecase", "Can give a seat to the bot or to another user"),
            ("inspect_tablecase", "Can read a table's full state, hands and replay"),
        ]
