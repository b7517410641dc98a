"""The hand grouped into the round's melds (games.engine.grouping), for the page's melds sort."""

from __future__ import annotations

import pytest

from games.engine import apply, choose_action, hand_melds, new_game, seats_to_act
from games.engine.table import classify

from .helpers import make_state


def _groups(st, seat=0):
    return [(g["kind"], g["cards"]) for g in hand_melds(st, seat)]


def test_a_card_that_looks_like_part_of_a_book_goes_to_the_run_that_needs_it():
    # Four 5s, but 5I is the run's lowest card: round 2 is a book and a run.
    st = make_state(round=2, hands={0: "w5M w5A w5Y w5I w6I w7I w8I w12Y w3M"})
    assert _groups(st) == [
        ("book", ["w5M", "w5A", "w5Y"]),
        ("run", ["w5I", "w6I", "w7I", "w8I"]),
    ]


def test_the_most_melds_of_the_contract_come_first_even_when_it_is_not_complete():
    # Round 5 is 2 books + 1 run: one book and one run are there; the wild fills the run's gap.
    st = make_state(round=5, hands={0: "w7M w7A w7Y w4I w6I w7I w? w9A w12M w2Y"})
    groups = _groups(st)
    assert [k for k, _ in groups] == ["book", "run"]
    assert groups[0][1] == ["w7M", "w7A", "w7Y"]
    assert groups[1][1] == ["w4I", "w?", "w6I", "w7I"]  # in order, the wild standing for 5


def test_only_the_contract_s_melds_a_third_book_stays_in_the_rest():
    st = make_state(round=1, hands={0: "w3M w3A w3Y w8M w8A w8I w11M w11A w11Y"})
    groups = _groups(st)
    assert [k for k, _ in groups] == ["book", "book"]
    assert len({c for _, g in groups for c in g}) == 6


def test_every_group_is_a_real_meld_of_cards_in_the_hand():
    st = make_state(round=3, hands={0: "w1M w2M w3M w4M w5M w9A w10A w? w12A w6Y w6I"})
    hand = st["hands"][0]
    seen: list[str] = []
    for kind, cards in _groups(st):
        assert classify(cards)[0] == kind == "run"
        seen += cards
    assert len(seen) == len(set(seen)) and set(seen) <= set(hand)
    assert len(_groups(st)) == 2


def test_nothing_once_the_contract_is_down_and_nothing_from_another_hand():
    st = make_state(
        round=1,
        active=0,
        phase="play",
        hands={0: "w7M w7A w7Y w9M w9A w9I w2Y", 1: "b4I b4M b4A"},
    )
    assert _groups(st, 1) == [("book", ["b4M", "b4A", "b4I"])]  # its own hand, M A Y I order
    groups = _groups(st)
    st, _ = apply(st, 0, {"type": "lay_down", "melds": [g for _, g in groups]})
    assert hand_melds(st, 0) == []


def test_rook_round_7_groups_for_the_contract_the_hand_is_nearer():
    # Rook's round 7 takes 3 runs or 4 books (option "choice"): these cards make 3 books.
    st = make_state(
        round=7,
        ruleset="rook",
        hands={0: "5R 5G 5K 8R 8G 8Y 11R 11G 11K 1R 2G 3K"},
    )
    assert [k for k, _ in _groups(st)] == ["book", "book", "book"]


@pytest.mark.parametrize("ruleset", ["bga", "petras", "classic", "rook"])
def test_through_bot_games_every_group_is_a_meld_of_the_seat_s_own_cards(ruleset):
    st = new_game(4, f"grouping-{ruleset}", ruleset)
    for _ in range(120):
        if st["game_over"]:
            break
        for seat in range(4):
            seen: list[str] = []
            for g in hand_melds(st, seat):
                found = classify(g["cards"])
                assert found is not None and found[0] == g["kind"]
                seen += g["cards"]
            assert len(seen) == len(set(seen)) and set(seen) <= set(st["hands"][seat])
        acting = seats_to_act(st)
        if acting:
            st, _ = apply(st, acting[0], choose_action(st, acting[0]))
        else:
            st, _ = apply(st, None, {"type": "close_window"})


def test_remembered_groupings_are_the_search_s_own_and_not_shared_between_callers():
    from games.engine.cards import BGA_CARDS
    from games.engine.grouping import _meld_groups, meld_groups

    hands = [
        *new_game(4, "grouping-memo")["hands"],
        ["w5M", "w5A", "w5Y", "w5I", "w6I", "w7I", "w8I", "w12Y"],
    ]
    assert meld_groups(hands[-1], 2, 1, BGA_CARDS), "a hand with melds is among them"
    for seat, hand in enumerate(hands):
        fresh = _meld_groups.__wrapped__(tuple(hand), 2, 1, BGA_CARDS)
        first = meld_groups(hand, 2, 1, BGA_CARDS)
        assert first == [(kind, list(group)) for kind, group in fresh], seat
        for _, group in first:
            group.append("w1M")  # a caller changing its answer changes no later answer
        assert meld_groups(hand, 2, 1, BGA_CARDS) == [(k, list(g)) for k, g in fresh]
