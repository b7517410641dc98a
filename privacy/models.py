"""A download of everything the site holds about one player, built by a Celery task."""

from __future__ import annotations

import secrets
from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone


def _token() -> str:
    return secrets.token_urlsafe(24)


class DataExport(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "being prepared"
        READY = "ready", "ready"
        FAILED = "failed", "failed"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="data_exports"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    # Part of the download's address: an id alone would be guessable. The link is also only
    # ever served to its owner's session or token.
    token = models.CharField(max_length=40, default=_token, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    ready_at = models.DateTimeField(null=True, blank=True)
    expires = models.DateTimeField(null=True, blank=True)
    # The zip itself: in the database, so a backup holds it and every process serves it (a
    # player's data is kilobytes to a few megabytes); cleared when it expires.
    content = models.BinaryField(null=True, blank=True)
    size = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["user", "-created"])]
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"export {self.pk} of user {self.user_id} ({self.status})"

    def live_at(self, now: datetime) -> bool:
        """Its link works at ``now``: ready, and not expired."""
        return self.status == self.Status.READY and bool(self.expires and self.expires > now)

    @property
    def live(self) -> bool:
        """Its link works now (the page shows it then)."""
        return self.live_at(timezone.now())
