"""Follows (two make friends), blocks and invitations of one player by another to a table.

Thin rows: who did what to whom and when. What a row means for others is read through
``social/selectors.py``: a block hides its blocked player silently, so the blocked player's own
rows (their follow, their invitation) stay as they wrote them and are simply never shown to, or
acted on for, the one who blocked them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games.models import Table


class Follow(models.Model):
    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following_rows"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follower_rows"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_unique"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]
        indexes = [models.Index(fields=["followed"], name="follow_followed_idx")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking_rows"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by_rows"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked"], name="block_blocked_idx")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Invitation(models.Model):
    """A player asks a friend to join an open table; shown on the friend's lobby until they
    join, decline, or the table starts."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_received"
    )
    declined = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "recipient"], name="invitation_unique")
        ]
        indexes = [models.Index(fields=["recipient", "-created"], name="invitation_recipient_idx")]

    def __str__(self) -> str:
        return f"{self.sender_id} invites {self.recipient_id} to table {self.table_id}"
