"""Refusals in players' words: card faces, never card ids, seat numbers or meld ids.

An :class:`IllegalMove` message is shown to the player as it is, so it names cards by what
they show (``7M``, ``Q♥``, ``Joker``, ``14G``, ``Rook``: the ``label`` of
:func:`games.engine.cards.face_data`) and melds by their kind and cards. The ``code`` stays
the stable part for programs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import CardError, CardSet, face_data, parse_card
from .contract import solve_exact
from .rulesets import Contract

# What a suit is called in each card set (the rules pages use the same words).
SUIT_WORDS = {"bga": "letter", "standard": "suit", "rook": "colour"}


def faces(card_ids: Iterable[str]) -> str:
    """The cards as a player sees them, in the given order.

    >>> faces(["w7M", "b7A", "w?"]), faces(["pQH", "p*R"]), faces(["x14G", "x*", "x_"])
    ('7M 7A ?', 'Q♥ Joker', '14G Rook Wild')
    """
    shown = []
    for card in card_ids:
        try:
            shown.append(face_data(card)["label"])
        except (CardError, KeyError, TypeError, IndexError):
            shown.append("a card that is not in this game")
    return " ".join(shown)


def meld_words(meld: dict) -> str:
    """ "the run 4I 5I ? 7I", "the book 7M 7A 7Y", "the MAYI meld 8M 8A 8Y 8I".

    >>> meld_words({"kind": "run", "cards": ["w4I", "w5I", "w?", "w7I"]})
    'the run 4I 5I ? 7I'
    """
    kind = {"mayi": "MAYI meld"}.get(meld.get("kind", ""), meld.get("kind", "meld"))
    return f"the {kind} {faces(meld.get('cards', []))}"


def suit_word(cs: CardSet) -> str:
    return SUIT_WORDS.get(cs.name, "suit")


def _is_are(cards: Sequence[str]) -> str:
    return "is" if len(cards) == 1 else "are"


def _missing(books: int, runs: int, cs: CardSet) -> str:
    parts = []
    if books == 1:
        parts.append("a book of 3 or more of one number")
    elif books > 1:
        parts.append(f"{books} books of 3 or more of one number")
    if runs == 1:
        parts.append(f"a run of 4 or more in one {suit_word(cs)}")
    elif runs > 1:
        parts.append(f"{runs} runs of 4 or more, each in one {suit_word(cs)}")
    return " and ".join(parts)


def no_contract(
    cards: Sequence[str], choices: Sequence[Contract], round_no: int, cs: CardSet
) -> str:
    """Why the selected cards do not make the round's contract, in faces.

    >>> from games.engine.rulesets import BGA, Contract
    >>> no_contract(["w7M", "w7A", "w?"], [Contract(1, 1)], 2, BGA.cards)
    '7M 7A ? is one book; round 2 also needs a run of 4 or more in one letter'
    >>> no_contract(["w7M", "w8A", "w2Y"], [Contract(2, 0)], 1, BGA.cards)
    '7M 8A 2Y: round 1 needs 2 books, at least 6 cards'
    """
    shown = faces(cards)
    parsed = [parse_card(c) for c in cards]
    wanted = " or ".join(c.describe() for c in choices)
    # The cards make a part of the contract: say which, and what is still missing.
    for contract in choices:
        for books in range(contract.books, -1, -1):
            for runs in range(contract.runs, -1, -1):
                if (books, runs) in ((0, 0), (contract.books, contract.runs)):
                    continue
                if solve_exact(parsed, books, runs, cs) is not None:
                    made = Contract(books, runs).describe()
                    made = {"1 book": "one book", "1 run": "one run"}.get(made, made)
                    return (
                        f"{shown} {'is' if books + runs == 1 else 'are'} {made}; round {round_no} "
                        f"also needs {_missing(contract.books - books, contract.runs - runs, cs)}"
                    )
    least = min(3 * c.books + 4 * c.runs for c in choices)
    if len(cards) < least:
        return f"{shown}: round {round_no} needs {wanted}, at least {least} cards"
    wilds = sum(1 for p in parsed if p[0] == 0)
    if wilds * 2 > len(cards):
        return (
            f"{shown}: too many wilds; every meld needs at least 2 natural cards and no more "
            "wilds than naturals"
        )
    kinds = []
    if any(c.books for c in choices):
        kinds.append("a book is 3 or more of one number")
    if any(c.runs for c in choices):
        kinds.append(f"a run is 4 or more in a row in one {suit_word(cs)}")
    return f"{shown} {_is_are(cards)} not {wanted} using every card: {', '.join(kinds)}"
