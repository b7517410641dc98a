"""docs/RULES.md sections 3 and 4.4: MAYI melds (before or after the draw, replacements, -10, going
out with one, nothing added to one, not part of the contract)."""

from __future__ import annotations

import pytest

from games.engine import hand_penalty, is_mayi

from .helpers import act, event, make_state, next_stock, refused, same, types

NOT_DOWN = "w4M w3A w6Y w5I w9M w9A w12I"


def test_a_mayi_meld_before_the_draw_with_four_replacements():
    st = make_state(hands={0: NOT_DOWN}, stock="b1M b2M b3M b4M b5M")
    st2, events = act(st, 0, "mayi_meld", cards="w4M w3A w6Y w5I")
    assert types(events) == ["mayi_meld", "replacements"]
    assert event(events, "mayi_meld")["score"] == -10
    assert same(st2["hands"][0], "w9M w9A w12I b1M b2M b3M b4M")
    assert next_stock(st2) == ["b5M"]
    assert st2["phase"] == "draw", "the draw is still to come"
    assert st2["mayi_count"] == [1, 0, 0]
    meld = st2["melds"][0]
    assert meld["kind"] == "mayi" and meld["owner"] == 0
    assert meld["cards"] == ["w3A", "w4M", "w5I", "w6Y"], "tabled in number order"
    assert not st2["down"][0], "a MAYI meld is not part of the contract"
    refused(st2, 0, ("discard", {"card": "w9M"}), "must_draw")
    act(st2, 0, "draw", source="stock")


def test_a_mayi_meld_after_the_draw():
    st = make_state(phase="play", hands={0: NOT_DOWN})
    st2, events = act(st, 0, "mayi_meld", cards="w4M w3A w6Y w5I")
    assert len(st2["hands"][0]) == len(st["hands"][0])
    assert st2["phase"] == "play"


def test_no_replacement_once_the_contract_is_down():
    st = make_state(
        phase="play",
        hands={0: "w7M w7A w7Y w7I w12I w13I"},
        melds={0: "b9M b9A b9Y | b2M b2A b2Y"},
    )
    stock_before = len(st["stock"])
    st2, events = act(st, 0, "mayi_meld", cards="w7M w7A w7Y w7I")
    assert types(events) == ["mayi_meld"]
    assert same(st2["hands"][0], "w12I w13I")
    assert len(st2["stock"]) == stock_before


def test_as_many_mayi_melds_as_one_can_make():
    st = make_state(phase="play", hands={0: "w1M w1A w1Y w1I w8M w9A w10Y w11I w12I"})
    st, _ = act(st, 0, "mayi_meld", cards="w1M w1A w1Y w1I")
    st, _ = act(st, 0, "mayi_meld", cards="w8M w9A w10Y w11I")
    assert st["mayi_count"][0] == 2 and len(st["hands"][0]) == 9


@pytest.mark.parametrize(
    "cards, ok",
    [
        ("w4M w3A w6Y w5I", True),  # consecutive, any order
        ("w7M w7A w7Y w7I", True),  # all one number
        ("w10M w11A w12Y w13I", True),
        ("w4M w3A w6Y w?", False),  # no wilds
        ("w4M w3A w6M w5I", False),  # two Ms
        ("w4M w3A w7Y w5I", False),  # not consecutive
        ("w7M w7A w7Y w8I", False),
        ("w4M w3A w6Y", False),  # exactly four
        ("w4M w3A w6Y w5I w7M", False),
        ("w12M w13A w1Y w2I", False),  # no wrap
    ],
)
def test_what_is_a_mayi_meld(cards, ok):
    hand = cards + " b12I b13I"
    st = make_state(phase="play", hands={0: hand})
    assert is_mayi([c[1:] for c in cards.split()]) is ok
    if ok:
        act(st, 0, "mayi_meld", cards=cards)
    else:
        refused(st, 0, ("mayi_meld", {"cards": cards}), "invalid_meld")


def test_mayi_meld_cards_must_be_in_hand_and_distinct():
    st = make_state(phase="play", hands={0: NOT_DOWN})
    refused(st, 0, ("mayi_meld", {"cards": "w4M w3A w6Y b5I"}), "card_not_in_hand")
    refused(st, 0, ("mayi_meld", {"cards": "w4M w3A w6Y w6Y"}), "duplicate_card")
    refused(st, 0, {"type": "mayi_meld"}, "bad_action")
    refused(st, 0, {"type": "mayi_meld", "cards": "w4M w3A w6Y w5I"}, "bad_action")


def test_mayi_meld_only_on_ones_own_turn():
    st = make_state(hands={1: NOT_DOWN})
    refused(st, 1, ("mayi_meld", {"cards": "w4M w3A w6Y w5I"}), "not_your_turn")


def test_mayi_meld_scores_minus_10_at_the_end_of_the_round():
    st = make_state(
        phase="play",
        hands={0: "w2M", 1: "w4M w3A w6Y w5I w13M", 2: "w1M"},
        melds={0: "b9M b9A b9Y | b2A b2Y b2I"},
        active=1,
    )
    st, _ = act(st, 1, "mayi_meld", cards="w4M w3A w6Y w5I")
    replacements = st["hands"][1][1:]
    st, _ = act(st, 1, "discard", card="w13M")
    st, _ = act(st, 2, "draw", source="discard")
    st, _ = act(st, 2, "discard", card="w1M")
    st, _ = act(st, 0, "draw", source="discard")
    st, _ = act(st, 0, "lay_off", card="w2M", meld="m2")
    st, events = act(st, 0, "discard", card="w1M")
    ended = event(events, "round_ended")
    assert ended["mayi_melds"] == [0, 1, 0]
    assert ended["scores"][1] == hand_penalty([c[1:] for c in replacements]) - 10
    assert ended["scores"][0] == 0 and ended["scores"][2] == 10


def test_going_out_by_a_mayi_meld():
    st = make_state(
        phase="play", hands={0: "w7M w7A w7Y w7I", 1: "w5M"}, melds={0: "b9M b9A b9Y | b2M b2A b2Y"}
    )
    st2, events = act(st, 0, "mayi_meld", cards="w7M w7A w7Y w7I")
    ended = event(events, "round_ended")
    assert ended["went_out"] == 0 and ended["scores"][0] == -10 and ended["scores"][1] == 5
    assert st2["round"] == 2 and st2["totals"][0] == -10


def test_going_out_by_a_mayi_meld_before_the_draw():
    st = make_state(hands={0: "w7M w7A w7Y w7I"}, melds={0: "b9M b9A b9Y | b2M b2A b2Y"})
    st2, events = act(st, 0, "mayi_meld", cards="w7M w7A w7Y w7I")
    assert event(events, "round_ended")["went_out"] == 0


def test_no_going_out_by_a_mayi_meld_before_the_contract_is_down():
    # Not down: four replacements come, so the hand is never empty.
    st = make_state(phase="play", hands={0: "w7M w7A w7Y w7I"})
    st2, events = act(st, 0, "mayi_meld", cards="w7M w7A w7Y w7I")
    assert "round_ended" not in types(events) and len(st2["hands"][0]) == 4


def test_a_four_of_a_kind_is_a_book_or_a_mayi_meld_by_the_action():
    hand = "w7M w7A w7Y w7I b9M b9A b9Y w12I"
    st = make_state(phase="play", hands={0: hand})
    as_book, _ = act(st, 0, "lay_down", melds="w7M w7A w7Y w7I | b9M b9A b9Y")
    assert [m["kind"] for m in as_book["melds"]] == ["book", "book"]
    as_mayi, _ = act(st, 0, "mayi_meld", cards="w7M w7A w7Y w7I")
    assert [m["kind"] for m in as_mayi["melds"]] == ["mayi"]


def test_nothing_may_be_added_to_a_mayi_meld():
    st = make_state(
        phase="play",
        hands={0: "b7M b? b8M w12I"},
        melds={0: "b9M b9A b9Y | b2M b2A b2Y"},
        mayi={1: "w7M w7A w7Y w7I", 2: "w3M w4A w5Y w6I"},
    )
    for card in ("b7M", "b?"):
        refused(st, 0, ("lay_off", {"card": card, "meld": "m3"}), "mayi_meld_closed")
    for card in ("b7M", "b?", "b8M"):
        for end in ("low", "high"):
            refused(
                st, 0, ("lay_off", {"card": card, "meld": "m4", "end": end}), "mayi_meld_closed"
            )


def test_the_bots_find_a_mayi_meld_exactly_when_the_hand_holds_one():
    """``mayi_candidates`` (what the bots and hints play) against a brute force over every four
    cards of the hand."""
    from itertools import combinations

    from games.engine.legal import mayi_candidates

    hands = [
        "w7M b7A w7Y w7I w2M",  # one number, four letters
        "w4M w3A w6Y w5I w9M",  # four numbers in a row
        "w4M w3A w6Y w5Y w9I",  # four in a row, but one letter twice
        "w4M w3A w6Y w8I w?",  # a gap: the wild may not fill a MAYI meld
        "w1M w2A w3Y w4I b4I",
        "w10M w11A w12Y w13I",
        "w7M w7A w7Y w8M w9A w12I",
        "w?",
        "",
    ]
    for text in hands:
        hand = text.split()
        brute = [list(c) for c in combinations(hand, 4) if is_mayi([card[1:] for card in c])]
        found = mayi_candidates(hand, first_only=True)
        assert bool(found) == bool(brute), text
        assert all(is_mayi([card[1:] for card in meld]) for meld in mayi_candidates(hand)), text
