"""Moderation: restrictions on users, the reports queue and the audit log.

Every moderator action is a service in ``moderation.services`` that writes one ``AuditEntry``
in the transaction of its change; the admin only calls those services.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.db.models import Q

from games.models import Table
from mayi_site.timezones import zoned


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
    # The canned reason picked (None: the moderator wrote the reason freely, which the pages
    # mark as such); the member's message as it was sent (a preset edited later does not
    # rewrite what they were told), and the moderator's added note (staff only).
    preset = models.ForeignKey(
        "CannedReason", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    message = models.TextField(blank=True)
    note = models.TextField(blank=True)
    # When the member's next sign-in page showed them ``message`` (None: not yet).
    message_shown = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["user", "kind"], name="restriction_live_idx", condition=Q(lifted=None)
            ),
            models.Index(fields=["until"], name="restriction_until_idx", condition=Q(lifted=None)),
        ]

    def __str__(self) -> str:
        # The admin's label: in the staff member's zone, which the middleware activated.
        until = zoned(self.until) if self.until else "for good"
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
        APPEAL_FILE = "appeal_file", "appeal filed"
        APPEAL_DECIDE = "appeal_decide", "appeal decided"
        NOTE_ADD = "note_add", "moderator note written"
        NOTE_DELETE = "note_delete", "moderator note deleted"
        STATS_VIEW = "stats_view", "read a hidden statistics page"

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
        super().save(*args, **kwargs)


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

    class Room(models.TextChoices):
        # Who handles it: chat moderators the chat room, game moderators every room.
        CHAT = "chat", "chat"
        PLAY = "play", "play"
        OTHER = "other", "other"

    # None: filed by the site itself (``automatic``), or the reporter's account is gone.
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
    room = models.CharField(max_length=8, choices=Room.choices, default=Room.OTHER)
    # Filed by the site (timeouts in several games, a chat flood the rate limit stopped).
    automatic = models.BooleanField(default=False)
    # Set at resolution: whether a moderator acted on the member or message reported (the
    # reporter's accuracy, which weighs their next reports, counts these).
    actioned = models.BooleanField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "-created"], name="report_queue_idx")]
        permissions = [
            ("handle_chat_report", "Can work the chat room's reports (assign, resolve)"),
            ("handle_play_report", "Can work the play and other rooms' reports"),
        ]

    def __str__(self) -> str:
        return f"report {self.pk} ({self.get_reason_display()}, {self.status})"


class Member(User):
    """The users, as the moderators' admin shows them (a proxy: no table of its own); its
    permissions are the user actions moderators may take. The site's users are Django's own
    (no AUTH_USER_MODEL of its own; the apps import ``User`` as it is)."""

    class Meta:
        proxy = True
        verbose_name = "member"
        permissions = [
            ("suspend_member", "Can suspend (or mute) a member for up to 7 days"),
            ("ban_member", "Can ban a member"),
            ("mute_member", "Can mute a member in chat for up to 24 hours"),
            ("restrict_long_member", "Can suspend or mute a member for any length"),
            ("lift_member", "Can lift a restriction another moderator imposed"),
            ("view_hidden_stats_member", "Can read a hidden statistics page (audited)"),
            ("roles_member", "Can give and take moderator roles"),
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


class CannedReason(models.Model):
    """A policy reason moderators pick from (a preset): the message the member receives, by
    email and on their next sign-in page, and the duration suggested for a first time."""

    class Kind(models.TextChoices):
        MUTE = "mute", "chat mute"
        SUSPEND = "suspend", "suspension"
        BAN = "ban", "ban"

    title = models.CharField(max_length=80, unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    message = models.TextField(
        max_length=2000, help_text="What the member reads (email and their next sign-in page)."
    )
    # None for a ban (no end).
    suggested_hours = models.PositiveIntegerField(
        null=True, blank=True, help_text="The first time's duration, in hours (empty for a ban)."
    )
    active = models.BooleanField(default=True, help_text="Offered to moderators.")

    class Meta:
        ordering = ["kind", "title"]
        verbose_name = "canned reason"

    def __str__(self) -> str:
        return f"{self.title} ({self.get_kind_display()})"


class Appeal(models.Model):
    """A restricted member's appeal: one per restriction, decided by a senior moderator who
    did not impose it."""

    class Status(models.TextChoices):
        PENDING = "pending", "waiting for a decision"
        UPHELD = "upheld", "upheld"
        SHORTENED = "shortened", "shortened"
        LIFTED = "lifted", "lifted"

    restriction = models.OneToOneField(Restriction, on_delete=models.CASCADE, related_name="appeal")
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="appeals"
    )
    text = models.TextField(max_length=2000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["created"]
        permissions = [("decide_appeal", "Can decide an appeal")]

    def __str__(self) -> str:
        return f"appeal {self.pk} ({self.get_status_display()})"


class MemberNote(models.Model):
    """A moderator's private note on a member: who wrote it and when; never shown to them."""

    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderator_notes"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    text = models.TextField(max_length=2000)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = "member note"

    def __str__(self) -> str:
        return f"note on {self.member_id} by {self.author_id}"


class SignInTrace(models.Model):
    """A keyed hash (HMAC) of the address or the browser cookie a member signed in from: two
    accounts sharing one are linked on their moderator pages. Never the raw address; kept
    90 days after it was last seen (moderation.tasks.purge_sign_in_traces)."""

    class Kind(models.TextChoices):
        ADDRESS = "address", "same address"
        BROWSER = "browser", "same browser"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    digest = models.CharField(max_length=64)
    first_seen = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "digest"], name="signin_trace_once")
        ]
        indexes = [models.Index(fields=["kind", "digest"], name="signin_trace_digest_idx")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of user {self.user_id}"
