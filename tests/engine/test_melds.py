"""Meld rules, docs/RULES.md section 3: books, runs, wild limits and placement, MAYI melds.

Hands are written in face notation, one meld per string: ``"7M 7A ?"``.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import parse_face
from games.engine.melds import (
    book_rank,
    is_book,
    is_mayi,
    is_run,
    mayi_ok,
    order_run,
    run_layout,
    wild_limit_ok,
)

SUITS = "MAYI"


def faces(text: str) -> list[str]:
    return text.split()


def parsed(text: str) -> list[tuple[int, str]]:
    return [parse_face(f) for f in faces(text)]


# -- wild limits -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("naturals", "wilds", "ok"),
    [(2, 0, True), (2, 1, True), (2, 2, True), (3, 3, True), (1, 0, False), (1, 1, False),
     (2, 3, False), (3, 4, False), (0, 3, False)],
)  # fmt: skip
def test_wild_limit(naturals: int, wilds: int, ok: bool) -> None:
    assert wild_limit_ok(naturals, wilds) is ok


# -- books -----------------------------------------------------------------------------

GOOD_BOOKS = [
    "7M 7A 7Y",  # three letters
    "7M 7A 7Y 7I",  # all four letters
    "7M 7M 7A",  # duplicates allowed
    "7M 7M 7M",  # three copies of one face (three decks)
    "7M 7M 7A 7A 7Y 7Y 7I 7I",  # long, duplicated
    "7M 7A ?",  # 2 naturals + 1 wild
    "7M 7A ? ?",  # wilds == naturals
    "7M 7A 7Y ? ? ?",
    "? 7M 7A",  # any order
    "1M 1A 1I",
    "13I 13I 13Y",
]

BAD_BOOKS = [
    "",
    "7M",
    "7M 7A",  # too short
    "7M ?",  # too short even with a wild
    "7M ? ?",  # 1 natural + 2 wilds
    "7M ? ? ?",
    "7M 7A ? ? ?",  # wilds outnumber naturals
    "7M 7A 7Y ? ? ? ?",
    "? ? ?",  # no natural at all
    "7M 7A 8Y",  # mixed numbers
    "7M 8M ?",
    "7M 7A 7Y 8Y",
    "4M 5M 6M 7M",  # a run is no book
]


@pytest.mark.parametrize("meld", GOOD_BOOKS)
def test_book_allowed(meld: str) -> None:
    assert is_book(faces(meld))
    assert book_rank(parsed(meld)) == int(next(f for f in faces(meld) if f != "?")[:-1])


@pytest.mark.parametrize("meld", BAD_BOOKS)
def test_book_refused(meld: str) -> None:
    assert not is_book(faces(meld))
    assert book_rank(parsed(meld)) is None


def test_book_one_natural_two_wilds_refused_two_naturals_one_wild_allowed() -> None:
    assert is_book(faces("9Y 9I ?"))
    assert not is_book(faces("9Y ? ?"))


# -- runs ------------------------------------------------------------------------------

GOOD_RUNS = [
    "4M 5M 6M 7M",
    "7M 4M 6M 5M",  # any order
    "1M 2M 3M 4M",  # 1 is low
    "10I 11I 12I 13I",
    "1A 2A 3A 4A 5A 6A 7A 8A 9A 10A 11A 12A 13A",  # 13 cards, the longest
    "4M 5M ? 7M",  # a wild fills a gap
    "4M ? ? 7M",  # two gaps, 2 naturals + 2 wilds
    "4M 5M ? ?",  # wilds on an end
    "12M 13M ? ?",  # wilds go low when the high end is full
    "4M 6M 8M ? ? ?",  # 3 naturals + 3 wilds
    "1M 2M 3M 4M 5M 6M 7M 8M 9M 10M 11M 12M ?",  # 13 cards with a wild at 13
    "2M 3M 4M 5M 6M 7M 8M 9M 10M 11M 12M 13M ?",  # 13 cards with a wild at 1
]

BAD_RUNS = [
    "",
    "4M 5M 6M",  # too short
    "4M 5M ?",
    "4M 5M 6A 7M",  # mixed letters
    "4M 5M 6M 8M",  # a hole and no wild
    "4M 4M 5M 6M 7M",  # a number twice
    "4M 5M 5M 6M",
    "11M 12M 13M 1M",  # 1 is low only: no wrap
    "12M 13M 1M 2M",
    "13M 1M ? ?",
    "4M ? ? ?",  # 1 natural + 3 wilds
    "4M 5M ? ? ?",  # wilds outnumber naturals
    "? ? ? ?",
    "4M 5M 9M ? ?",  # the hole needs 3 wilds, only 2
    "1M 2M 3M 4M 5M 6M 7M 8M 9M 10M 11M 12M 13M ?",  # 14 cards
    "1M 2M 3M 4M 5M 6M 7M 8M 9M 10M 11M ? ? ?",  # 14 cards
    "7M 7A 7Y 7I",  # a book is no run
]


@pytest.mark.parametrize("meld", GOOD_RUNS)
def test_run_allowed(meld: str) -> None:
    assert is_run(faces(meld))


@pytest.mark.parametrize("meld", BAD_RUNS)
def test_run_refused(meld: str) -> None:
    assert not is_run(faces(meld))
    assert run_layout(parsed(meld)) is None


def test_run_ace_low_only() -> None:
    assert is_run(faces("1M 2M 3M 4M"))
    assert not is_run(faces("12M 13M 1M 2M"))
    assert not is_run(faces("13M 1M 2M 3M"))


def test_run_at_most_13_cards() -> None:
    thirteen = [f"{r}Y" for r in range(1, 14)]
    assert is_run(thirteen)
    assert not is_run([*thirteen, "?"])
    assert not is_run([*thirteen[:12], "?", "?"])  # 14 cards


# -- wild placement [D]: inner gaps first, then the high end, then the low end -------------


@pytest.mark.parametrize(
    ("meld", "layout"),
    [
        ("4M 5M 6M 7M", ("M", 4)),
        ("12M 13M ? ?", ("M", 10)),  # high end full: both wilds go low
        ("11M 12M ? ?", ("M", 10)),  # one high (13), then one low (10)
        ("4M 5M ? ?", ("M", 4)),  # high end first: 4 5 ? ?
        ("4M ? 6M ?", ("M", 4)),  # the gap (5) first, then high (7)
        ("4M 6M ? ?", ("M", 4)),  # 4 ? 6 ?
        ("4M 7M ? ?", ("M", 4)),  # both wilds fill the gap
        ("1A 2A 3A ?", ("A", 1)),
        ("10I 11I 12I 13I ?", ("I", 9)),  # nothing above 13: low
        ("2Y 3Y 4Y 5Y 6Y 7Y 8Y 9Y 10Y 11Y 12Y ? ?", ("Y", 1)),  # one high, one low
        ("3Y 4Y ? ? ?", None),  # too many wilds
    ],
)
def test_run_layout(meld: str, layout: tuple[str, int] | None) -> None:
    assert run_layout(parsed(meld)) == layout


def test_run_layout_keeps_naturals_inside_the_limits() -> None:
    # Rook's 14 is no card of a 1-13 run; with the right limits the same run is valid.
    cards = [(11, "M"), (12, "M"), (13, "M"), (14, "M")]
    assert run_layout(cards) is None
    assert run_layout(cards, high=14) == ("M", 11)
    assert run_layout([(0, "?"), (1, "M"), (2, "M"), (3, "M")], low=2) is None


def test_order_run_places_wilds_where_the_layout_says() -> None:
    cards = [("w13M", (13, "M")), ("w?", (0, "?")), ("w12M", (12, "M")), ("b?", (0, "?"))]
    ordered = order_run(cards, "M", 10)
    assert ordered[2:] == ["w12M", "w13M"]
    assert sorted(ordered[:2]) == ["b?", "w?"]
    inner = [("w4M", (4, "M")), ("w?", (0, "?")), ("w6M", (6, "M")), ("b?", (0, "?"))]
    ordered = order_run(inner, "M", 4)
    assert ordered[0] == "w4M" and ordered[2] == "w6M"


def _layout_oracle(cards: list[tuple[int, str]]) -> tuple[str, int] | None:
    """A run by definition: some start keeps every natural on its own number in the run; of
    the starts that work, the highest is the [D] placement (gaps, then high end, then low)."""
    naturals = [c for c in cards if c[0] != 0]
    wilds = len(cards) - len(naturals)
    n = len(cards)
    if n < 4 or len(naturals) < 2 or wilds > len(naturals):
        return None
    if len({s for _, s in naturals}) != 1 or len({r for r, _ in naturals}) != len(naturals):
        return None
    starts = [s for s in range(1, 14 - n + 1) if all(s <= r <= s + n - 1 for r, _ in naturals)]
    return (naturals[0][1], max(starts)) if starts else None


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.integers(1, 13), min_size=0, max_size=8),
    st.lists(st.sampled_from("MA"), min_size=8, max_size=8),
    st.integers(0, 5),
)
def test_run_layout_matches_definition(ranks: list[int], suits: list[str], wilds: int) -> None:
    cards = [(r, s) for r, s in zip(ranks, suits, strict=False)] + [(0, "?")] * wilds
    assert run_layout(cards) == _layout_oracle(cards)
    assert is_run([f"{r}{s}" if r else "?" for r, s in cards]) == (
        _layout_oracle(cards) is not None
    )


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 13),
    st.lists(st.sampled_from(SUITS), min_size=0, max_size=7),
    st.integers(0, 8),
    st.randoms(use_true_random=False),
)
def test_book_matches_definition(rank: int, suits: list[str], wilds: int, rnd) -> None:
    cards = [f"{rank}{s}" for s in suits] + ["?"] * wilds
    rnd.shuffle(cards)
    naturals = len(suits)
    expected = len(cards) >= 3 and naturals >= 2 and wilds <= naturals
    assert is_book(cards) is expected


# -- MAYI melds ------------------------------------------------------------------------

GOOD_MAYI = [
    "7M 7A 7Y 7I",  # all one number
    "7I 7Y 7A 7M",
    "4M 3A 6Y 5I",  # four consecutive numbers, any order
    "1M 2A 3Y 4I",
    "10I 11Y 12A 13M",
]

BAD_MAYI = [
    "7M 7A 7Y ?",  # no wilds
    "4M 3A ? 5I",
    "7M 7M 7Y 7I",  # one of each letter
    "7M 7A 7Y",  # exactly four
    "7M 7A 7Y 7I 7M",
    "4M 5A 6Y 8I",  # not consecutive
    "4M 4A 5Y 6I",  # neither one number nor four in a row
    "12M 13A 1Y 2I",  # no wrap
    "4M 5M 6M 7M",  # a run, not a MAYI meld
    "",
]


@pytest.mark.parametrize("meld", GOOD_MAYI)
def test_mayi_allowed(meld: str) -> None:
    assert is_mayi(faces(meld))
    assert mayi_ok(parsed(meld))


@pytest.mark.parametrize("meld", BAD_MAYI)
def test_mayi_refused(meld: str) -> None:
    assert not is_mayi(faces(meld))


def test_mayi_every_arrangement_of_letters() -> None:
    for letters in itertools.permutations(SUITS):
        assert is_mayi([f"{5 + i}{s}" for i, s in enumerate(letters)])
        assert is_mayi([f"9{s}" for s in letters])


def test_same_number_four_letters_is_both_book_and_mayi() -> None:
    """[D] 7M 7A 7Y 7I is both a book and a MAYI meld; the action decides."""
    hand = faces("7M 7A 7Y 7I")
    assert is_book(hand)
    assert is_mayi(hand)
    assert not is_run(hand)


def test_consecutive_mayi_is_neither_book_nor_run() -> None:
    hand = faces("4M 3A 6Y 5I")
    assert is_mayi(hand)
    assert not is_book(hand)
    assert not is_run(hand)


# -- garbage in ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad", [["7X", "7A", "7Y"], ["14M", "14A", "14Y"], ["0M", "0A", "0Y"], ["07M", "7A", "7Y"],
            ["M7", "7A", "7Y"], ["", "7A", "7Y"], ["7m", "7A", "7Y"], [None, "7A", "7Y"],
            [7, "7A", "7Y"], [["7M"], "7A", "7Y"]],
)  # fmt: skip
def test_not_faces_are_no_melds(bad: list) -> None:
    assert not is_book(bad)
    assert not is_run([*bad, "8A"])
    assert not is_mayi([*bad, "7I"])
