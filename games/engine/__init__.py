"""The May I? rules engine: pure Python, no Django, deterministic given a seed.

Public interface (see DESIGN.md): meld checks, the contract solver, scoring, and the state
machine (``new_game``, ``apply``, ``view``, ``IllegalMove``), plus ``legal_actions`` and
``seats_to_act`` for bots and the platform.
"""

from __future__ import annotations

from .actions import apply
from .contract import find_contract
from .errors import IllegalMove
from .legal import legal_actions, seats_to_act
from .melds import is_book, is_mayi, is_run
from .scoring import hand_penalty
from .state import new_game
from .view import view

__all__ = [
    "IllegalMove",
    "apply",
    "find_contract",
    "hand_penalty",
    "is_book",
    "is_mayi",
    "is_run",
    "legal_actions",
    "new_game",
    "seats_to_act",
    "view",
]
