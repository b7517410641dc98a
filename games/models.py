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
    # Set by services.table_create: {"seats": 2..8 (the ruleset's range), "turn_seconds",
    #  "bank_seconds", "bank_max_seconds", "window_seconds", "strikes": ints,
    #  "engine": {the ruleset's options, passed to new_game}}
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
    # SHA-256 (hex) of the game's seed, published from the start; the seed itself is revealed
    # when the game is over, so anyone can check the deals came from it (games/engine/verify.py).
    seed_sha256 = models.CharField(max_length=64, blank=True, default="")
    window_deadline = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    # When the active seat's clock started (moved later while its player is on vacation):
    # the time a turn used is charged to the seat's bank from here (games/services/clocks.py).
    turn_started = models.DateTimeField(null=True, blank=True)
    # Counts clock starts, so a reminder names the turn it is about.
    turn_seq = models.PositiveIntegerField(default=0)
    # The version whose near deadlines were queued as ETA tasks: the sweep queues a deadline
    # once, when it comes within the horizon, and claims that with a conditional update.
    timers_queued = models.PositiveIntegerField(null=True, blank=True)
    # The next reminder about the running turn is due then (stage: 0 turn, 1 half, 2 80%).
    remind_at = models.DateTimeField(null=True, blank=True)
    remind_stage = models.PositiveSmallIntegerField(default=0)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="hosted_tables"
    )
    # "Play again": the table made from this finished one with the same players; set once,
    # under this row's lock, so two clicks make one table (games/services/rematch.py).
    rematch = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "public", "-created"], name="table_lobby_idx"),
            # Partial indexes: the deadline sweep (games/services/timers.py) scans only tables
            # that have one.
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
            models.Index(
                fields=["remind_at"],
                name="table_remind_at_idx",
                condition=Q(remind_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.ruleset}, {self.status})"

    @property
    def seat_count(self) -> int:
        return int(self.options.get("seats", MIN_SEATS))


class BotLevel(models.TextChoices):
    """The levels of games/engine/bots/ a bot seat plays at."""

    EASY = "easy", "easy"
    NORMAL = "normal", "normal"
    STRONG = "strong", "strong"
    EXPERT = "expert", "expert"


# The levels that may play a turn whose clock ran out (and an expelled player's seat): never
# expert, whose search takes up to a fifth of a second a decision, too slow for a clock.
TIMEOUT_LEVELS = (BotLevel.EASY, BotLevel.NORMAL, BotLevel.STRONG)


class BuyOrder(models.TextChoices):
    ASK = "ask", "ask me"
    NEVER = "never", "never buy"
    COMPLETES = "completes", "buy a card that completes a book or run in my hand"


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
    # The level a bot seat plays at (an expelled player's seat: the table's timeout level).
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, default=BotLevel.NORMAL)
    # Turn clocks that ran out in a row; reset when the player acts.
    missed_turns = models.PositiveSmallIntegerField(default=0)
    # An expelled player's seat is played by the bot to the end of the game.
    expelled = models.BooleanField(default=False)
    # Seconds left in this seat's time bank, not counting a running turn; None until the
    # seat's first turn ends (the table's starting allowance).
    clock_bank = models.FloatField(null=True, blank=True)
    # The player's standing order for "May I?" windows (games/services/orders.py).
    buy_order = models.CharField(max_length=10, choices=BuyOrder.choices, default=BuyOrder.ASK)
    # With buy_order "completes": buy only while this seat has bought fewer this round.
    buy_order_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    # The table version the player last saw (the page or the API read, a socket opening or
    # closing), for "since you last looked"; written only when it changes.
    last_seen_version = models.PositiveIntegerField(null=True, blank=True)
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
    # The table version this move committed in (one commit may carry several moves): a
    # client's version finds the moves it has not seen (games/services/log.py).
    version = models.PositiveIntegerField(default=0)
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


class Reminder(models.Model):
    """One reminder email about one turn: the row is the record that it was (or will not be)
    sent, so a sweep or a task running twice never sends it twice."""

    class Kind(models.TextChoices):
        TURN = "turn", "your turn"
        HALF = "half", "half your clock gone"
        LATE = "late", "80% of your clock gone"

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENT = "sent", "sent"
        SKIPPED = "skipped", "skipped"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reminders")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    turn_seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    # Not before then (quiet hours move it); queued: when a task was last queued for it.
    due = models.DateTimeField()
    queued = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=40, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    sent = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "turn_seq", "kind", "user"], name="reminder_unique"
            )
        ]
        indexes = [
            models.Index(
                fields=["due"],
                name="reminder_pending_idx",
                condition=Q(status="pending"),
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} reminder to {self.user_id}, table {self.table_id}: {self.status}"
