"""The May I? rules engine: pure Python, no Django, deterministic given a seed.

Public interface (docs/ARCHITECTURE.md): meld checks, the contract solver, scoring, and the
state machine (``new_game``, ``apply``, ``view``, ``IllegalMove``), plus for bots and the
platform ``legal_actions``, ``seats_to_act``, ``answerers``, ``choose_action``,
``concrete_action`` (a timeout as it is recorded: with its bot's plays), ``standing_answer``
and the questions of ``query.py`` (``active_seat``, ``clock_seat``, ``card_on_offer``...), so
that the site never reads a state's keys.
"""

from __future__ import annotations

from .actions import PLATFORM_ACTIONS, apply, concrete_action
from .bots import choose_action
from .contract import find_contract
from .errors import IllegalMove
from .grouping import hand_melds
from .legal import answerers, legal_actions, seats_to_act
from .melds import is_book, is_mayi, is_run
from .orders import standing_answer
from .query import (
    ROUND_ENDED,
    TURN_EVENTS,
    WINDOW_EVENTS,
    active_seat,
    buys_used,
    card_on_offer,
    clock_seat,
    is_over,
    on_sale,
    round_progress,
    seed_of,
    window_open,
)
from .scoring import hand_penalty
from .state import new_game
from .view import view

__all__ = [
    "PLATFORM_ACTIONS",
    "ROUND_ENDED",
    "TURN_EVENTS",
    "WINDOW_EVENTS",
    "IllegalMove",
    "active_seat",
    "answerers",
    "apply",
    "buys_used",
    "card_on_offer",
    "choose_action",
    "clock_seat",
    "concrete_action",
    "find_contract",
    "hand_melds",
    "hand_penalty",
    "is_book",
    "is_mayi",
    "is_over",
    "is_run",
    "legal_actions",
    "new_game",
    "on_sale",
    "round_progress",
    "seats_to_act",
    "seed_of",
    "standing_answer",
    "view",
    "window_open",
]
