"""Table services: every change to a table goes through one of these functions.

Keyword-only arguments; each runs its own transaction and takes the table's row lock.
"""

from .check import table_check_selection
from .errors import (
    BadOptions,
    Busy,
    Conflict,
    NotHost,
    NotSeated,
    ServiceError,
    StaleVersion,
    TableNotFound,
    refusal,
)
from .lobby import Lobby, LobbyEntry, lobby_for_user
from .log import moves_since
from .orders import seat_set_buy_order
from .play import table_close_buy_window, table_submit_action, table_timeout_turn
from .play_now import PLAY_NOW_WINDOW_SECONDS, table_play_now
from .queries import (
    OnlineMarks,
    seat_of,
    table_check_access,
    table_get_for_user,
    table_list_for_user,
    table_list_open,
    table_log_page,
    table_meta,
    table_online,
    table_payload,
    table_read,
    table_view,
)
from .recent import recall as table_recent_commit
from .rematch import table_rematch
from .seen import seat_mark_seen, seat_mark_seen_by_user
from .selectors import seats_of
from .tables import table_create, table_fill_with_bots, table_join, table_leave, table_start
from .vacation import vacation_days_left, vacation_end, vacation_start

__all__ = [
    "PLAY_NOW_WINDOW_SECONDS",
    "OnlineMarks",
    "Lobby",
    "LobbyEntry",
    "lobby_for_user",
    "table_play_now",
    "BadOptions",
    "Busy",
    "Conflict",
    "NotHost",
    "NotSeated",
    "ServiceError",
    "StaleVersion",
    "TableNotFound",
    "seat_mark_seen",
    "table_recent_commit",
    "seat_mark_seen_by_user",
    "refusal",
    "seat_of",
    "seats_of",
    "seat_set_buy_order",
    "table_check_selection",
    "table_close_buy_window",
    "table_create",
    "table_fill_with_bots",
    "table_get_for_user",
    "table_join",
    "table_leave",
    "table_list_for_user",
    "moves_since",
    "table_list_open",
    "table_log_page",
    "table_meta",
    "table_check_access",
    "table_payload",
    "table_online",
    "table_read",
    "table_rematch",
    "table_start",
    "table_submit_action",
    "table_timeout_turn",
    "table_view",
    "vacation_days_left",
    "vacation_end",
    "vacation_start",
]
