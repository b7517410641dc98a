"""A finished game's analysis: one row per game (its state of progress), one per decision weighed.

Thin: what the task wrote (analysis/services.py) and what the pages and the API read
(analysis/selectors.py). The numbers are the engine's (``games.engine.analyse_decision``):
expected penalty points, estimated by rollouts, with their interval and sample count.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Table


class GameAnalysis(models.Model):
    """The analysis of one finished game, made by the analysis task in slices.

    ``pending`` until the task has weighed every decision it could within the budget, then
    ``ready``; ``failed`` when the game would not replay or the engine raised (logged). A row
    made with another ``version`` of the engine's analysis is made again
    (``ANALYSIS_VERSION``)."""

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        READY = "ready", "ready"
        FAILED = "failed", "failed"

    table = models.OneToOneField(
        Table, primary_key=True, on_delete=models.CASCADE, related_name="analysis"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    version = models.PositiveIntegerField()
    # Who asked for it (None: analysed by default after the game, or on a replay's first read).
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # When the game ended (the statistics' "over time").
    ended = models.DateTimeField()
    # When its task was last queued (None: not queued yet, waiting for the queue to be short).
    queued = models.DateTimeField(null=True, blank=True)
    # A slice of the task holds the game until then (another copy of the task leaves it).
    lease = models.DateTimeField(null=True, blank=True)
    # Progress: the moves before this one are done (slices go on from here).
    next_seq = models.PositiveIntegerField(default=0)
    decisions_total = models.PositiveIntegerField(null=True, blank=True)
    cpu_seconds = models.FloatField(default=0.0)
    # Measured CPU seconds per rollout sample, to share what is left of the budget.
    sample_seconds = models.FloatField(null=True, blank=True)
    # Every decision was weighed (False: the budget ran out first; the rest are not listed).
    complete = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The sweep: the games waiting, newest first.
            models.Index(
                fields=["-ended"],
                name="analysis_waiting_idx",
                condition=models.Q(status="pending"),
            )
        ]

    def __str__(self) -> str:
        return f"Analysis of table {self.table_id} ({self.status}, v{self.version})"


class Decision(models.Model):
    """One decision of a person, weighed: the choice made, the best found, and what the choice
    made cost in expected penalty points (0 for the best), with its interval."""

    class Kind(models.TextChoices):
        DRAW = "draw", "draw"
        BUY = "buy", "“May I?”"
        DISCARD = "discard", "discard"
        LAY_DOWN = "lay_down", "lay down"
        LAY_OFF = "lay_off", "lay off"

    class Label(models.TextChoices):
        BEST = "best", "best"
        INACCURACY = "inaccuracy", "inaccuracy"
        MISTAKE = "mistake", "mistake"
        BLUNDER = "blunder", "blunder"

    analysis = models.ForeignKey(GameAnalysis, on_delete=models.CASCADE, related_name="decisions")
    seq = models.PositiveIntegerField()  # the move's seq (Move.seq)
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="analysed_decisions",
    )
    ruleset = models.CharField(max_length=20)
    round_no = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    # The choice made and the best, as the engine's choices (a lay-down not made: {"type":
    # "wait"}; lay-offs not made: {"type": "keep"}; a discard: the card of that face).
    action = models.JSONField()
    best = models.JSONField()
    cost = models.FloatField()
    low = models.FloatField()
    high = models.FloatField()
    label = models.CharField(max_length=10, choices=Label.choices)
    samples = models.PositiveIntegerField()
    choices = models.PositiveSmallIntegerField(default=0)
    # What went wrong, in a few words ("drew from the stock: taking the discard was better"),
    # the statistics' "most often got wrong"; empty for the best choice.
    pattern = models.CharField(max_length=80, blank=True, default="")
    # The deciding seat's expected score for the round (its penalty, less its MAYI melds) with
    # the best choice, as it could know it then: the replay's chart.
    expected = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["analysis", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "seq"], name="decision_unique_seq")
        ]
        indexes = [models.Index(fields=["user", "ruleset"], name="decision_user_idx")]

    def __str__(self) -> str:
        return f"Table {self.analysis_id} move {self.seq}: {self.kind} {self.label}"
