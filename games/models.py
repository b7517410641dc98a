"""Tables, seats, moves and round results.

The table row is the single source of truth for a game: its engine state, its version and its
deadlines. Moves are an append-only log that, with the seed inside the state, rebuilds the game.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

MIN_SEATS = 3
MAX_SEATS = 8


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "open"
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"
        ABORTED = "aborted", "aborted"

    ruleset = models.CharField(max_length=20, default="bga")
    # {"seats": 3..8, "turn_seconds": int, "window_seconds": int, "strikes": int,
    #  "engine": {ruleset options passed to new_game}}
    options = models.JSONField(default=dict)
    public = models.BooleanField(default=True)
    invite_code = models.CharField(max_length=32, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # Bumped by every committed change a client could see (a seat taken, a move); clients send
    # the version they saw so a stale action is refused instead of applied to a newer state.
    version = models.PositiveIntegerField(default=0)
    # Number of Move rows: the next move's seq comes from here, never from counting moves.
    move_count = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    window_deadline = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="hosted_tables"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "public", "-created"], name="table_lobby_idx"),
            # Partial indexes: the deadline sweep (issue 4) scans only tables that have one.
            models.Index(
                fields=["window_deadline"],
                name="table_window_deadline_idx",
                condition=Q(window_deadline__isnull=False),
            ),
            models.Index(
                fields=["turn_deadline"],
                name="table_turn_deadline_idx",
                condition=Q(turn_deadline__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.ruleset}, {self.status})"

    @property
    def seat_count(self) -> int:
        return int(self.options.get("seats", MIN_SEATS))


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    is_bot = models.BooleanField(default=False)
    # Turn clocks that ran out in a row; reset when the player acts.
    missed_turns = models.PositiveSmallIntegerField(default=0)
    # An expelled player's seat is played by the bot to the end of the game.
    expelled = models.BooleanField(default=False)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["table", "user"], name="seat_unique_user", condition=Q(user__isnull=False)
            ),
        ]

    def __str__(self) -> str:
        who = "bot" if self.is_bot else str(self.user)
        return f"Table {self.table_id} seat {self.position} ({who})"

    @property
    def played_by_bot(self) -> bool:
        return self.is_bot or self.expelled


class Move(models.Model):
    """One applied action; rows are only ever inserted."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    # None for actions the platform sends (a closed buy window, a turn timeout).
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    by_bot = models.BooleanField(default=False)
    action = models.JSONField()
    events = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="move_unique_seq")]

    def __str__(self) -> str:
        return f"Table {self.table_id} move {self.seq}: {self.action.get('type')}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise ValueError("moves are append-only")
        super().save(*args, **kwargs)


class RoundResult(models.Model):
    """One seat's result in one round, written when the round ends; statistics read these."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="round_results")
    round_no = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="round_results",
    )
    ruleset = models.CharField(max_length=20)
    score = models.IntegerField()
    went_out = models.BooleanField(default=False)
    buys = models.PositiveSmallIntegerField(default=0)
    mayi_melds = models.PositiveSmallIntegerField(default=0)
    # The seat was played by a bot (a bot seat, or an expelled player's).
    by_bot = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "round_no", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "round_no", "seat"], name="round_result_unique"
            )
        ]
        indexes = [models.Index(fields=["user", "ruleset"], name="round_result_user_idx")]

    def __str__(self) -> str:
        return f"Table {self.table_id} round {self.round_no} seat {self.seat}: {self.score}"


class BenchWrite(models.Model):
    """Rows written by the trivial benchmark endpoint (the floor of the stack)."""

    note = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bench write {self.pk}"
