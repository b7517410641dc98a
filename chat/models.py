"""Table chat: one row per message, kept for the record even when a moderator hides it."""

from __future__ import annotations

from django.conf import settings
from django.db import models

TEXT_MAX = 500


class ChatMessage(models.Model):
    class Audience(models.TextChoices):
        # Players see players' messages; on public tables spectators talk among themselves,
        # and players never see what spectators say (who might be looking at everyone's
        # hands after the game, or simply kibitzing), as on Board Game Arena.
        PLAYERS = "players", "players"
        SPECTATORS = "spectators", "spectators"
        # Notices from the site (a table aborted by a moderator): everyone sees them.
        ALL = "all", "everyone"

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="chat")
    # None: a notice from the site.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chat_messages",
    )
    audience = models.CharField(max_length=10, choices=Audience.choices)
    # Plain text, never HTML: pages escape it (Django templates) or set it as textContent.
    text = models.CharField(max_length=TEXT_MAX)
    # The key of a canned reaction ("nice_buy"), when the message is one.
    reaction = models.CharField(max_length=20, blank=True)
    # The table's move count when it was posted: reports point at that moment of the game.
    move_seq = models.PositiveIntegerField(default=0)
    hidden = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "id"]
        indexes = [models.Index(fields=["table", "audience", "-id"], name="chat_page_idx")]
        permissions = [("hide_chatmessage", "Can hide a chat message")]

    def __str__(self) -> str:
        who = self.author.get_username() if self.author else "site"
        return f"{who} at table {self.table_id}: {self.text[:40]}"
