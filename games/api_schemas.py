"""The API's request and response shapes (they make the OpenAPI schema at /api/openapi.json)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from ninja import Schema
from pydantic import (
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    model_validator,
)

from games.engine import RULESETS
from games.errors import CODE_NAMES
from games.options import TABLE_DEFAULTS

CardId = Annotated[StrictStr, Field(min_length=2, max_length=8, examples=["w7M"])]


class Strict(Schema):
    model_config = ConfigDict(extra="forbid")


class ActionBase(Strict):
    expect_version: StrictInt = Field(
        ge=0, description="The table version the client saw; a stale one gets 409."
    )


class DrawAction(ActionBase):
    type: Literal["draw"]
    source: Literal["stock", "discard"]


class ContractChoice(Strict):
    books: StrictInt = Field(ge=0, le=8)
    runs: StrictInt = Field(ge=0, le=8)


class LayDownAction(ActionBase):
    """Either ``cards`` (the engine finds the melds) or ``melds`` (checked as grouped)."""

    type: Literal["lay_down"]
    cards: list[CardId] | None = Field(default=None, max_length=40)
    melds: list[list[CardId]] | None = Field(default=None, max_length=8)
    contract: ContractChoice | None = Field(
        default=None,
        description="Where the round allows two contracts (rook's round 7: 3 runs or 4 books), "
        "the one to make; one of the view's `contracts`.",
    )
    wilds: dict[CardId, StrictInt] | None = Field(
        default=None,
        max_length=8,
        description="The number a wild stands for in a run, by its card id (otherwise the "
        "rules' default placement).",
    )

    @model_validator(mode="after")
    def one_of(self) -> LayDownAction:
        if (self.cards is None) == (self.melds is None):
            raise ValueError("give exactly one of cards or melds")
        return self


class LayOffAction(ActionBase):
    type: Literal["lay_off"]
    card: CardId
    meld: StrictStr = Field(max_length=16, examples=["m3"])
    end: Literal["low", "high"] | None = None


class MayiMeldAction(ActionBase):
    type: Literal["mayi_meld"]
    cards: list[CardId] = Field(min_length=4, max_length=4)


class DiscardAction(ActionBase):
    type: Literal["discard"]
    card: CardId


class PassAction(ActionBase):
    type: Literal["pass"]


class MayIAction(ActionBase):
    type: Literal["may_i"]


class NoThanksAction(ActionBase):
    type: Literal["no_thanks"]


class SwapWildAction(ActionBase):
    """rook: put the natural card a tabled wild stands for in its place; play the wild this
    turn."""

    type: Literal["swap_wild"]
    meld: StrictStr = Field(max_length=16, examples=["m3"])
    card: CardId


ActionIn = Annotated[
    DrawAction
    | LayDownAction
    | LayOffAction
    | MayiMeldAction
    | DiscardAction
    | PassAction
    | MayIAction
    | NoThanksAction
    | SwapWildAction,
    Field(discriminator="type"),
]


RULESETS_TEXT = "; ".join(f"{r.name}: {r.description}" for r in RULESETS.values())


class TableCreateIn(Strict):
    ruleset: StrictStr = Field(default="bga", max_length=20, description=RULESETS_TEXT)
    seats: StrictInt = Field(
        default=4, description="2 to 8, as the ruleset allows (bga, classic 3-8; petras 3-6)"
    )
    turn_seconds: StrictInt = Field(
        default=TABLE_DEFAULTS.turn_seconds,
        description="turn clock: seconds added to a seat's time bank after each turn (30 s to 30 days)",
    )
    bank_seconds: StrictInt | None = Field(
        default=None, description="each seat's starting time bank (default: turn_seconds)"
    )
    bank_max_seconds: StrictInt | None = Field(
        default=None, description="the most a time bank holds (default: the larger of the two)"
    )
    window_seconds: StrictInt = Field(
        default=TABLE_DEFAULTS.window_seconds, description="buy-window timer"
    )
    strikes: StrictInt = Field(
        default=TABLE_DEFAULTS.strikes, description="missed turns in a row before expulsion"
    )
    public: StrictBool = True
    timeout_level: Literal["easy", "normal", "strong"] = Field(
        default="normal",
        description="the bot level that plays a turn whose clock ran out, and an expelled seat "
        "(never expert: its search is too slow for a clock)",
    )
    bot_level: Literal["easy", "normal", "strong", "expert"] = Field(
        default="normal",
        description="the level of the bots that fill the empty seats (POST .../bots may name another)",
    )
    engine_options: dict[str, Any] = Field(
        default_factory=dict,
        description='ruleset options, vetted by the engine: rook {"round7": "choice"|"runs"|"books"}',
    )
    min_reliability: StrictFloat | StrictInt | None = Field(
        default=None,
        description="who may join: a reliability (0 to 1, share of their last games finished "
        "in their seat) at least this; new players (under 5 games) cannot join",
    )
    max_timeouts: StrictInt | None = Field(
        default=None,
        description="who may join: at most this many turns timed out in their last games",
    )


class PlayNowIn(Strict):
    """ "Play now against bots": a started table of one person and bots, with clocks made
    for it (a "May I?" window of seconds; the bots answer at once)."""

    ruleset: StrictStr = Field(default="bga", max_length=20, description=RULESETS_TEXT)
    seats: StrictInt = Field(default=4, description="the table's size; the others are bots")
    level: Literal["easy", "normal", "strong", "expert"] = Field(
        default="normal", description="the level the bots play at"
    )
    window_seconds: Literal[10, 20, 30, 60] | None = Field(
        default=None,
        description="seconds to say “May I?” (10, 20, 30 or 60), remembered for the next "
        "time; left out: the one chosen last (20 until a choice is made)",
    )


class BotsIn(Strict):
    level: Literal["easy", "normal", "strong", "expert"] = Field(
        default="normal",
        description="the level the bots filling the empty seats play at (no body: the table's bot_level)",
    )


class BuyOrderIn(Strict):
    order: Literal["ask", "never", "completes"] = Field(
        description="ask: no order; never: always no thanks; completes: May I? when the card "
        "with natural cards of my hand makes a book of 3 or a run of 4, else no thanks"
    )
    limit: StrictInt | None = Field(
        default=None, description="completes: buy only while I bought fewer this round"
    )


class VacationIn(Strict):
    days: StrictInt = Field(description="whole days to pause my clocks at every table")


class VacationOut(Schema):
    vacation_until: str | None
    days_left: int
    days_per_year: int


class InviteIn(Strict):
    invite_code: StrictStr = Field(min_length=1, max_length=32)


class SeatOut(Schema):
    position: int
    user: str | None
    is_bot: bool
    missed_turns: int
    expelled: bool
    # The level of the bot that plays the seat (a bot seat's own; an expelled player's seat:
    # the table's timeout level); None for a seat a person plays.
    bot_level: str | None = None
    # A person's seat in a table's own answer: seen (a socket or a request) within
    # MAYI_ONLINE_SECONDS; None for a bot, in a list of tables, or when the cache cannot tell.
    online: bool | None = None


class SeatClockOut(Schema):
    position: int
    seconds_left: int
    running: bool
    vacation_until: str | None
    # In the player's sleep hours now: their clock is stopped until then (ISO 8601, UTC).
    asleep_until: str | None = None


class ClocksOut(Schema):
    bank_seconds: int
    add_seconds: int
    max_seconds: int
    turn_started: str | None
    seats: list[SeatClockOut]


class BuyOrderOut(Schema):
    order: str
    limit: int | None


class TableMetaOut(Schema):
    id: int
    status: str
    version: int
    ruleset: str
    public: bool
    seats_total: int
    turn_seconds: int | None
    window_seconds: int | None
    strikes: int | None
    host: str | None
    invite_code: str | None
    my_seat: int | None
    seats: list[SeatOut]
    bank_seconds: int | None = None
    bank_max_seconds: int | None = None
    clocks: ClocksOut | None = None
    buy_order: BuyOrderOut | None = None
    window_deadline: str | None
    turn_deadline: str | None
    created: str
    seed_sha256: str | None = Field(
        None, description="SHA-256 (hex) of the game's seed, published when the game starts"
    )
    seed: str | None = Field(None, description="the game's seed, revealed when the game is over")
    last_seen_version: int | None = Field(
        None, description="the version this player had seen before this read; null for others"
    )
    rematch: int | None = Field(None, description='the "play again" table made from this one')
    aborted: dict[str, Any] | None = Field(
        None, description='set when a moderator aborted the table: {"by", "reason", "at"}'
    )
    min_reliability: float | None = Field(
        None, description="who may join: a reliability (0 to 1) at least this; null: anyone"
    )
    max_timeouts: int | None = Field(
        None, description="who may join: at most this many turns timed out; null: no limit"
    )
    rating_changes: list[dict[str, Any]] | None = Field(
        None,
        description="a finished game: each seated person's rating before and after "
        '([{"position", "user", "rated", "before", "after", "change"}])',
    )


class LogEntryOut(Schema):
    seq: int = Field(description="the move's number at this table, from 1")
    version: int = Field(description="the table version the move committed in")
    seat: int | None = Field(description="who moved; null for the platform (timers)")
    by_bot: bool
    at: str | None = Field(description="when, ISO 8601")
    action: str | None = Field(description="the action's type")
    events: list[dict[str, Any]] = Field(
        description="the move's events as the caller's seat may see them (never a hidden card)"
    )
    faces: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="face data of every card id the events name"
    )


LOG_DESCRIPTION = "the moves after the version the client had (at most 200), oldest first"


class TableOut(Schema):
    table: TableMetaOut
    view: dict[str, Any] | None = Field(
        description="engine.view for the caller's seat (a spectator's for others); null before start"
    )
    log: list[LogEntryOut] = Field(default_factory=list, description=LOG_DESCRIPTION)


class LogPageOut(Schema):
    table: int
    version: int
    log: list[LogEntryOut]
    more: bool = Field(description="older moves exist before this page")


class TableListOut(Schema):
    tables: list[TableMetaOut]


class ErrorBody(Schema):
    # The schema lists every registered code (games/errors.py) as an enum; the answer is not
    # validated against it, so a code added without registering cannot make a refusal a 500
    # (tests/site/test_error_codes.py catches it instead).
    code: str = Field(
        description="A stable code: see games/errors.py (and docs/ARCHITECTURE.md).",
        json_schema_extra={"enum": list(CODE_NAMES)},
    )
    message: str = Field(description="What was refused and why, for people.")


class ErrorOut(Schema):
    error: ErrorBody


class StaleOut(Schema):
    error: ErrorBody
    table: TableMetaOut
    view: dict[str, Any] | None
    log: list[LogEntryOut] = Field(default_factory=list, description=LOG_DESCRIPTION)


class CheckIn(Strict):
    cards: list[CardId] = Field(default_factory=list, max_length=40)
    melds: list[list[CardId]] = Field(default_factory=list, max_length=12)


class ContractOut(Schema):
    books: int
    runs: int


class ContractChoiceOut(Schema):
    books: int
    runs: int
    text: str


class CheckOut(Schema):
    needs: ContractOut = Field(
        description="the round's contract (the one this selection is nearest)"
    )
    choices: list[ContractChoiceOut] = Field(description="every contract the round accepts")
    makes: ContractOut = Field(description="books and runs the staged and selected cards make")
    melds: list[list[str]] = Field(description="those melds: staged groups, then the solver's")
    kinds: list[str] = Field(description='"book" or "run", one per meld')
    invalid: list[list[str]] = Field(description="staged groups that are neither")
    leftover: list[str] = Field(description="selected cards in no meld")
    complete: bool = Field(description="exactly a contract, every card used")
    down: bool = Field(description="this seat's contract is already down")
    can_lay_down: bool = Field(description="the engine takes melds as a lay-down now")
    reason: str | None = Field(description="why not, when complete but refused now")
    lay_offs: list[dict[str, Any]] | None = Field(
        description='one selected card: the lay-off actions the engine takes now ({"type": "lay_off", "card", "meld", "end"})'
    )
    message: str = Field(description="all that in a player's words, with faces")
