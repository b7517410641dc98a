"""Push subscriptions, what each player wants pushed, and the record of every push sent."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PushSubscription(models.Model):
    """One browser's Push API subscription (``PushSubscription.toJSON()``). The endpoint is
    the browser's own: one row per browser, several per user."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    # The browser's P-256 public key and auth secret (base64url): the payload is encrypted
    # to them (RFC 8291), so only that browser reads it.
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    # A name the profile shows beside it ("Firefox on Linux"), from the browser's user agent.
    label = models.CharField(max_length=120, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    last_push = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "created"]

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"


class NotifyPrefs(models.Model):
    """What a player wants pushed (each event on or off). A user without a row has the
    defaults: every event on."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notify_prefs"
    )
    push_turn = models.BooleanField("it is my turn", default=True)
    push_mayi = models.BooleanField("a “May I?” offer waits on my answer", default=True)
    push_ended = models.BooleanField("a game of mine ended", default=True)
    push_mention = models.BooleanField("a chat message names me (@name)", default=True)
    push_nudge = models.BooleanField("another player nudges me", default=True)
    # The daily digest email: None is the default (on for a player with an email address).
    digest_on = models.BooleanField("email me a daily digest", null=True, blank=True)
    # The local hour (in the profile's time zone) it is sent at.
    digest_hour = models.PositiveSmallIntegerField(default=8)
    # The local day of the last digest (sent or found empty): never two for one day.
    digest_day = models.DateField(null=True, blank=True)
    # When the last digest was sent: games ended after it go in the next one.
    digest_sent = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "notification preferences"
        verbose_name_plural = "notification preferences"

    def __str__(self) -> str:
        return f"notification preferences of {self.user_id}"


class PushSent(models.Model):
    """The record that one event was pushed (or decided against) for one user: the unique key
    makes a task that runs twice push once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    # "turn:<table>:<turn_seq>", "mayi:<table>:<version>", "ended:<table>", "mention:<msg>",
    # "nudge:<nudge id>".
    key = models.CharField(max_length=80)
    kind = models.CharField(max_length=10)
    # How many browsers took it; a note when none did or it was not sent (why).
    delivered = models.PositiveSmallIntegerField(default=0)
    note = models.CharField(max_length=40, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="push_sent_once")]

    def __str__(self) -> str:
        return f"{self.key} to {self.user_id}: {self.delivered}"


class Nudge(models.Model):
    """A player reminded the one whose turn keeps the table waiting. Seen by the nudged player
    alone (a push or an email); the rows bound how often (one per table per nudger a day)."""

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="nudges")
    nudger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="nudges_sent"
    )
    nudged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="nudges_received"
    )
    seat = models.PositiveSmallIntegerField()
    created = models.DateTimeField()
    # How it reached them: "push", "email", or why not ("blocked", "turned off", "no way").
    outcome = models.CharField(max_length=20, blank=True)

    class Meta:
        indexes = [models.Index(fields=["table", "nudger", "-created"], name="nudge_limit_idx")]

    def __str__(self) -> str:
        return f"nudge of {self.nudged_id} by {self.nudger_id} at table {self.table_id}"
