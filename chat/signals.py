"""Signals of the chat for the apps above it (moderation files an automatic report on a
flood), so that chat imports nothing of theirs."""

from __future__ import annotations

from django.dispatch import Signal

# Sent when the rate limit refused a member's chat message: user=, table_id=.
flood_blocked = Signal()
