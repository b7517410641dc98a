"""A table's life before play: create, join, leave, fill with bots, start."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import engine
from games.engine import RULESETS, seed_commitment
from games.models import MAX_SEATS, TIMEOUT_LEVELS, BotLevel, Seat, Table
from games.options import TABLE_DEFAULTS

from .errors import BadOptions, Conflict, NotHost, NotSeated, TableNotFound
from .join_rules import check_game_cap, check_may_sit, check_rule_options
from .locked import do_bump_version
from .locking import lock_table_with_seats, retry_on_contention
from .transition import Transition

FEWEST_SEATS = min(r.min_players for r in RULESETS.values())


def _int_option(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadOptions(f"{name} must be an integer from {low} to {high}")
    return value


def table_create(
    *,
    host: User,
    ruleset: str = "bga",
    seats: int = 4,
    turn_seconds: int = TABLE_DEFAULTS.turn_seconds,
    window_seconds: int = TABLE_DEFAULTS.window_seconds,
    strikes: int = TABLE_DEFAULTS.strikes,
    public: bool = True,
    engine_options: dict[str, Any] | None = None,
    bank_seconds: int | None = None,
    bank_max_seconds: int | None = None,
    timeout_level: str = BotLevel.NORMAL,
    bot_level: str = BotLevel.NORMAL,
    min_reliability: float | None = None,
    max_timeouts: int | None = None,
    duplicate: bool = False,
    seated_by_pairing: bool = False,
) -> Table:
    """Open a table with ``host`` in seat 0.

    ``seated_by_pairing``: a tournament's pairing seats its players (its table's other
    players join with the same flag): the cap on games at once and the reliability were
    checked when they registered, so neither refuses the seat their tournament gives them.

    ``min_reliability`` (0 to 1) and ``max_timeouts``: who may join (games/services/
    join_rules.py): a player's reliability at least this, their timeouts at most that.

    ``duplicate``: the table plays a deal other tables play too (a tournament's duplicate
    deal, started with the shared seed): its players may not look at the deal's other tables
    while their own plays it (:func:`games.services.queries.table_check_access`).

    ``timeout_level``: the bot level that plays a turn whose clock ran out, and an expelled
    player's seat (games/engine/bots/; "normal" unless the table says otherwise; never
    "expert", too slow for a clock: ``TIMEOUT_LEVELS``).
    ``bot_level``: the level the bots that fill the empty seats play at, unless the host
    names another when filling them (:func:`table_fill_with_bots`).

    Time control (games/services/clocks.py): each seat starts with ``bank_seconds`` (default
    ``turn_seconds``), gets ``turn_seconds`` more after each turn, and never holds more than
    ``bank_max_seconds`` (default the larger of the two). ``window_seconds`` is the "May I?"
    window's timer.
    """
    # The shortest clock is settings.MAYI_MIN_CLOCK_SECONDS (30 s; tests of the timers lower it).
    low = settings.MAYI_MIN_CLOCK_SECONDS
    turn = _int_option("turn_seconds", turn_seconds, low, TABLE_DEFAULTS.max_clock_seconds)
    bank = turn if bank_seconds is None else bank_seconds
    bank = _int_option("bank_seconds", bank, low, TABLE_DEFAULTS.max_bank_seconds)
    cap = max(bank, turn) if bank_max_seconds is None else bank_max_seconds
    cap = _int_option("bank_max_seconds", cap, low, TABLE_DEFAULTS.max_bank_seconds)
    if cap < bank or cap < turn:
        raise BadOptions("bank_max_seconds must be at least bank_seconds and turn_seconds")
    options = {
        # The engine vets the size per ruleset below (rook plays from 2).
        "seats": _int_option("seats", seats, FEWEST_SEATS, MAX_SEATS),
        "turn_seconds": turn,
        "bank_seconds": bank,
        "bank_max_seconds": cap,
        "window_seconds": _int_option(
            "window_seconds", window_seconds, low, TABLE_DEFAULTS.max_clock_seconds
        ),
        "strikes": _int_option("strikes", strikes, 1, TABLE_DEFAULTS.max_strikes),
        "timeout_level": bot_level_option("timeout_level", timeout_level, TIMEOUT_LEVELS),
        "bot_level": bot_level_option("bot_level", bot_level),
        "engine": dict(engine_options or {}),
        **check_rule_options(min_reliability, max_timeouts),
    }
    if duplicate:
        options["duplicate"] = True
    # A table of people is a turn-based game: within the cap ("Play now" and a tournament's
    # pairing skip this).
    if not seated_by_pairing:
        check_game_cap(user=host)
    return table_open(host=host, ruleset=ruleset, options=options, public=public)


def table_open(*, host: User, ruleset: str, options: dict[str, Any], public: bool) -> Table:
    """Write a table whose clock options are already checked (table_create checks a person's
    choices; "Play now" sets clocks below the people's minimum, made for play against bots)."""
    # The engine is the authority on what a ruleset and its options allow: ask it now rather
    # than when the table starts with everyone seated.
    try:
        engine.new_game(options["seats"], "probe", ruleset, options["engine"] or None)
    except engine.IllegalMove as exc:
        raise BadOptions(exc.message) from None
    with transaction.atomic():
        table = Table.objects.create(
            ruleset=ruleset,
            options=options,
            public=public,
            invite_code=secrets.token_urlsafe(9),
            host=host,
        )
        Seat.objects.create(table=table, position=0, user=host)
    return table


@retry_on_contention
def table_join(
    *,
    user: User,
    table_id: int | None = None,
    invite_code: str | None = None,
    seated_by_pairing: bool = False,
) -> Table:
    """Take the lowest free seat of an open table, by its id (public tables) or invite code.

    ``seated_by_pairing``: a tournament's pairing seats ``user`` (see :func:`table_create`):
    no join rule refuses it; the pairing keeps players who blocked each other apart where
    the count allows."""
    with transaction.atomic():
        if invite_code is not None:
            # A NUL can be in no code (PostgreSQL refuses it in a query: it was a 500).
            found = (
                None
                if "\x00" in invite_code
                else Table.objects.filter(invite_code=invite_code)
                .values_list("pk", flat=True)
                .first()
            )
            if found is None:
                raise TableNotFound("no table has this invite code", code="invite_not_found")
            table, seats = lock_table_with_seats(found)
        elif table_id is not None:
            table, seats = lock_table_with_seats(table_id)
            if not table.public:
                raise NotSeated(
                    "this table is private: join it with its invite code", code="invite_required"
                )
        else:
            raise BadOptions("give a table id or an invite code", code="bad_request")
        if table.status != Table.Status.OPEN:
            raise Conflict("this table has already started", code="table_started")
        if any(s.user_id == user.pk for s in seats):
            raise Conflict("you already have a seat at this table", code="already_seated")
        taken = {s.position for s in seats}
        free = [p for p in range(table.seat_count) if p not in taken]
        if not free:
            raise Conflict("this table is full", code="table_full")
        if not seated_by_pairing:
            check_may_sit(user=user, table=table, seats=seats)
        Seat.objects.create(table=table, position=free[0], user=user)
        do_bump_version(table)
    return table


@retry_on_contention
def table_leave(*, user: User, table_id: int) -> Table:
    """Give up a seat before the game starts. A host who leaves hands the table on, or closes it."""
    with transaction.atomic():
        table, seats = lock_table_with_seats(table_id)
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise NotSeated("you have no seat at this table")
        if table.status != Table.Status.OPEN:
            raise Conflict(
                "the game has started: seats can no longer be left", code="table_started"
            )
        mine.delete()
        if table.host_id == user.pk:
            people = [s for s in seats if s.user_id is not None and s.user_id != user.pk]
            if people:
                table.host = people[0].user
            else:
                Seat.objects.filter(table=table).delete()
                table.host = None
                table.status = Table.Status.ABORTED
        do_bump_version(table, fields=["host", "status"])
    return table


def bot_level_option(name: str, value: Any, levels: Sequence[str] = tuple(BotLevel)) -> str:
    if value not in levels:
        raise BadOptions(f"{name} must be one of {', '.join(levels)}")
    return str(value)


@retry_on_contention
def table_fill_with_bots(*, user: User, table_id: int, level: str | None = None) -> Table:
    """The host fills every empty seat with a bot playing at ``level`` (easy, normal, strong,
    expert; by default the level chosen when the table was made, else normal)."""
    if level is not None:
        level = bot_level_option("level", level)
    with transaction.atomic():
        table, seats = lock_table_with_seats(table_id)
        _check_host(table, user)
        if level is None:
            level = bot_level_option("level", table.options.get("bot_level", BotLevel.NORMAL))
        if table.status != Table.Status.OPEN:
            raise Conflict("this table has already started", code="table_started")
        taken = {s.position for s in seats}
        free = [p for p in range(table.seat_count) if p not in taken]
        if not free:
            raise Conflict("there is no empty seat to fill", code="table_full")
        Seat.objects.bulk_create(
            [Seat(table=table, position=p, is_bot=True, bot_level=level) for p in free]
        )
        do_bump_version(table)
    return table


@retry_on_contention
def table_start(*, user: User, table_id: int, seed: str | None = None) -> Table:
    """The host starts a full table; bots then play until a person is to act.

    ``seed`` is for tests and benchmarks that must know the deal; games get 32 random bytes.
    """
    with transaction.atomic():
        table, seats = lock_table_with_seats(table_id)
        _check_host(table, user)
        if table.status != Table.Status.OPEN:
            raise Conflict("this table has already started", code="table_started")
        if len(seats) != table.seat_count:
            raise Conflict(
                f"{len(seats)} of {table.seat_count} seats are taken: wait or fill with bots",
                code="table_not_full",
            )
        state = engine.new_game(
            table.seat_count,
            seed or secrets.token_hex(32),
            table.ruleset,
            table.options.get("engine") or None,
        )
        change = Transition(
            table=table, seats=seats, state=state, turn_changed=True, window_opened=True
        )
        change.run_bots()
        change.commit(now=timezone.now())
        # The commitment to the seed, published while the seed stays secret (issue 12).
        table.seed_sha256 = seed_commitment(engine.seed_of(state))
        Table.objects.filter(pk=table.pk).update(seed_sha256=table.seed_sha256)
    return table


def _check_host(table: Table, user: User) -> None:
    if table.host_id != user.pk:
        raise NotHost("only the host can do this")
