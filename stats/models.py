"""Statistics and ratings: per-seat round records, per-seat game results, per-user aggregates
and ratings.

Round records are computed by the engine (``games/engine/records.py``) when a round ends and
written in the move's transaction; game results, aggregates and ratings when the game finishes
(``stats/services.py``). The statistics page reads the aggregates, never the move log.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Table


class RoundRecord(models.Model):
    """One seat's record of one round, as ``games.engine.records`` computed it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="round_records")
    round_no = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="round_records",
    )
    ruleset = models.CharField(max_length=20)
    by_bot = models.BooleanField(default=False)
    # The move that ended the round: the next round's records start reading the log there.
    end_seq = models.PositiveIntegerField()
    score = models.IntegerField()
    penalty = models.IntegerField()
    went_out = models.BooleanField(default=False)
    # The seat's own turn (1 = its first of the round) on which its contract went down.
    down_turn = models.PositiveSmallIntegerField(null=True, blank=True)
    turns = models.PositiveSmallIntegerField(default=0)
    windows = models.PositiveSmallIntegerField(default=0)
    calls = models.PositiveSmallIntegerField(default=0)
    buys = models.PositiveSmallIntegerField(default=0)
    bought_used = models.PositiveSmallIntegerField(default=0)
    mayi_melds = models.PositiveSmallIntegerField(default=0)
    lay_offs = models.PositiveSmallIntegerField(default=0)
    lay_offs_others = models.PositiveSmallIntegerField(default=0)
    draws_pile = models.PositiveSmallIntegerField(default=0)
    draws_stock = models.PositiveSmallIntegerField(default=0)
    timeouts = models.PositiveSmallIntegerField(default=0)
    # Seconds from each turn's start to the player's first action (turns they played).
    think_seconds = models.JSONField(default=list)
    clock_seconds = models.FloatField(default=0.0)

    class Meta:
        ordering = ["table", "round_no", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "round_no", "seat"], name="round_record_unique"
            )
        ]

    def __str__(self) -> str:
        return f"Table {self.table_id} round {self.round_no} seat {self.seat}: {self.score}"


class GameResult(models.Model):
    """One seat's result of one finished game, with its rating before and after."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="game_results")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="game_results",
    )
    ruleset = models.CharField(max_length=20)
    players = models.PositiveSmallIntegerField()  # seats at the table
    total = models.IntegerField()
    place = models.PositiveSmallIntegerField()  # among all seats, ties share (1, 1, 3)
    rounds_out = models.PositiveSmallIntegerField(default=0)
    by_bot = models.BooleanField(default=False)  # a bot seat (not an expelled player)
    expelled = models.BooleanField(default=False)
    rated = models.BooleanField(default=False)
    # openskill mu/sigma before and after this game (null when unrated).
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)
    finished = models.DateTimeField()

    class Meta:
        ordering = ["-finished", "table", "seat"]
        constraints = [models.UniqueConstraint(fields=["table", "seat"], name="game_result_unique")]
        indexes = [models.Index(fields=["user", "-finished"], name="game_result_user_idx")]

    def __str__(self) -> str:
        return f"Table {self.table_id} seat {self.seat}: {self.total} (place {self.place})"


class Rating(models.Model):
    """A user's openskill (Plackett-Luce) rating in one ruleset."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    ruleset = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)  # rated games
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "ruleset"], name="rating_unique")]
        indexes = [models.Index(fields=["ruleset", "games"], name="rating_board_idx")]

    def __str__(self) -> str:
        return f"{self.user} {self.ruleset}: {self.mu:.1f}±{self.sigma:.1f}"


class PlayerStats(models.Model):
    """A user's aggregates in one ruleset, kept up to date when each game finishes.

    ``data`` holds counters only (sums, counts, histograms; shape in ``stats/aggregates.py``),
    so adding a finished game is an addition and the page divides.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_stats"
    )
    ruleset = models.CharField(max_length=20)
    data = models.JSONField(default=dict)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        # Django adds an "s": the admin's index listed "Player statss".
        verbose_name = "player stats"
        verbose_name_plural = "player stats"
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset"], name="player_stats_unique")
        ]

    def __str__(self) -> str:
        return f"stats of {self.user} in {self.ruleset}"


class Reliability(models.Model):
    """A player's last games as reliability counts them (``stats/reliability.py``): kept up to
    date when each of their games finishes, or when a moderator hands their seat to someone
    else, so the lobby reads one row per player instead of their last hundred games."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="reliability",
    )
    # Oldest first, at most RECENT games: [table id, finished in their seat (0/1), their
    # median seconds to move in that game or null, their turns timed out in it].
    recent = models.JSONField(default=list)
    games = models.PositiveSmallIntegerField(default=0)
    finished = models.PositiveSmallIntegerField(default=0)
    timeouts = models.PositiveIntegerField(default=0)
    median_move_seconds = models.FloatField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"reliability of {self.user_id}: {self.finished}/{self.games}"
