"""Cards and their notation.

A *face* is what a card shows (``"7M"``, ``"13I"``, ``"?"``); a *card id* names one physical
card: a deck prefix plus its face (``"w7M"``, ``"b?"``, ``"g13I"``). Internally a face is parsed
to ``(rank, suit)`` with rank ``0`` and suit ``"?"`` for a wild, so that meld checks compare
small integers instead of strings.
"""

from __future__ import annotations

from functools import lru_cache

SUITS = "MAYI"
WILD = "?"
WILD_RANK = 0
DECK_PREFIXES = "wbg"

Parsed = tuple[int, str]


class CardError(ValueError):
    """A string that is not a card or face of the ruleset's card set."""


@lru_cache(maxsize=4096)
def parse_face(face: str) -> Parsed:
    """Parse a face into ``(rank, suit)``; a wild is ``(0, "?")``.

    >>> parse_face("13I"), parse_face("?")
    ((13, 'I'), (0, '?'))
    """
    if not isinstance(face, str) or not face:
        raise CardError(f"not a face: {face!r}")
    if face == WILD:
        return (WILD_RANK, WILD)
    suit = face[-1]
    digits = face[:-1]
    # isascii: str.isdigit also accepts other scripts' digits, which int() would read.
    if suit not in SUITS or not (digits.isascii() and digits.isdigit()) or digits.startswith("0"):
        raise CardError(f"not a face: {face!r}")
    rank = int(digits)
    if not 1 <= rank <= 13:
        raise CardError(f"not a face: {face!r}")
    return (rank, suit)


def face_of(card_id: str) -> str:
    """The face a card id shows.

    >>> face_of("b13I")
    '13I'
    """
    return card_id[1:]


@lru_cache(maxsize=4096)
def parse_card(card_id: str) -> Parsed:
    """Parse a card id (deck prefix + face) into ``(rank, suit)``."""
    if not isinstance(card_id, str) or len(card_id) < 2 or card_id[0] not in DECK_PREFIXES:
        raise CardError(f"not a card id: {card_id!r}")
    return parse_face(card_id[1:])


def is_wild_card(card_id: str) -> bool:
    return card_id.endswith(WILD)


def make_deck(prefix: str) -> list[str]:
    """One 53-card deck: 4 letters x 13 numbers and one wild.

    >>> d = make_deck("w"); len(d), d[0], d[-1]
    (53, 'w1M', 'w?')
    """
    return [f"{prefix}{rank}{suit}" for suit in SUITS for rank in range(1, 14)] + [prefix + WILD]


def decks_for(players: int) -> int:
    """Two decks for 3-6 players, three for 7-8."""
    return 3 if players >= 7 else 2


def format_face(parsed: Parsed) -> str:
    rank, suit = parsed
    return WILD if rank == WILD_RANK else f"{rank}{suit}"


def notation(card_ids: list[str]) -> str:
    """Compact notation of a list of card ids, as used in errors and golden files.

    >>> notation(["w7M", "b7A", "w?"])
    'w7M b7A w?'
    """
    return " ".join(card_ids)


def parse_notation(text: str) -> list[list[str]]:
    """Parse ``"w7M b7A w? | 4I 5I 6I 7I"`` into groups of tokens split on ``|``.

    >>> parse_notation("w7M b7A | w4I")
    [['w7M', 'b7A'], ['w4I']]
    """
    return [group.split() for group in text.split("|")]
