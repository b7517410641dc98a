from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """A bearer token for bots and scripts; one per user, replaced when a new one is issued.

    Only a SHA-256 of the token is stored, so a leaked database does not leak tokens; the
    plain token is shown once, when it is issued.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_token"
    )
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        # Django's default capitalises it "Api tokens" in the admin.
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}…"


class ProfileManager(models.Manager["Profile"]):
    def for_user(self, user: Any, *, lock: bool = False) -> Profile:
        """The user's profile, made here on first use (the one place a profile is made: a user
        without one has the defaults). ``lock``: row-locked to the end of the transaction."""
        profile, _ = self.get_or_create(user=user)
        if lock:
            return self.select_for_update().get(pk=profile.pk)
        return profile


class Profile(models.Model):
    """Preferences for reminders, and vacation (clocks paused); made on first use, by
    ``Profile.objects.for_user``. Readers that find none use the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    email_turn = models.BooleanField("email me when it is my turn", default=True)
    email_clock = models.BooleanField(
        "email me when half and 80% of my clock are gone", default=True
    )
    # No email between these local times (in time_zone); what falls due then is sent after.
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    # Nightly sleep hours, local times in time_zone (start > end spans midnight; at most 10 h):
    # this player's turn clocks do not run then (games/services/clocks.py ``counted_seconds``).
    sleep_start = models.TimeField(null=True, blank=True)
    sleep_end = models.TimeField(null=True, blank=True)
    # While in the future, this player's turn clocks are paused at every table.
    vacation_until = models.DateTimeField(null=True, blank=True)
    # Vacation days spent in vacation_year (the allowance is per calendar year, UTC).
    vacation_year = models.PositiveSmallIntegerField(default=0)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)
    # The statistics page (/players/<username>/) is shown to this user only (stats app).
    stats_hidden = models.BooleanField("hide my statistics from other players", default=False)
    # The "May I?" window of a "Play now" table, as last chosen (games/services/play_now.py):
    # kept here so that it follows the player to every device.
    play_now_window_seconds = models.PositiveSmallIntegerField(
        "seconds to say “May I?” at Play now", default=20
    )

    objects = ProfileManager()

    def __str__(self) -> str:
        return f"profile of {self.user}"


class NameSkeleton(models.Model):
    """What a user's name looks like (accounts/names.py ``skeleton``), indexed: sign-up finds a
    look-alike of a new name with one indexed lookup instead of reading every name of about its
    length. Kept by accounts/names.py: made when a user is saved with a new name, replaced when
    one is renamed (an account's deletion renames it), gone with the user."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="name_skeleton",
    )
    # NFKC and the confusables map can lengthen a name a little (usernames are at most 150).
    skeleton = models.CharField(max_length=600, db_index=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.skeleton}"
