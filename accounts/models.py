from __future__ import annotations

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

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}…"
