"""What the site calls a seat that no person holds."""

from __future__ import annotations


def bot_name(position: int) -> str:
    """ "Bot 3" for the bot in the third seat (positions count from 0): the one name a bot has
    in the lobby, the table page, the replay, the statistics and the admin. The table page's
    script (static/js/table/names.js) says the same from the seats it is sent."""
    return f"Bot {position + 1}"
