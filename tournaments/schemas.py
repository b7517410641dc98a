"""Request bodies of the tournaments' API (strict: a string is no number)."""

from __future__ import annotations

from datetime import datetime

from ninja import Schema
from pydantic import ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr


class Strict(Schema):
    model_config = ConfigDict(extra="forbid")


class TournamentCreateIn(Strict):
    name: StrictStr = Field(max_length=200)
    ruleset: StrictStr = Field(default="bga", max_length=20)
    table_size: StrictInt = Field(
        default=4, description="3 to 6 seats (one more or fewer where the count demands)"
    )
    rounds: StrictInt = Field(default=3, description="1 to 20 Swiss rounds")
    turn_seconds: StrictInt = Field(default=24 * 3600, description="the tables' turn clock")
    window_seconds: StrictInt = Field(default=3600, description="the tables' buy-window timer")
    public: StrictBool = True
    max_players: StrictInt = Field(default=64, description="the cap of players")
    round_seconds: StrictInt | None = Field(
        default=None,
        description="a round's time: its tables still being played then are finished by the bots (default 7 days)",
    )
    registration_closes: datetime | None = Field(
        default=None,
        description="the tick starts the tournament then (or ends it unplayed with too few)",
    )
    min_reliability: StrictFloat | StrictInt | None = Field(
        default=None, description="0 to 1: a player below it may not join"
    )
    play: StrictBool = Field(
        default=True, description="the creator plays (staff may organise only)"
    )


class TournamentJoinIn(Strict):
    invite_code: StrictStr | None = Field(default=None, max_length=64)
