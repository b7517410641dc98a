"""The May I? rules engine: pure Python, no Django, deterministic given a seed.

This package is the engine's only door: the site imports ``games.engine`` (or names from it),
never a module inside it (tests/site/test_layers.py checks). What it offers
(docs/ARCHITECTURE.md):

- the pinned interface: meld checks (``is_book``, ``is_run``, ``is_mayi``), the contract solver
  (``find_contract``), scoring (``hand_penalty``) and the state machine (``new_game``,
  ``apply``, ``view``, ``IllegalMove``);
- for bots and the platform: ``legal_actions``, ``seats_to_act``, ``answerers``,
  ``choose_action`` (the bots, in ``bots/``), ``concrete_action`` (a timeout as it is
  recorded: with its bot's plays), ``standing_answer``, and the questions of ``query.py``
  (``active_seat``, ``clock_seat``, ``card_on_offer``...), so that the site never reads a
  state's keys;
- the rulesets' data (``RULESETS``, ``get_ruleset``, ``RuleSet``) and the cards' faces
  (``face_data``, ``CardSet``, ``WILD_RANK``, ``cards_penalty``, ``rules_summary``);
- the records of a game: a replay from the seed (``initial_state``, ``replay``), the round
  records stats keeps (``RoundRecorder``, ``LoggedMove``, ``opening_event``), the checks of a
  finished game (``verify_game``, ``verify_replayed``, ``seed_commitment``) and what each seat
  may see of a move's events (``public_events``, ``event_cards``);
- the analysis of a seat's decisions by determinized playouts (``analyse_decision``,
  ``decision_analysis``, ``decision_kind``, ``analysis_choice``, ``ANALYSIS_VERSION``:
  docs/ANALYSIS.md);
- the closed list of refusal codes (``ERROR_CODES``).
"""

from __future__ import annotations

from .actions import PLATFORM_ACTIONS, apply, concrete_action
from .analysis import (
    ANALYSIS_VERSION,
    analyse_decision,
    analysis_choice,
    decision_analysis,
    decision_kind,
)
from .bots import choose_action
from .cards import WILD_RANK, CardSet, face_data
from .contract import find_contract
from .errors import CODES as ERROR_CODES
from .errors import IllegalMove
from .grouping import hand_melds
from .legal import answerers, legal_actions, seats_to_act
from .melds import is_book, is_mayi, is_run
from .orders import standing_answer
from .public import event_cards, public_events
from .query import (
    ROUND_ENDED,
    TURN_EVENTS,
    WINDOW_EVENTS,
    active_seat,
    buys_used,
    card_on_offer,
    clock_seat,
    final_places,
    hands_of,
    is_over,
    on_sale,
    round_progress,
    rounds_went_out,
    seed_of,
    stock_next,
    stock_size,
    total_scores,
    window_open,
)
from .recorded import timeouts_with_plays
from .records import (
    PLATFORM_EVENTS,
    LoggedMove,
    RoundRecorder,
    initial_state,
    opening_event,
    replay,
)
from .rulesets import RULESETS, RuleSet, get_ruleset
from .scoring import cards_penalty, hand_penalty
from .selection import check_selection
from .state import State, new_game, state_of
from .summary import rules_summary
from .verify import Verification, seed_commitment, verify_game, verify_replayed
from .view import View, view

__all__ = [
    "ANALYSIS_VERSION",
    "ERROR_CODES",
    "PLATFORM_ACTIONS",
    "PLATFORM_EVENTS",
    "ROUND_ENDED",
    "RULESETS",
    "TURN_EVENTS",
    "WILD_RANK",
    "WINDOW_EVENTS",
    "CardSet",
    "IllegalMove",
    "LoggedMove",
    "RoundRecorder",
    "RuleSet",
    "State",
    "Verification",
    "View",
    "active_seat",
    "analyse_decision",
    "analysis_choice",
    "answerers",
    "apply",
    "buys_used",
    "card_on_offer",
    "cards_penalty",
    "check_selection",
    "choose_action",
    "clock_seat",
    "concrete_action",
    "decision_analysis",
    "decision_kind",
    "event_cards",
    "face_data",
    "final_places",
    "hands_of",
    "rounds_went_out",
    "state_of",
    "stock_next",
    "stock_size",
    "total_scores",
    "find_contract",
    "get_ruleset",
    "hand_melds",
    "hand_penalty",
    "initial_state",
    "is_book",
    "is_mayi",
    "is_over",
    "is_run",
    "legal_actions",
    "new_game",
    "on_sale",
    "opening_event",
    "public_events",
    "replay",
    "round_progress",
    "rules_summary",
    "seats_to_act",
    "seed_commitment",
    "seed_of",
    "standing_answer",
    "timeouts_with_plays",
    "verify_game",
    "verify_replayed",
    "view",
    "window_open",
]
