"""The one exception the engine raises for a refused action."""

from __future__ import annotations


class IllegalMove(ValueError):
    """An action the rules refuse. ``code`` is stable for clients; ``message`` is for people.

    >>> e = IllegalMove("not_your_turn", "seat 2 acted, but it is seat 0's turn")
    >>> e.code, str(e)
    ('not_your_turn', "not_your_turn: seat 2 acted, but it is seat 0's turn")
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
