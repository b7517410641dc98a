"""Signals of the statistics for the apps above them (moderation audits a moderator's read of
a hidden page), so that stats imports nothing of theirs."""

from __future__ import annotations

from django.dispatch import Signal

# A moderator read a member's hidden statistics page (or its API): viewer=, owner=.
hidden_stats_read = Signal()
