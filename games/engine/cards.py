"""Card sets and their notation.

A *face* is what a card shows; a *card id* names one physical card: a deck (pack) prefix plus
its face. Every card id is unique in a game, and the prefix alone tells which card set a card
belongs to, so :func:`parse_card` needs no ruleset. Internally a face is parsed to
``(rank, suit)``, with rank ``0`` and suit ``"?"`` for every kind of wild, so that meld checks
compare small integers instead of strings.

Three card sets:

- ``bga``: letters ``M A Y I``, numbers ``1``..``13``, one wild ``?`` per deck. Faces ``7M``,
  ``13I``, ``?``; decks ``w``, ``b``, ``g``: ids ``w7M``, ``b?``, ``g13I``.
- ``standard`` (petras, classic): suits ``S H D C`` (drawn as ``♠ ♥ ♦ ♣``), ranks
  ``A 2 .. 10 J Q K`` and two jokers per pack, the red ``*R`` and the black ``*B``. Faces
  ``QH``, ``10S``, ``AC``, ``*R``; packs ``p q r s``: ids ``pQH``, ``q10S``, ``p*B``. The ace is
  rank 1; in a run it may also stand above the king (position 14): Q-K-A and A-2-3 are runs,
  K-A-2 is not.
- ``rook``: colours ``R G Y K`` (red, green, yellow, black), numbers ``1``..``14``, one Rook
  bird ``*`` per deck, and two blank wilds ``_`` in all (in the first two decks). Faces
  ``14R``, ``5K``, ``*``, ``_``; decks ``x y z``: ids ``x14R``, ``y*``, ``x_``.

:func:`face_data` gives what a page needs to draw a card (rank, suit, colour, wild, label).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

SUITS = "MAYI"
WILD = "?"
WILD_RANK = 0
DECK_PREFIXES = "wbg"

Parsed = tuple[int, str]
WILD_PARSED: Parsed = (WILD_RANK, WILD)


class CardError(ValueError):
    """A string that is not a card or face of the ruleset's card set."""


@dataclass(frozen=True, eq=False)  # identity hash: the sets are singletons
class CardSet:
    """One kind of card: its suits, ranks, wilds, notation and how a page draws it."""

    name: str
    suits: str
    ranks: int  # naturals are numbered 1..ranks
    ace_high: bool  # rank 1 may also stand above the top rank in a run (position ranks + 1)
    prefixes: str  # one per deck, in dealing order
    rank_tokens: tuple[str, ...]  # the face text of ranks 1..ranks
    wild_faces: tuple[str, ...]  # the wild faces of every deck
    extra_wilds: tuple[tuple[str, int], ...]  # (face, how many decks hold one): rook's blanks
    suit_symbols: dict[str, str]
    suit_colors: dict[str, str | None]
    wild_labels: dict[str, str]

    @property
    def top(self) -> int:
        """The highest position in a run (14 with an ace above the king)."""
        return self.ranks + (1 if self.ace_high else 0)

    def parse_face(self, face: str) -> Parsed:
        return _parse_face(self, face)

    def owns(self, card_id: object) -> bool:
        return isinstance(card_id, str) and card_id[:1] in self.prefixes and len(card_id) >= 2

    def make_deck(self, prefix: str) -> list[str]:
        index = self.prefixes.index(prefix)
        naturals = [f"{prefix}{tok}{s}" for s in self.suits for tok in self.rank_tokens]
        wilds = [prefix + w for w in self.wild_faces]
        wilds += [prefix + face for face, decks in self.extra_wilds if index < decks]
        return naturals + wilds

    def full_deck(self, decks: int) -> list[str]:
        return [c for p in self.prefixes[:decks] for c in self.make_deck(p)]

    def format(self, parsed: Parsed) -> str:
        rank, suit = parsed
        return WILD if rank == WILD_RANK else f"{self.rank_tokens[rank - 1]}{suit}"


BGA_CARDS = CardSet(
    name="bga",
    suits=SUITS,
    ranks=13,
    ace_high=False,
    prefixes=DECK_PREFIXES,
    rank_tokens=tuple(str(r) for r in range(1, 14)),
    wild_faces=(WILD,),
    extra_wilds=(),
    suit_symbols={s: s for s in SUITS},
    suit_colors={s: None for s in SUITS},
    wild_labels={WILD: "?"},
)
STANDARD_CARDS = CardSet(
    name="standard",
    suits="SHDC",
    ranks=13,
    ace_high=True,
    prefixes="pqrs",
    rank_tokens=("A", *(str(r) for r in range(2, 11)), "J", "Q", "K"),
    wild_faces=("*R", "*B"),
    extra_wilds=(),
    suit_symbols={"S": "♠", "H": "♥", "D": "♦", "C": "♣"},
    suit_colors={"S": "black", "H": "red", "D": "red", "C": "black"},
    wild_labels={"*R": "Joker", "*B": "Joker"},
)
ROOK_CARDS = CardSet(
    name="rook",
    suits="RGYK",
    ranks=14,
    ace_high=False,
    prefixes="xyz",
    rank_tokens=tuple(str(r) for r in range(1, 15)),
    wild_faces=("*",),
    extra_wilds=(("_", 2),),
    suit_symbols={"R": "red", "G": "green", "Y": "yellow", "K": "black"},
    suit_colors={"R": "red", "G": "green", "Y": "yellow", "K": "black"},
    wild_labels={"*": "Rook", "_": "Wild"},
)
CARD_SETS: dict[str, CardSet] = {c.name: c for c in (BGA_CARDS, STANDARD_CARDS, ROOK_CARDS)}
_BY_PREFIX: dict[str, CardSet] = {p: c for c in CARD_SETS.values() for p in c.prefixes}


@lru_cache(maxsize=8192)
def _parse_face(cs: CardSet, face: str) -> Parsed:
    if not isinstance(face, str) or not face:
        raise CardError(f"not a face: {face!r}")
    if face in cs.wild_faces or any(face == f for f, _ in cs.extra_wilds):
        return WILD_PARSED
    suit = face[-1]
    token = face[:-1]
    if suit not in cs.suits or token not in _RANK_OF[cs.name]:
        raise CardError(f"not a {cs.name} face: {face!r}")
    return (_RANK_OF[cs.name][token], suit)


_RANK_OF = {c.name: {t: i + 1 for i, t in enumerate(c.rank_tokens)} for c in CARD_SETS.values()}


def every_card_id() -> list[str]:
    """Every card id of every card set (each deck prefix's deck: 548).

    >>> len(every_card_id()), every_card_id()[0]
    (548, 'w1M')
    """
    return [c for cs in CARD_SETS.values() for p in cs.prefixes for c in cs.make_deck(p)]


def card_set_of(card_id: str) -> CardSet:
    """The card set a card id belongs to (by its deck prefix).

    >>> card_set_of("pQH").name, card_set_of("x14R").name
    ('standard', 'rook')
    """
    try:
        return _BY_PREFIX[card_id[0]]
    except (KeyError, IndexError, TypeError):
        raise CardError(f"not a card id: {card_id!r}") from None


def parse_face(face: str) -> Parsed:
    """Parse a ``bga`` face into ``(rank, suit)``; a wild is ``(0, "?")``.

    >>> parse_face("13I"), parse_face("?")
    ((13, 'I'), (0, '?'))
    """
    return _parse_face(BGA_CARDS, face)


def face_of(card_id: str) -> str:
    """The face a card id shows.

    >>> face_of("b13I"), face_of("p10S")
    ('13I', '10S')
    """
    return card_id[1:]


@lru_cache(maxsize=8192)
def parse_card(card_id: str) -> Parsed:
    """Parse a card id of any card set (deck prefix + face) into ``(rank, suit)``.

    >>> parse_card("w7M"), parse_card("pKH"), parse_card("pAS"), parse_card("y*")
    ((7, 'M'), (13, 'H'), (1, 'S'), (0, '?'))
    """
    if not isinstance(card_id, str) or len(card_id) < 2:
        raise CardError(f"not a card id: {card_id!r}")
    return _parse_face(card_set_of(card_id), card_id[1:])


def is_wild_card(card_id: str) -> bool:
    """Is this card id a wild (``?``, a joker, the Rook bird or a blank)?

    >>> is_wild_card("w?"), is_wild_card("p*R"), is_wild_card("x_"), is_wild_card("x7R")
    (True, True, True, False)
    """
    return parse_card(card_id)[0] == WILD_RANK


def make_deck(prefix: str) -> list[str]:
    """One deck of the card set the prefix names (53 cards for bga).

    >>> d = make_deck("w"); len(d), d[0], d[-1]
    (53, 'w1M', 'w?')
    >>> len(make_deck("p")), len(make_deck("x")), len(make_deck("z"))
    (54, 58, 57)
    """
    return _BY_PREFIX[prefix].make_deck(prefix)


def format_face(parsed: Parsed) -> str:
    rank, suit = parsed
    return WILD if rank == WILD_RANK else f"{rank}{suit}"


def face_data(card_id: str) -> dict:
    """What a page needs to draw a card (a fresh dict: views are handed out and changed).

    >>> face_data("pQH")
    {'rank': 12, 'suit': 'H', 'wild': False, 'label': 'Q♥', 'color': 'red'}
    >>> face_data("x*")["label"], face_data("w?")["wild"]
    ('Rook', True)
    """
    return dict(_face_data(card_id))


@lru_cache(maxsize=8192)
def _face_data(card_id: str) -> dict:
    cs = card_set_of(card_id)
    rank, suit = parse_card(card_id)
    face = card_id[1:]
    if rank == WILD_RANK:
        return {
            "rank": None,
            "suit": None,
            "wild": True,
            "label": cs.wild_labels[face],
            "color": None,
        }
    token = cs.rank_tokens[rank - 1]
    label = f"{token}{cs.suit_symbols[suit]}" if cs is STANDARD_CARDS else face
    return {
        "rank": rank,
        "suit": suit,
        "wild": False,
        "label": label,
        "color": cs.suit_colors[suit],
    }


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
