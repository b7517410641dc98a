"""The contract solver, docs/RULES.md sections 2 and 4.2: split *all* submitted cards into exactly
the round's books and runs, or refuse.

Hands use the compact notation ``"7M 7A ? | 4I 5I 6I 7I"``: ``|`` separates melds for the
reader; the solver always gets the flattened, shuffled faces.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from games.engine.cards import parse_face
from games.engine.contract import (
    assign_ids,
    find_contract,
    solve_best,
    solve_exact,
)
from games.engine.melds import is_book, is_run
from games.engine.rulesets import BGA

SUITS = "MAYI"
CONTRACTS = {r: (BGA.contract(r).books, BGA.contract(r).runs) for r in range(1, 8)}
ROUND_OF = {shape: r for r, shape in CONTRACTS.items()}


def parse(text: str) -> list[list[str]]:
    """``"7M 7A ? | 4I 5I 6I 7I"`` -> ``[["7M", "7A", "?"], ["4I", "5I", "6I", "7I"]]``."""
    return [group.split() for group in text.split("|")]


def flat(text: str, seed: int = 0) -> list[str]:
    """All faces of a notation string, shuffled (the solver must not rely on the order)."""
    out = [f for group in parse(text) for f in group]
    random.Random(seed).shuffle(out)
    return out


def penalty(face: str) -> int:
    if face == "?":
        return 15
    rank = int(face[:-1])
    return 15 if rank == 10 else 10 if rank > 10 else rank


def assert_partition(faces: list[str], melds: list[list[str]] | None, books: int, runs: int):
    """``melds`` is exactly ``books`` books then ``runs`` runs, using exactly ``faces``."""
    assert melds is not None, f"no partition found for {' '.join(faces)}"
    assert len(melds) == books + runs, melds
    assert Counter(f for m in melds for f in m) == Counter(faces), melds
    for meld in melds[:books]:
        assert is_book(meld), (meld, melds)
    for meld in melds[books:]:
        assert is_run(meld), (meld, melds)


def plan_faces(plans) -> list[list[str]]:
    """Plans (kind, natural cells, wilds) as faces; cells are letter * 13 + number - 1."""
    return [[f"{c % 13 + 1}{SUITS[c // 13]}" for c in cells] + ["?"] * w for _, cells, w in plans]


# -- lay-downs that work, one or more per round -----------------------------------------

POSITIVE = [
    (1, "7M 7A 7Y | 9I 9A ?"),
    (1, "7M 7M 7M | 9I 9I 9I 9I"),  # duplicates
    (1, "1M 1A ? ? | 13I 13Y 13M 13A 13I ?"),  # long books, wilds == naturals in one
    (1, "7M 7A ? ? | 9I 9A 9Y ?"),  # wilds spread over both books
    (2, "7M 7A ? | 4I 5I 6I 7I"),
    (2, "7M 7A 7Y | 1M 2M 3M ?"),
    (2, "5M 5A 5Y | 10I 11I 12I 13I ? ?"),  # the wilds must go low: 8 9 10 11 12 13
    (2, "1A 1Y 1I | 1M 2M 3M 4M 5M 6M 7M 8M 9M 10M 11M 12M 13M"),  # a 13-card run
    (3, "1M 2M 3M 4M | 10A 11A 12A 13A"),
    (3, "3Y ? 5Y 6Y | 9Y 10Y ? 12Y 13Y"),  # two runs of one letter, wilds in the gaps
    (3, "1M 2M 3M 4M 5M 6M 7M 8M 9M 10M 11M 12M 13M | 1A 2A ? ?"),
    (4, "2M 2A 2Y | 5I 5I ? | 13M 13A 13Y 13I"),
    (4, "1M 1M ? | 1A 1A ? | 1Y 1I ?"),  # three books of one number, three wilds
    (5, "2M 2A ? | 8Y 8I 8M | 3A 4A 5A 6A 7A"),
    (5, "11M 11A 11Y 11I | 12M 12A ? ? | 1I 2I ? 4I"),
    (6, "12M 12A 12Y | 1I 2I 3I 4I | 6Y 7Y ? 9Y"),
    (6, "9M 9A ? | 1M 2M 3M ? | 10M 11M 12M 13M"),
    (7, "1M 2M 3M 4M | 5M 6M 7M 8M | 9M 10M 11M 12M"),
    (7, "1A 2A ? ? | 4Y ? 6Y 7Y ? | 10I 11I 12I 13I"),
    (7, "1M 2M 3M 4M 5M 6M 7M 8M 9M 10M 11M 12M 13M | 1A 2A 3A 4A | 10I 11I 12I 13I ? ? ?"),
]


@pytest.mark.parametrize(("round_no", "hand"), POSITIVE)
def test_contract_found(round_no: int, hand: str) -> None:
    books, runs = CONTRACTS[round_no]
    for seed in range(3):
        faces = flat(hand, seed)
        assert_partition(faces, find_contract(faces, round_no), books, runs)


def test_every_round_has_a_positive_case() -> None:
    assert {r for r, _ in POSITIVE} == set(CONTRACTS)


def test_doc_example_shape() -> None:
    assert find_contract(["7M", "7A", "7Y", "9I", "9A", "?"], 1) == [
        ["7M", "7A", "7Y"],
        ["9A", "9I", "?"],
    ]


def test_books_come_first_then_runs() -> None:
    melds = find_contract(flat("1A 2A 3A 4A | 9M 9A 9Y | 11Y 11I ?"), 5)
    assert melds is not None
    assert [is_book(m) for m in melds] == [True, True, False]


# -- lay-downs refused ------------------------------------------------------------------

NEGATIVE = [
    (1, "7M 7A 7Y | 9I 9A ? | 2Y", "an extra card that fits nowhere"),
    (1, "7M 7A 7Y | 9I 9A", "a card missing"),
    (1, "7M 7A | 9I 9A ?", "a card missing (only one wild for two pairs)"),
    (1, "7M ? ? | 9I 9A ?", "1 natural + 2 wilds"),
    (1, "7M 7A ? ? ? | 9I 9A ? ?", "more wilds than naturals"),
    (1, "4I 5I 6I 7I | 9M 9A 9Y", "a run where a book is due"),
    (1, "7M 7A 7Y", "one book short"),
    (1, "7M 7A 7Y | 8M 8A 8Y | 9M 9A 9Y", "a book too many"),
    (2, "7M 7A 7Y | 9M 9A 9Y", "two books, no run"),
    (2, "7M 7A 7Y | 12M 13M 1M 2M", "no wrap from 13 to 1"),
    (2, "7M 7A 7Y | 4I 5I 6I", "a 3-card run"),
    (2, "5A 5Y ? ? | 1M 2M 3M 4M 5M 6M 7M 8M 9M 10M 11M 12M 13M ? ? ?", "no 14-card run"),
    (2, "7A 7Y 7I | 3I ? ? ?", "a run with one natural (7I is too far to help)"),
    (3, "1M 2M 3M 4M | 7A 7Y 7I", "a book where a run is due"),
    (3, "1M 2M 3M | 5A 6A 7A 8A", "a short run"),
    (3, "1M 2M 3M 4M 5M 6M 7M", "one run, not two"),
    (3, "1M 2M 3M 4M | 6A 7A 9A 10A", "a hole and no wild"),
    (3, "1M 2M 5M 6M | 6A 7A 8A 9A ?", "a two-number hole, one wild"),
    (4, "2M 2A 2Y | 5I 5I ? | 13M 13A 13Y 13I 8M", "an extra card"),
    (4, "2M 2A 2Y | 5I 5I | 13M 13A 13Y 13I", "a 2-card book"),
    (4, "2M 2A 2Y | 5I 5I ? | 6I 7I 8I 9I", "a run where a book is due"),
    (5, "2M 2A ? | 8Y 8I 8M | 3A 4A 5A 6A 7A | 9M", "an extra card"),
    (5, "2M 2A ? | 8Y 8I 8M | 3A 4A 5Y 6A 7A", "a run of two letters"),
    (5, "2M ? ? | 8Y 8I 8M | 3A 4A 5A 6A 7A", "1 natural + 2 wilds"),
    (6, "12M 12A 12Y | 1I 2I 3I 4I | 6Y 7Y ? 10Y", "a two-number hole, one wild"),
    (6, "12M 12A 12Y | 1I 2I 3I 4I | 6Y 7Y 8Y", "a short run"),
    (6, "12M 12A 12Y | 11M 11A 11Y | 1I 2I 3I 4I", "two books, one run"),
    (7, "1M 2M 3M 4M | 5M 6M 7M 8M | 9M 10M 11M", "a short run"),
    (7, "1M 2M 3M 4M | 5M 6M 7M 8M | 9M 10M 11M 12M | 5A", "an extra card"),
    (7, "1M 2M 3M 4M | 5M 6M 7M 8M | 9A 9Y 9I", "a book where a run is due"),
    (7, "1M 2M 3M 4M 5M 6M 7M 8M 9M 10M 11M 12M 13M | 1A 2A | 1Y 2Y | ? ? ? ? ?", "no room"),
]


@pytest.mark.parametrize(("round_no", "hand", "why"), NEGATIVE)
def test_contract_refused(round_no: int, hand: str, why: str) -> None:
    for seed in range(3):
        assert find_contract(flat(hand, seed), round_no) is None, why


def test_every_round_has_a_negative_case() -> None:
    assert {r for r, _, _ in NEGATIVE} == set(CONTRACTS)


@pytest.mark.parametrize(
    ("round_no", "hand", "extra", "fits"),
    [
        (1, "7M 7A 7Y | 9I 9A ?", "7I", True),  # joins the 7s
        (1, "7M 7A 7Y | 9I 9A ?", "?", True),  # a second wild for the 9s or the 7s
        (1, "7M 7A 7Y | 9I 9A ?", "8I", False),
        (2, "7M 7A ? | 4I 5I 6I 7I", "8I", True),  # extends the run
        (2, "7M 7A ? | 4I 5I 6I 7I", "3I", True),
        (2, "7M 7A ? | 4I 5I 6I 7I", "8M", False),
        (2, "7M 7A ? | 4I 5I 6I 7I", "4I", False),  # a second 4I has no meld
        (3, "1M 2M 3M 4M | 1M 2M 3M 4M", "5M", True),
        (3, "1M 2M 3M 4M | 1M 2M 3M 4M", "1M", False),  # a third 1M needs a third run
    ],
)
def test_one_card_more(round_no: int, hand: str, extra: str, fits: bool) -> None:
    faces = [*flat(hand), extra]
    found = find_contract(faces, round_no)
    if fits:
        assert_partition(faces, found, *CONTRACTS[round_no])
    else:
        assert found is None


# -- decisions [D] ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("round_no", "hand"),
    [
        (1, "7M 7A 7Y | 7I 7M 7A"),
        (1, "7M 7A 7Y | 7I 7M ?"),
        (4, "7M 7A 7Y | 7I 7M 7A | 7Y 7I 7M"),
        (5, "7M 7A 7Y | 7I 7M ? | 7A 8A 9A 10A"),
        (6, "1Y 1A ? | 4M 5M 6M 7M | 4M 5M 6M 7M"),
    ],
)
def test_two_books_of_one_number_allowed(round_no: int, hand: str) -> None:
    """[D] Two books of the same number are separate melds if each is valid."""
    books, runs = CONTRACTS[round_no]
    faces = flat(hand)
    melds = find_contract(faces, round_no)
    assert_partition(faces, melds, books, runs)


@pytest.mark.parametrize(
    ("round_no", "hand"),
    [
        (3, "4M 5M 6M 7M | 4M 5M 6M 7M"),  # the same run twice
        (3, "1M 2M 3M 4M | 5M 6M 7M 8M"),  # one letter split in two
        (3, "1M 2M ? 4M | 3M 4M 5M 6M"),  # overlapping
        (6, "9A 9Y 9I | 1M 2M 3M 4M 5M | 5M 6M 7M 8M"),
        (7, "1M 2M 3M 4M | 5M 6M 7M 8M | 9M 10M 11M 12M"),
        (7, "1M 2M 3M 4M | 1M 2M 3M 4M | 1M 2M 3M 4M"),  # three decks
    ],
)
def test_two_runs_of_one_letter_allowed(round_no: int, hand: str) -> None:
    """[D] Two runs of the same letter are separate melds if each is valid."""
    books, runs = CONTRACTS[round_no]
    faces = flat(hand)
    assert_partition(faces, find_contract(faces, round_no), books, runs)


# -- greedy is wrong --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("round_no", "hand", "why"),
    [
        (2, "5M 5A 5Y | 5I 6I 7I 8I", "the 5I that looks like part of the book is the run's"),
        (5, "3M 3A 3Y | 8M 8A 8Y | 8I 9I 10I 11I", "the 8I goes to the run"),
        (6, "6M 6A 6Y | 4I 5I 6I 7I | 8I 9I 10I 11I", "6I splits a letter into two runs"),
        (2, "7M 7A ? | 4I 5I ? 7I", "one wild each, not both in the book"),
        (2, "7M 7A ? ? | 4I 5I 6I 7I", "the 7I belongs to the run, the wilds to the book"),
        (3, "1M 2M 3M 4M | 5M 6M 7M 8M", "the longest run first leaves nothing"),
        (3, "1M 2M 3M 4M 5M | 3M 4M 5M 6M", "runs overlap: 3M 4M 5M twice"),
        (7, "1M 2M 3M 4M 5M | 6M 7M 8M 9M | 10M 11M 12M 13M", "split a 13 in three"),
        (7, "2A 3A 4A 5A | 4A 5A 6A 7A | 6A 7A 8A 9A", "three overlapping runs"),
        (4, "9M 9A 9Y | 9I 9M 9A 9Y | 10M 10A ?", "the four 9s are not one book"),
        (5, "1Y 1A 1M | 2Y 2M 2A | 2I 3I 4I 5I", "the 2I goes to the run, not the 2s"),
        (2, "7A 7Y 7M ? ? | 1M 2M 3M 4M 5M 6M ? 8M 9M 10M 11M 12M 13M", "7M leaves the run"),
    ],
)
def test_greedy_fails_but_a_partition_exists(round_no: int, hand: str, why: str) -> None:
    books, runs = CONTRACTS[round_no]
    faces = flat(hand)
    assert_partition(faces, find_contract(faces, round_no), books, runs)


# -- inputs that are not lay-downs ------------------------------------------------------


@pytest.mark.parametrize(
    "faces",
    [["7M", "7A", "7X", "9I", "9A", "9Y"], ["7M", "7A", "7Y", "9I", "9A", "14Y"],
     ["w7M", "7A", "7Y", "9I", "9A", "9Y"], ["7M", "7A", "7Y", "9I", "9A", None],
     ["7M", "7A", "7Y", "9I", "9A", ["9Y"]], []],
)  # fmt: skip
def test_not_faces_find_nothing(faces: list) -> None:
    assert find_contract(faces, 1) is None


@pytest.mark.parametrize("round_no", [0, 8, -1, "1"])
def test_unknown_round_is_an_error(round_no) -> None:
    with pytest.raises(ValueError, match="no round"):
        find_contract(flat("7M 7A 7Y | 9I 9A ?"), round_no)


def test_solve_exact_plan_shape() -> None:
    cards = [parse_face(f) for f in flat("4I 5I 6I 7I | 7M 7A ?")]
    plans = solve_exact(cards, 1, 1)
    assert plans is not None
    assert [kind for kind, _, _ in plans] == ["book", "run"]
    for kind, cells, wilds in plans:
        assert kind in ("book", "run")
        assert isinstance(cells, tuple) and all(isinstance(c, int) for c in cells)
        assert isinstance(wilds, int)
    assert sorted(map(sorted, plan_faces(plans))) == sorted(
        map(sorted, [["7M", "7A", "?"], ["4I", "5I", "6I", "7I"]])
    )


def test_assign_ids_uses_each_card_once() -> None:
    ids = ["w7M", "b7M", "w7A", "w?", "b?", "w4I", "w5I", "w6I", "w8I"]
    cards = [parse_face(c[1:]) for c in ids]
    plans = solve_exact(cards, 1, 1)
    assert plans is not None
    groups = assign_ids(ids, plans)
    assert sorted(c for g in groups for c in g) == sorted(ids)
    assert [[c[1:] for c in g] for g in groups] == plan_faces(plans)


# -- a brute-force oracle ---------------------------------------------------------------


def _may_grow(block: list[str]) -> bool:
    """Could more cards still make this block a book or a run?"""
    naturals = [f for f in block if f != "?"]
    if not naturals:
        return True
    ranks = [f[:-1] for f in naturals]
    letters = {f[-1] for f in naturals}
    book_like = len(set(ranks)) == 1
    run_like = len(letters) == 1 and len(set(ranks)) == len(ranks) and len(block) <= 13
    return book_like or run_like


def oracle(faces: list[str], books: int, runs: int) -> bool:
    """Try every way to deal the cards into ``books + runs`` unlabelled melds."""
    k = books + runs
    blocks: list[list[str]] = [[] for _ in range(k)]

    def place(i: int, opened: int) -> bool:
        if i == len(faces):
            if opened < k:
                return False
            made = [("book" if is_book(b) else "run" if is_run(b) else None) for b in blocks]
            return made.count("book") == books and made.count("run") == runs
        for b in range(min(opened + 1, k)):
            blocks[b].append(faces[i])
            if _may_grow(blocks[b]) and place(i + 1, max(opened, b + 1)):
                blocks[b].pop()
                return True
            blocks[b].pop()
        return False

    return k > 0 and place(0, 0)


def test_oracle_agrees_with_the_hand_written_cases() -> None:
    for round_no, hand in POSITIVE:
        if sum(len(g) for g in parse(hand)) <= 10:
            assert oracle(flat(hand), *CONTRACTS[round_no]), hand
    for round_no, hand, _ in NEGATIVE:
        if sum(len(g) for g in parse(hand)) <= 10:
            assert not oracle(flat(hand), *CONTRACTS[round_no]), hand


SMALL_SHAPES = [(1, 0), (0, 1), (2, 0), (1, 1), (0, 2), (3, 0), (2, 1)]


@st.composite
def built_contract(draw, books: int, runs: int, max_cards: int, max_wilds: int = 6):
    """The faces of a valid contract made meld by meld (always feasible)."""
    faces: list[str] = []
    for _ in range(books):
        rank = draw(st.integers(1, 13))
        naturals = draw(st.lists(st.sampled_from(SUITS), min_size=2, max_size=4))
        wilds = draw(st.integers(1 if len(naturals) == 2 else 0, min(2, len(naturals))))
        faces += [f"{rank}{s}" for s in naturals] + ["?"] * wilds
    for _ in range(runs):
        suit = draw(st.sampled_from(SUITS))
        length = draw(st.integers(4, 7))
        start = draw(st.integers(1, 14 - length))
        holes = draw(st.sets(st.integers(0, length - 1), max_size=min(2, length // 2)))
        faces += ["?" if i in holes else f"{start + i}{suit}" for i in range(length)]
    assume(len(faces) <= max_cards and faces.count("?") <= max_wilds)
    assume(all(n <= 3 for f, n in Counter(faces).items() if f != "?"))
    return faces


@st.composite
def small_hand(draw):
    """(faces, books, runs): at most 10 cards, often near a valid contract."""
    books, runs = draw(st.sampled_from(SMALL_SHAPES))
    mode = draw(st.sampled_from(["narrow", "built", "near"]))
    if mode == "narrow":
        letters = draw(st.sampled_from(["M", "MA", "MAY", "MAYI"]))
        low = draw(st.integers(1, 10))
        width = draw(st.integers(2, 4))
        cells = [f"{r}{s}" for s in letters for r in range(low, min(13, low + width) + 1)]
        naturals = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=10))
        wilds = draw(st.integers(0, min(3, 10 - len(naturals))))
        faces = naturals + ["?"] * wilds
        assume(all(n <= 3 for n in Counter(naturals).values()))
    else:
        faces = draw(built_contract(books, runs, max_cards=10))
        if mode == "near":
            how = draw(st.sampled_from(["drop", "add", "change"]))
            i = draw(st.integers(0, len(faces) - 1))
            new = draw(st.sampled_from([f"{r}{s}" for s in SUITS for r in range(1, 14)] + ["?"]))
            if how == "drop":
                faces.pop(i)
            elif how == "add" and len(faces) < 10:
                faces.append(new)
            else:
                faces[i] = new
    shuffled = draw(st.permutations(faces))
    return list(shuffled), books, runs


def check_against_oracle(faces: list[str], books: int, runs: int) -> None:
    expected = oracle(faces, books, runs)
    event(f"feasible: {expected}")
    plans = solve_exact([parse_face(f) for f in faces], books, runs)
    assert (plans is not None) == expected, (faces, books, runs, plans)
    if plans is not None:
        assert_partition(faces, plan_faces(plans), books, runs)
    round_no = ROUND_OF.get((books, runs))
    if round_no is not None:
        melds = find_contract(faces, round_no)
        assert (melds is not None) == expected
        if melds is not None:
            assert_partition(faces, melds, books, runs)


ORACLE_SETTINGS = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@ORACLE_SETTINGS
@given(small_hand())
def test_solver_agrees_with_brute_force(case) -> None:
    check_against_oracle(*case)


@st.composite
def big_valid_hand(draw):
    round_no = draw(st.integers(1, 7))
    faces = draw(built_contract(*CONTRACTS[round_no], max_cards=24))
    return list(draw(st.permutations(faces))), round_no


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(big_valid_hand())
def test_every_built_contract_is_found(case) -> None:
    """Hands up to 24 cards built as a valid contract are never refused."""
    faces, round_no = case
    assert_partition(faces, find_contract(faces, round_no), *CONTRACTS[round_no])


# -- solve_best: the bots' subset mode --------------------------------------------------


def assert_sub_plan(faces: list[str], plans, books: int, runs: int) -> int:
    """The plan is a valid contract from a sub-multiset of ``faces``; returns its penalty."""
    melds = plan_faces(plans)
    assert len(melds) == books + runs
    used = Counter(f for m in melds for f in m)
    assert not used - Counter(faces), (faces, melds)
    for meld in melds[:books]:
        assert is_book(meld), melds
    for meld in melds[books:]:
        assert is_run(meld), melds
    return sum(penalty(f) * n for f, n in used.items())


def sub_multisets(faces: list[str]):
    counts = Counter(faces)
    items = sorted(counts)

    def rec(i: int):
        if i == len(items):
            yield []
            return
        for rest in rec(i + 1):
            for n in range(counts[items[i]] + 1):
                yield [items[i]] * n + rest

    yield from rec(0)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(small_hand())
def test_solve_best_is_the_best_subset(case) -> None:
    faces, books, runs = case
    assume(len(faces) <= 9)
    best = None
    for sub in sub_multisets(faces):
        if solve_exact([parse_face(f) for f in sub], books, runs) is not None:
            value = sum(penalty(f) for f in sub)
            best = value if best is None else max(best, value)
    plans = solve_best([parse_face(f) for f in faces], books, runs)
    if best is None:
        assert plans is None
    else:
        assert plans is not None
        assert assert_sub_plan(faces, plans, books, runs) == best


@st.composite
def bot_hand(draw):
    """A hand as a bot may hold it: a contract (maybe) plus some loose cards."""
    round_no = draw(st.integers(1, 7))
    books, runs = CONTRACTS[round_no]
    faces = draw(built_contract(books, runs, max_cards=18))
    loose = draw(
        st.lists(st.sampled_from([f"{r}{s}" for s in SUITS for r in range(1, 14)] + ["?"]),
                 max_size=6)
    )  # fmt: skip
    if draw(st.booleans()):
        faces = faces[: draw(st.integers(0, len(faces)))]
    hand = faces + loose
    assume(all(n <= 3 for f, n in Counter(hand).items() if f != "?"))
    return list(draw(st.permutations(hand))), round_no


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(bot_hand())
def test_solve_best_plans_are_valid(case) -> None:
    faces, round_no = case
    books, runs = CONTRACTS[round_no]
    cards = [parse_face(f) for f in faces]
    plans = solve_best(cards, books, runs)
    if plans is not None:
        assert_sub_plan(faces, plans, books, runs)
    if solve_exact(cards, books, runs) is not None:
        assert plans is not None
        laid = Counter(f for m in plan_faces(plans) for f in m)
        assert laid == Counter(faces), "a full partition exists, so all of it is laid down"


@pytest.mark.parametrize(("round_no", "hand"), POSITIVE)
def test_solve_best_lays_down_everything_when_it_can(round_no: int, hand: str) -> None:
    books, runs = CONTRACTS[round_no]
    faces = flat(hand)
    plans = solve_best([parse_face(f) for f in faces], books, runs)
    assert plans is not None
    assert assert_sub_plan(faces, plans, books, runs) == sum(penalty(f) for f in faces)


@pytest.mark.parametrize(
    ("round_no", "hand", "laid"),
    [
        (1, "7M 7A 7Y | 9I 9A ? | 2Y 3Y", "7M 7A 7Y | 9I 9A ?"),  # loose cards stay in hand
        (1, "7M 7A 7Y | 9I 9A | 10M 10A | ?", "7M 7A 7Y | 10M 10A ?"),  # 10s score most
        (2, "7M 7A ? | 4I 5I 6I 7I 9I | 1M", "7M 7A ? | 4I 5I 6I 7I"),
        (3, "1M 2M 3M 4M | 10A 11A 12A 13A | 5A", "1M 2M 3M 4M | 10A 11A 12A 13A"),
    ],
)
def test_solve_best_leaves_what_does_not_fit(round_no: int, hand: str, laid: str) -> None:
    books, runs = CONTRACTS[round_no]
    faces = flat(hand)
    plans = solve_best([parse_face(f) for f in faces], books, runs)
    assert plans is not None
    assert Counter(f for m in plan_faces(plans) for f in m) == Counter(flat(laid))


def test_solve_best_none_when_no_subset_works() -> None:
    faces = flat("7M 7A | 9I 9A | 2Y 3Y")
    assert solve_best([parse_face(f) for f in faces], 2, 0) is None
    assert solve_best([], 1, 1) is None
