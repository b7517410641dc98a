"""Standing orders: which cards "buy any card that completes a book or run" buys."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from games.engine.cards import CARD_SETS, CardSet, is_wild_card, parse_card
from games.engine.orders import completes_meld
from games.engine.rulesets import RULESETS
from games.engine.table import classify


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


@pytest.mark.parametrize(
    ("hand", "card", "expected"),
    [
        # rook: numbers run 1..14, so 11-12-13 + 14 is a run, as is 14 bought for 12-13 + 11.
        (["x11R", "y12R", "x13R"], "z14R", True),
        (["x12G", "x13G", "y14G"], "x11G", True),
        (["x12G", "x13G", "y14G"], "x10G", False),  # a gap
        (["x12G", "x13G", "y14G"], "x11K", False),  # another colour
        (["x13Y", "y14Y", "x1Y"], "x2Y", False),  # no wrap-around
        (["x14K", "y14R"], "z14G", True),  # a book of 14s
        (["x11R", "x_", "x13R"], "z14R", False),  # the blank in hand is a wild: never counted
        (["x11R", "x*", "x13R"], "z14R", False),  # and so is the Rook bird
        (["x12R", "x13R", "y14R"], "y*", True),  # a wild bought below 12-13-14
        (["x12R", "x13R", "y14R"], "x_", True),
        # standard packs: the ace stands below the 2 or above the king.
        (["pQH", "pKH", "qJH"], "qAH", True),  # J Q K + A
        (["pQH", "pKH", "qAH"], "q10H", False),  # 10 .. A is five: no run of 4
        (["pQH", "pKH", "qAH"], "rJH", True),  # J + Q K A
        (["p2S", "p3S", "q4S"], "rAS", True),  # A + 2 3 4
        (["pAS", "p2S", "q3S"], "r4S", True),  # A 2 3 + 4
        (["pKS", "pAS", "q2S"], "r3S", False),  # K-A-2 is no run
        (["pKS", "pAS", "q2S", "pJS"], "rQS", True),  # J Q K A (2 left over)
        (["pQC", "pKC", "qAC"], "p*R", True),  # a joker completes Q K A
        (["pAD", "qAD"], "rAD", True),  # a book of aces
        (["pQH", "p*B", "qAH"], "qKH", False),  # the joker in hand never counts
        (["pQH", "pKH", "qAH"], "qJD", False),
        # classic uses the same cards.
        (["s10C", "rJC", "qQC"], "pKC", True),
    ],
)
def test_completes_meld_other_card_sets(hand: list[str], card: str, expected: bool) -> None:
    assert completes_meld(hand, card) is expected


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_card_set_given_or_taken_from_the_card(ruleset: str) -> None:
    # standing_answer may pass the table's card set; it must agree with the card's own.
    cs = RULESETS[ruleset].cards
    deck = cs.make_deck(cs.prefixes[0])
    top_four = [c for c in deck if parse_card(c)[1] == cs.suits[0]][-4:]
    hand, card = top_four[:3], top_four[3]
    assert completes_meld(hand, card, cs) is completes_meld(hand, card) is True


def _naturals_complete(hand: list[str], card: str) -> bool:
    """The slow truth, from the engine's own meld validator: some 2 (book) or 3 (run) naturals
    of the hand make, with the card, a valid book of 3 or run of 4."""
    naturals = [c for c in hand if not is_wild_card(c)]
    for size, kind in ((2, "book"), (3, "run")):
        for group in combinations(naturals, size):
            found = classify([card, *group])
            if found is not None and found[0] == kind:
                return True
    return False


def _deals(cs: CardSet):
    deck = cs.full_deck(2)
    return hs.lists(hs.sampled_from(deck), min_size=0, max_size=14, unique=True).flatmap(
        lambda hand: hs.tuples(hs.just(hand), hs.sampled_from([c for c in deck if c not in hand]))
    )


# One suit's worth of cards makes runs likely enough to hit both answers often.
def _one_suit_deals(cs: CardSet):
    suit = cs.suits[0]
    deck = [c for c in cs.full_deck(2) if is_wild_card(c) or parse_card(c)[1] == suit]
    return hs.lists(hs.sampled_from(deck), min_size=0, max_size=8, unique=True).flatmap(
        lambda hand: hs.tuples(hs.just(hand), hs.sampled_from([c for c in deck if c not in hand]))
    )


@pytest.mark.parametrize("name", sorted(CARD_SETS))
@settings(deadline=None, max_examples=300)
@given(data=hs.data())
def test_completes_meld_agrees_with_the_meld_validator(name: str, data: hs.DataObject) -> None:
    cs = CARD_SETS[name]
    hand, card = data.draw(hs.one_of(_deals(cs), _one_suit_deals(cs)))
    says = completes_meld(hand, card)
    assert says is _naturals_complete(hand, card), (hand, card)
    if says:
        assert completes_meld([*hand, *(c for c in cs.full_deck(2) if is_wild_card(c))], card)


def test_an_answer_by_standing_order_says_so_to_its_seat_only() -> None:
    from games.engine import apply
    from games.engine.public import public_events

    from .helpers import make_state

    st = make_state(players=4, hands={0: "3M 4A 5Y 9I 8M 9A"}, discard="w1M w13Y")
    early = {"type": "no_thanks", "standing_order": True}
    st, events = apply(st, 2, early)  # early, before seat 0 draws
    assert events == [
        {
            "type": "answered",
            "seat": 2,
            "answer": "no_thanks",
            "card": "w13Y",
            "standing_order": True,
        }
    ]
    assert public_events(events, 2) == events
    for seat in (0, 1, 3, None):
        assert public_events(events, seat) == [
            {"type": "answered", "seat": 2, "answer": "no_thanks", "card": "w13Y"}
        ]
    st, _ = apply(st, 0, {"type": "draw", "source": "stock"})
    _, events = apply(st, 1, {"type": "may_i", "standing_order": True})  # in the open window
    assert (
        events[0]["standing_order"] is True and "standing_order" not in public_events(events, 0)[0]
    )
    # An answer of the seat's own carries no flag.
    _, events = apply(st, 1, {"type": "may_i"})
    assert "standing_order" not in events[0]
