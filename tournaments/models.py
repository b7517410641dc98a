"""Tournaments: Swiss rounds of tables playing duplicate deals (docs/TOURNAMENTS.md).

A tournament's rounds are rows made by the pairing, each in one transaction with the tables
it seats (``tournaments/services/rounds.py``); a round's results are written once, when its
last table ended, in the transaction that claims the round as finished. The tables themselves
are ordinary ``games.Table`` rows made through the table services.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import Table

MIN_TABLE_SIZE = 3
MAX_TABLE_SIZE = 6
MAX_ROUNDS = 20


class Tournament(models.Model):
    class Status(models.TextChoices):
        REGISTERING = "registering", "registering"
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"

    name = models.CharField(max_length=80)
    ruleset = models.CharField(max_length=20, default="bga")
    table_size = models.PositiveSmallIntegerField(default=4)
    rounds = models.PositiveSmallIntegerField(default=3)
    turn_seconds = models.PositiveIntegerField()
    window_seconds = models.PositiveIntegerField()
    # A round's tables have this long; those still playing then are finished by the bots.
    round_seconds = models.PositiveIntegerField()
    public = models.BooleanField(default=True)
    invite_code = models.CharField(max_length=32, unique=True)
    max_players = models.PositiveIntegerField()
    # A player below it may not join (the reliability of issue 29; None: anyone).
    min_reliability = models.FloatField(null=True, blank=True)
    # The tick starts the tournament then if enough joined (None: only the creator starts it).
    registration_closes = models.DateTimeField(null=True, blank=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="tournaments_created",
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERING)
    # The round being played (or the last one); 0 before the start.
    round = models.PositiveSmallIntegerField(default=0)
    # The secret every deal's seed is drawn from (never shown; each table's seed is revealed
    # with its game, and only the seed's hash is published while it plays).
    seed = models.CharField(max_length=64)
    # Set when registration closed with too few players: the tournament ended unplayed.
    cancelled = models.BooleanField(default=False)
    # The standings as they stood when the last round was scored, kept as they were.
    final_standings = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "public"], name="tournament_status_idx")]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class Entry(models.Model):
    """A player registered in a tournament; withdrawn ones keep their row and their points."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    joined = models.DateTimeField(auto_now_add=True)
    withdrawn = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "joined"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_unique_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament_id}"


class Round(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_rows")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    started = models.DateTimeField()
    deadline = models.DateTimeField()
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        # The claim of a pairing: one round of each number, whatever runs the tick twice.
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")
        ]
        indexes = [
            models.Index(
                fields=["deadline"],
                name="round_playing_deadline_idx",
                condition=Q(status="playing"),
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.number}"


class RoundTable(models.Model):
    """One table of a round; tables of a round with the same seat count share the deal."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="tournament_table")
    number = models.PositiveSmallIntegerField()  # 1, 2... in the round
    seats = models.PositiveSmallIntegerField()
    # SHA-256 of the deal's seed (the table's published commitment).
    seed_hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["round", "number"]

    def __str__(self) -> str:
        return f"round {self.round_id} table {self.number}"


class Result(models.Model):
    """One seat's result at one table of a round, written when the round is scored."""

    round_table = models.ForeignKey(RoundTable, on_delete=models.CASCADE, related_name="results")
    position = models.PositiveSmallIntegerField()
    # None for a bot that filled a seat (it has no standing).
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    total = models.IntegerField()
    place_points = models.FloatField()
    duplicate = models.FloatField()
    # The player withdrew or was expelled during the game: the seat scored last.
    forfeited = models.BooleanField(default=False)

    class Meta:
        ordering = ["round_table", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["round_table", "position"], name="result_unique_position"
            )
        ]

    def __str__(self) -> str:
        return f"{self.round_table_id} seat {self.position}: {self.total}"
