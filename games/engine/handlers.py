"""A player's actions, each with its handler (the handlers live by topic: ``buying``,
``melding``, ``turns``). ``actions.apply`` adds the platform's own two (``close_window``,
``timeout``); the playouts (``bots.playout``) apply these alone, and may not import ``actions``,
which imports the bots."""

from __future__ import annotations

from collections.abc import Callable

from .buying import answer, draw
from .melding import lay_down, lay_off, mayi_meld, swap_wild
from .state import State
from .turns import discard, pass_turn

PLAYER_HANDLERS: dict[str, Callable[..., State | None]] = {
    "draw": draw,
    "lay_down": lay_down,
    "lay_off": lay_off,
    "mayi_meld": mayi_meld,
    "discard": discard,
    "pass": pass_turn,
    "may_i": answer,
    "no_thanks": answer,
    "swap_wild": swap_wild,
}
