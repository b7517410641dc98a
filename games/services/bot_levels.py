"""Which bot level plays a seat (games/engine/bots.py: easy, normal, strong).

A bot seat plays at the level the host chose when filling the table (``Seat.bot_level``); a
turn whose clock ran out, and an expelled player's seat, at the table's ``timeout_level``
option (normal unless the table says otherwise).
"""

from __future__ import annotations

from games.models import Seat, Table


def timeout_level(table: Table) -> str:
    """The bot level that plays a turn whose clock ran out."""
    return str(table.options.get("timeout_level") or "normal")


def bot_level(table: Table, seat: Seat) -> str:
    """The level a bot-played seat plays at."""
    if seat.is_bot:
        return str(seat.bot_level)
    return timeout_level(table)
