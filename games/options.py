"""A table's defaults: what it gets when its host does not say, in one place.

The API's schema (api_schemas.py), the lobby's form (forms.py), the services that open a table
(services/tables.py, services/play_now.py) and those that read a table's options back
(services/clocks.py, services/play.py: tables made before an option existed have none) all
read these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

DAY = 24 * 3600


@dataclass(frozen=True)
class TableDefaults:
    turn_seconds: int = DAY  # the turn clock: added to a seat's time bank after each turn
    window_seconds: int = 3600  # the "May I?" window's timer
    strikes: int = 3  # missed turns in a row before a player is expelled
    max_strikes: int = 20
    # The longest clocks a host may choose (the shortest is settings.MAYI_MIN_CLOCK_SECONDS).
    max_clock_seconds: int = 30 * DAY
    max_bank_seconds: int = 60 * DAY

    def strikes_of(self, options: dict[str, Any]) -> int:
        """The strikes of a table with ``options``."""
        return int(options.get("strikes", self.strikes))

    def turn_seconds_of(self, options: dict[str, Any]) -> int:
        """The turn clock of a table with ``options``."""
        return int(options.get("turn_seconds", self.turn_seconds))


TABLE_DEFAULTS = TableDefaults()
