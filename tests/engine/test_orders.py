"""Standing orders: which cards "buy any card that completes a book or run" buys."""

from __future__ import annotations

import pytest

from games.engine.orders import completes_meld


@pytest.mark.parametrize(
    ("hand", "card", "expected"),
    [
        # A book of 3: two of the number in hand.
        (["w7M", "b7A"], "g7Y", True),
        (["w7M", "b8A"], "g7Y", False),
        # Wilds in hand never count: the order buys only what naturals complete.
        (["w7M", "w?"], "g7Y", False),
        (["w?", "b?"], "g7Y", False),
        # A run of 4 of the card's letter, with the card anywhere in it.
        (["w4M", "w5M", "w6M"], "b7M", True),
        (["w4M", "w5M", "w6M"], "b3M", True),
        (["w4M", "w6M", "w7M"], "b5M", True),
        (["w4M", "w5M", "w6M"], "b8M", False),  # a gap
        (["w4M", "w5M", "w6M"], "b7A", False),  # another letter
        (["w4M", "w5M", "w5M"], "b6M", False),  # 4 5 5 6 is no run
        (["w11I", "w12I", "w13I"], "b10I", True),
        (["w12I", "w13I", "w1I"], "b2I", False),  # no wrap-around under bga
        # A wild card completes a pair, or three of a letter with one gap in four.
        (["w9A", "b9Y"], "w?", True),
        (["w3M", "w4M", "w6M"], "b?", True),
        (["w3M", "w4M", "w8M"], "b?", False),
        ([], "w5M", False),
        (["w5M"], "not a card", False),
    ],
)
def test_completes_meld(hand: list[str], card: str, expected: bool) -> None:
    assert completes_meld(hand, card) is expected
