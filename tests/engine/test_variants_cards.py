"""Section 9, row "cards": the three card sets, their notation, face data, meld rules and the
contract solver on each (high aces, 14-number Rook runs, four books)."""

from __future__ import annotations

import pytest

from games.engine import find_contract, is_book, is_run, new_game, view
from games.engine.cards import (
    BGA_CARDS,
    ROOK_CARDS,
    STANDARD_CARDS,
    CardError,
    card_set_of,
    face_data,
    parse_card,
)
from games.engine.contract import assign_ids, solve_best, solve_exact
from games.engine.rulesets import RULESETS
from games.engine.table import classify, layoff_ends


def ids(text: str) -> list[str]:
    return text.split()


def test_bga_deck_is_unchanged():
    deck = BGA_CARDS.full_deck(2)
    assert len(deck) == 106 and len(set(deck)) == 106
    assert sum(1 for c in deck if c.endswith("?")) == 2


def test_standard_pack_has_52_cards_and_two_jokers():
    pack = STANDARD_CARDS.make_deck("p")
    assert len(pack) == 54 and len(set(pack)) == 54
    assert {c for c in pack if parse_card(c)[0] == 0} == {"p*R", "p*B"}
    assert {"pAS", "p10H", "pJD", "pQC", "pKS"} <= set(pack)


def test_rook_decks_have_14_numbers_a_bird_each_and_two_blanks_in_all():
    three = ROOK_CARDS.full_deck(3)
    assert len(three) == 3 * 57 + 2
    assert len(set(three)) == len(three)
    wilds = sorted(c for c in three if parse_card(c)[0] == 0)
    assert wilds == ["x*", "x_", "y*", "y_", "z*"]
    assert parse_card("x14K") == (14, "K")


@pytest.mark.parametrize(
    "card_id", ["p1S", "pAX", "p11H", "pKH1", "x15R", "x0R", "xAR", "w14M", "p?", "x?", "w*R"]
)
def test_ids_outside_a_card_set_are_refused(card_id):
    with pytest.raises(CardError):
        parse_card(card_id)


def test_card_ids_name_their_card_set():
    assert card_set_of("w7M") is BGA_CARDS
    assert card_set_of("s10D") is STANDARD_CARDS
    assert card_set_of("z*") is ROOK_CARDS


def test_face_data_for_pages():
    assert face_data("pQH") == {
        "rank": 12,
        "suit": "H",
        "wild": False,
        "label": "Q♥",
        "color": "red",
    }
    assert face_data("q10S")["label"] == "10♠"
    assert face_data("pAC")["label"] == "A♣"
    assert face_data("p*B") == {
        "rank": None,
        "suit": None,
        "wild": True,
        "label": "Joker",
        "color": None,
    }
    assert face_data("x14G")["color"] == "green" and face_data("x14G")["label"] == "14G"
    assert face_data("y_")["wild"] and face_data("x*")["label"] == "Rook"
    assert face_data("w7M")["label"] == "7M"


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_view_carries_face_data_for_every_card_it_shows(ruleset):
    st = new_game(4, "faces", ruleset)
    for seat in [0, 1, None]:
        v = view(st, seat)
        shown = set(v["hand"] or []) | {v["discard_top"]}
        assert shown <= set(v["faces"])
        assert all(v["faces"][c] == face_data(c) for c in v["faces"])
        others = {c for s, h in enumerate(st["hands"]) if s != seat for c in h}
        assert not (others - shown) & set(v["faces"])  # no hidden card sneaks in
    assert view(st, 0)["card_set"] == RULESETS[ruleset].cards.name


# -- melds with standard cards: ace low or high, no wrap --------------------------------------
@pytest.mark.parametrize(
    "group, ok",
    [
        ("pQH pKH pAH pJH", True),
        ("pAH p2H p3H p4H", True),
        ("pKH pAH p2H p3H", False),
        ("pQH pKH pAH p*R", True),  # the joker is the jack
        ("pAH p2H p3H p4H p5H p6H p7H p8H p9H p10H pJH pQH pKH qAH", True),  # 14, an ace each end
        ("pAH qAH p2H p3H", False),
        ("pAS qAH rAD", True),  # a book of aces
    ],
)
def test_standard_runs_take_the_ace_low_or_high_without_wrapping(group, ok):
    assert (classify(ids(group)) is not None) is ok


def test_a_high_ace_run_is_laid_in_order_and_takes_a_wild_above_the_king_only_as_the_ace():
    kind, fields = classify(ids("pAH pQH pKH pJH"))
    assert kind == "run" and fields["start"] == 11
    assert fields["cards"] == ids("pJH pQH pKH pAH")
    meld = {"kind": "run", **fields}
    assert layoff_ends(meld, "p*R") == ["low"]  # nothing above the ace
    assert layoff_ends(meld, "p10H") == ["low"]
    kind, fields = classify(ids("p10H pJH pQH pKH"))
    assert layoff_ends({"kind": "run", **fields}, "qAH") == ["high"]
    assert layoff_ends({"kind": "run", **fields}, "p*R") == ["high", "low"]


def test_the_bga_meld_checks_stay_bga():
    assert not is_run(["12M", "13M", "1M", "2M"])
    assert not is_book(["QH", "QS", "QD"])
    assert find_contract(["QH", "QS", "QD", "KH", "KS", "KD"], 1) is None


# -- the solver on each card set ----------------------------------------------------------
def solve(cs, text, books, runs):
    hand = ids(text)
    plans = solve_exact([parse_card(c) for c in hand], books, runs, cs)
    return None if plans is None else assign_ids(hand, plans)


def test_solver_finds_high_ace_runs():
    found = solve(STANDARD_CARDS, "pJH pQH pKH pAH p2S p3S p4S pAS", 0, 2)
    assert found is not None
    assert sorted(map(sorted, found)) == sorted(
        [sorted(ids("pJH pQH pKH pAH")), sorted(ids("pAS p2S p3S p4S"))]
    )
    assert solve(STANDARD_CARDS, "pKH pAH p2H p3H", 0, 1) is None  # no wrap


def test_solver_uses_two_aces_of_a_suit_one_at_each_end():
    hand = "pAH p2H p3H p4H p5H p6H p7H p8H p9H p10H pJH pQH pKH qAH"
    assert solve(STANDARD_CARDS, hand, 0, 1) is not None
    assert solve(STANDARD_CARDS, "pAH qAH rAH p*R pQD pKD p*B pJD", 0, 1) is None


def test_solver_keeps_a_book_of_aces_whole():
    found = solve(STANDARD_CARDS, "pAS qAH rAD pKH pQH pJH p10H", 1, 1)
    assert found is not None


def test_solver_handles_rook_runs_up_to_14_and_four_books():
    assert solve(ROOK_CARDS, "x11R x12R x13R x14R x1G x2G x3G x4G x8Y x9Y x10Y x*", 0, 3)
    assert solve(ROOK_CARDS, "x5R y5G x5Y x9K y9K x9G x14R x14G x*  x2R x2G x_", 4, 0)
    assert solve(ROOK_CARDS, "x12R x13R x14R x*", 0, 1) is not None
    assert solve(ROOK_CARDS, "x13R x14R x* y*", 0, 1) is not None  # wilds go low: 11-14


def test_solve_best_with_standard_cards_lays_down_a_subset():
    hand = ids("pQH pKH pAH pJH p3C p9D")
    plans = solve_best([parse_card(c) for c in hand], 0, 1, STANDARD_CARDS)
    assert plans is not None
    assert sorted(assign_ids(hand, plans)[0]) == sorted(ids("pQH pKH pAH pJH"))
