"""Table services: every change to a table goes through one of these functions.

Two kinds, both public:
- ``table_*``, ``seat_*``, ``vacation_*``: keyword-only arguments; each runs its own
  transaction and takes the table's row lock.
- the layer of changes *under the lock* (locked.py, transition.py): ``do_*`` and
  ``Transition``, for a service (of games or another app) that already holds the lock it took
  with ``lock_table_with_seats`` inside ``transaction.atomic()``. They bump the version, write
  the clocks and the status, and announce after the commit; nothing else writes those.
"""

from .check import table_check_selection

# Queue a task by its name (the services never import the tasks), for any app.
from .enqueue import NOTIFY_INVITATION, NOTIFY_MENTION, send_task_after_commit
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
from .finish import seat_resign, table_finish_by_bots
from .join_rules import check_game_cap, check_reliability_rule, open_games
from .lobby import MAY_I_OPEN, Lobby, LobbyEntry, lobby_for_user, tables_waiting_on, waiting_mark
from .locked import CLOCK_FIELDS, do_announce, do_bump_version, do_end_game, do_stop_clocks
from .locking import lock_table_with_seats, retry_on_contention
from .log import moves_since
from .orders import seat_set_buy_order
from .pace import LobbyFilters, pace_words, window_words
from .play import table_close_buy_window, table_submit_action, table_timeout_turn
from .play_now import (
    PLAY_NOW_WINDOW_CHOICES,
    PLAY_NOW_WINDOW_SECONDS,
    profile_play_now_window,
    table_play_now,
)
from .queries import (
    OnlineMarks,
    SharedMeta,
    seat_of,
    table_check_access,
    table_get_for_user,
    table_list_for_user,
    table_list_open,
    table_log_page,
    table_meta,
    table_meta_shared,
    table_online,
    table_payload,
    table_read,
    table_stale_payload,
    table_view,
)
from .recent import Committed
from .recent import recall as table_recent_commit
from .rematch import table_rematch
from .seen import seat_mark_seen, seat_mark_seen_by_user, seats_mark_seen_by_users
from .selectors import read_table_with_seats, seats_of
from .tables import table_create, table_fill_with_bots, table_join, table_leave, table_start
from .timing import collecting
from .transition import Transition, do_seats_changed
from .trust import TableTrust, table_trust
from .vacation import sleep_hours_set, vacation_days_left, vacation_end, vacation_start

__all__ = [
    # Issue 29: who may sit (the cap, a reliability rule), a table's pace, the lobby's filters.
    "check_game_cap",
    "check_reliability_rule",
    "open_games",
    "LobbyFilters",
    "pace_words",
    "window_words",
    "TableTrust",
    "table_trust",
    "PLAY_NOW_WINDOW_CHOICES",
    "CLOCK_FIELDS",
    "MAY_I_OPEN",
    "waiting_mark",
    "NOTIFY_MENTION",
    "NOTIFY_INVITATION",
    "send_task_after_commit",
    "collecting",
    "Committed",
    "Transition",
    "do_announce",
    "do_bump_version",
    "do_end_game",
    "do_seats_changed",
    "do_stop_clocks",
    "lock_table_with_seats",
    "read_table_with_seats",
    "retry_on_contention",
    "PLAY_NOW_WINDOW_SECONDS",
    "OnlineMarks",
    "SharedMeta",
    "Lobby",
    "LobbyEntry",
    "lobby_for_user",
    "tables_waiting_on",
    "profile_play_now_window",
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
    "seats_mark_seen_by_users",
    "refusal",
    "seat_of",
    "seats_of",
    "seat_set_buy_order",
    "table_check_selection",
    "table_close_buy_window",
    "table_create",
    "table_fill_with_bots",
    "table_finish_by_bots",
    "seat_resign",
    "table_get_for_user",
    "table_join",
    "table_leave",
    "table_list_for_user",
    "moves_since",
    "table_list_open",
    "table_log_page",
    "table_meta",
    "table_meta_shared",
    "table_check_access",
    "table_payload",
    "table_stale_payload",
    "table_online",
    "table_read",
    "table_rematch",
    "table_start",
    "table_submit_action",
    "table_timeout_turn",
    "table_view",
    "sleep_hours_set",
    "vacation_days_left",
    "vacation_end",
    "vacation_start",
]
