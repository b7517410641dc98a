"""docs/RULES.md section 4: a turn. Draw, lay down the contract, lay off, discard, going out."""

from __future__ import annotations

import pytest

from games.engine.public import public_event
from games.engine.rulesets import BGA

from .helpers import act, event, make_state, meld_with, next_stock, refused, same, top, types


# -- 1. draw exactly one card --------------------------------------------------------------
def test_draw_from_stock_takes_the_top_card():
    st = make_state(active=1, hands={1: "3M 4A 5Y 6I 8M 9A"}, stock="w12I w2A")
    new, events = act(st, 1, "draw", source="stock")
    assert new["hands"][1][-1] == "w12I"
    assert next_stock(new) == ["w2A"]
    assert new["phase"] == "play"
    assert types(events)[0] == "drew"
    # The event is the whole truth; its public form keeps the card for the drawer.
    assert events[0]["card"] == "w12I"
    assert "card" not in public_event(events[0], 0), "the drawn stock card is no public field"


def test_draw_from_discard_takes_the_top_card_and_opens_no_window():
    st = make_state(hands={0: "3M 4A 5Y 6I 8M 9A"}, discard="w1M w13Y")
    new, events = act(st, 0, "draw", source="discard")
    assert "w13Y" in new["hands"][0]
    assert new["discard"] == ["w1M"]
    assert new["phase"] == "play" and new["window"] is None
    assert types(events) == ["drew"]


def test_only_one_draw_per_turn():
    st = make_state(phase="play", hands={0: "3M 4A 5Y 6I 8M 9A 10M"})
    refused(st, 0, ("draw", {"source": "stock"}), "wrong_phase")
    refused(st, 0, ("draw", {"source": "discard"}), "wrong_phase")


@pytest.mark.parametrize("source", [None, "deck", "", 1, ["stock"]])
def test_draw_needs_a_known_source(source):
    st = make_state()
    refused(st, 0, {"type": "draw", "source": source}, "bad_action")


def test_draw_from_an_empty_discard_pile_is_refused():
    st = make_state(discard="")
    refused(st, 0, ("draw", {"source": "discard"}), "empty_discard")


def test_only_the_active_seat_draws():
    st = make_state(active=2)
    for seat in (0, 1):
        refused(st, seat, ("draw", {"source": "stock"}), "not_your_turn")


@pytest.mark.parametrize(
    "action",
    [
        ("lay_down", {"cards": "w7M w7A w7Y w9I w9A w9Y"}),
        ("lay_down", {"melds": "w7M w7A w7Y | w9I w9A w9Y"}),
        ("lay_off", {"card": "w2M", "meld": "m1"}),
        ("discard", {"card": "w2M"}),
        ("pass", {}),
    ],
)
def test_nothing_but_a_mayi_meld_before_the_draw(action):
    st = make_state(hands={0: "w7M w7A w7Y w9I w9A w9Y w2M"}, melds={1: "2A 2Y 2I"})
    refused(st, 0, action, "must_draw")
    st_down = make_state(hands={0: "w7M w2M"}, melds={0: "9A 9Y 9I | 7A 7Y 7I", 1: "2A 2Y 2I"})
    if action[0] != "lay_down":
        refused(st_down, 0, action, "must_draw")


# -- 2. lay down the contract ----------------------------------------------------------------
def test_lay_down_cards_form_engine_finds_the_melds():
    st = make_state(phase="play", hands={0: "w7M w9I w7A w? w9A w7Y w2M"})
    new, events = act(st, 0, "lay_down", cards="w7M w9I w7A w? w9A w7Y")
    assert new["down"][0] and new["hands"][0] == ["w2M"]
    tabled = event(events, "laid_down")["melds"]
    assert [m["kind"] for m in tabled] == ["book", "book"]
    assert same([c for m in tabled for c in m["cards"]], "w7M w9I w7A w? w9A w7Y")
    assert all(m["owner"] == 0 for m in new["melds"])
    assert new["phase"] == "play", "laying down does not end the turn"


def test_lay_down_melds_form_is_checked_as_grouped():
    hand = "w7M w7A w8Y w8M w8A w7Y w2M"
    st = make_state(phase="play", hands={0: hand})
    # The same six cards make two books, but not grouped like this.
    refused(st, 0, ("lay_down", {"melds": "w7M w7A w8Y | w8M w8A w7Y"}), "invalid_meld")
    new, _ = act(st, 0, "lay_down", melds="w7M w7A w7Y | w8M w8A w8Y")
    assert [m["cards"] for m in new["melds"]] == [["w7M", "w7A", "w7Y"], ["w8M", "w8A", "w8Y"]]
    new2, _ = act(st, 0, "lay_down", cards="w7M w7A w8Y w8M w8A w7Y")
    assert len(new2["melds"]) == 2


def test_lay_down_only_once_per_round():
    st = make_state(
        phase="play", hands={0: "w3M w3A w3Y w5M w5A w5Y w2M"}, melds={0: "7M 7A 7Y | 9I 9A 9Y"}
    )
    refused(st, 0, ("lay_down", {"cards": "w3M w3A w3Y w5M w5A w5Y"}), "already_down")
    refused(st, 0, ("lay_down", {"melds": "w3M w3A w3Y | w5M w5A w5Y"}), "already_down")


def test_lay_down_must_be_exactly_the_contract():
    # Round 2 is 1 book + 1 run: two books are refused, and three melds are refused.
    st = make_state(round=2, phase="play", hands={0: "w7M w7A w7Y w9I w9A w9Y w4I w5I w6I w7I w2M"})
    refused(st, 0, ("lay_down", {"melds": "w7M w7A w7Y | w9I w9A w9Y"}), "wrong_contract")
    refused(
        st,
        0,
        ("lay_down", {"melds": "w7M w7A w7Y | w9I w9A w9Y | w4I w5I w6I w7I"}),
        "wrong_contract",
    )
    refused(st, 0, ("lay_down", {"cards": "w7M w7A w7Y w9I w9A w9Y"}), "no_contract")
    new, _ = act(st, 0, "lay_down", melds="w7M w7A w7Y | w4I w5I w6I w7I")
    assert [m["kind"] for m in new["melds"]] == ["book", "run"]


def test_lay_down_uses_every_submitted_card():
    st = make_state(phase="play", hands={0: "w7M w7A w7Y w9I w9A w9Y w2M"})
    refused(st, 0, ("lay_down", {"cards": "w7M w7A w7Y w9I w9A w9Y w2M"}), "no_contract")
    refused(st, 0, ("lay_down", {"melds": "w7M w7A w7Y w2M | w9I w9A w9Y"}), "invalid_meld")


def test_lay_down_longer_melds_are_fine():
    st = make_state(
        round=2, phase="play", hands={0: "w7M w7A w7Y w7I b7M w3I w4I w5I w6I w? w8I w2M"}
    )
    new, _ = act(st, 0, "lay_down", cards="w7M w7A w7Y w7I b7M w3I w4I w5I w6I w? w8I")
    assert sorted(len(m["cards"]) for m in new["melds"]) == [5, 6]
    assert new["hands"][0] == ["w2M"]


def test_two_books_of_the_same_number_are_two_melds():
    st = make_state(phase="play", hands={0: "w7M w7A w7Y w7I b7M b7A w2M"})
    new, _ = act(st, 0, "lay_down", cards="w7M w7A w7Y w7I b7M b7A")
    assert [m["rank"] for m in new["melds"]] == [7, 7]
    new, _ = act(st, 0, "lay_down", melds="w7M w7A w7Y | w7I b7M b7A")
    assert [len(m["cards"]) for m in new["melds"]] == [3, 3]


def test_two_runs_of_the_same_letter_are_two_melds():
    st = make_state(round=3, phase="play", hands={0: "1M 2M 3M 4M 6M 7M 8M 9M 12A"})
    new, _ = act(st, 0, "lay_down", cards="w1M w2M w3M w4M w6M w7M w8M w9M")
    assert [(m["suit"], m["start"]) for m in new["melds"]] in (
        [("M", 1), ("M", 6)],
        [("M", 6), ("M", 1)],
    )


@pytest.mark.parametrize(
    "group, start, order",
    [
        ("w4M w? w6M w7M", 4, "w4M w? w6M w7M"),  # an inner gap first
        ("w7M w? w4M w6M", 4, "w4M w? w6M w7M"),
        ("w4M w5M w6M w?", 4, "w4M w5M w6M w?"),  # then the high end
        ("w? w5M w6M w7M", 5, "w5M w6M w7M w?"),  # the player did not say: high end
        ("w11M w12M w13M w?", 10, "w? w11M w12M w13M"),  # then the low end
        ("w12M w? w13M b?", 10, "w? b? w12M w13M"),
        ("w1M w? w3M b?", 1, "w1M w? w3M b?"),
    ],
)
def test_lay_down_places_the_wilds_of_a_run_by_the_rule(group, start, order):
    st = make_state(round=2, phase="play", hands={0: f"b9A b9Y b9I {group} w2A"})
    for form in ("cards", "melds"):
        value = f"b9A b9Y b9I {group}" if form == "cards" else f"b9A b9Y b9I | {group}"
        new, _ = act(st, 0, "lay_down", **{form: value})
        run = next(m for m in new["melds"] if m["kind"] == "run")
        # Which physical wild goes where does not matter: compare faces.
        assert run["start"] == start
        assert [c[1:] for c in run["cards"]] == [c[1:] for c in order.split()]


def test_a_tabled_wild_is_fixed():
    # The wild stands for 6Y: the natural 6Y can neither replace it nor be added.
    st = _down_state(hands={0: "b6Y w12I"}, melds=[(0, "w7M w7A b7Y"), (1, "w5Y w? w7Y w8Y")])
    refused(st, 0, ("lay_off", {"card": "b6Y", "meld": "m2"}), "does_not_fit")


def test_lay_down_respects_the_wild_limits():
    st = make_state(phase="play", hands={0: "w7M w? b? w9I w9A w9Y w2M"})
    refused(st, 0, ("lay_down", {"melds": "w7M w? b? | w9I w9A w9Y"}), "invalid_meld")
    refused(st, 0, ("lay_down", {"cards": "w7M w? b? w9I w9A w9Y"}), "no_contract")


def test_lay_down_with_cards_not_in_hand_or_twice_is_refused():
    st = make_state(phase="play", hands={0: "w7M w7A w7Y w9I w9A w9Y w2M"})
    refused(st, 0, ("lay_down", {"cards": "w7M w7A b7Y w9I w9A w9Y"}), "card_not_in_hand")
    refused(st, 0, ("lay_down", {"cards": "w7M w7A w7A w9I w9A w9Y"}), "duplicate_card")
    refused(st, 0, ("lay_down", {"melds": "w7M w7A w7Y | w9I w9A w7Y"}), "duplicate_card")
    refused(st, 0, ("lay_down", {"melds": "w7M w7A w7Y | w9I w9A b9Y"}), "card_not_in_hand")


def test_lay_down_needs_exactly_one_of_cards_or_melds():
    st = make_state(phase="play", hands={0: "w7M w7A w7Y w9I w9A w9Y w2M"})
    refused(st, 0, {"type": "lay_down"}, "bad_action")
    both = {"type": "lay_down", "cards": ["w7M"], "melds": [["w7M"]]}
    refused(st, 0, both, "bad_action")
    refused(st, 0, {"type": "lay_down", "melds": []}, "bad_action")
    refused(st, 0, {"type": "lay_down", "cards": []}, "bad_action")


# One valid lay-down per round (in the cards form and as grouped), for the whole contract table.
CONTRACT_HANDS = {
    1: "7M 7A 7Y | 9I 9A ?",
    2: "7M 7A 7Y | 3I 4I 5I 6I",
    3: "3I 4I 5I 6I | 9M 10M ? 12M",
    4: "7M 7A 7Y | 9I 9A ? | 2M 2A 2Y",
    5: "7M 7A 7Y | 9I 9A ? | 3I 4I 5I 6I",
    6: "7M 7A 7Y | 3I 4I 5I 6I | 9M 10M ? 12M",
    7: "3I 4I 5I 6I | 9M 10M ? 12M | 1A 2A 3A 4A 5A",
}


@pytest.mark.parametrize("round_no", range(1, 8))
def test_each_round_contract(round_no):
    want = BGA.contract(round_no)
    st = make_state(round=round_no, phase="play", hands={0: CONTRACT_HANDS[round_no] + " 13Y 13M"})
    hand_ids = st["hands"][0][:-2]
    new, events = act(st, 0, "lay_down", cards=hand_ids)
    kinds = [m["kind"] for m in new["melds"]]
    assert kinds.count("book") == want.books and kinds.count("run") == want.runs
    assert same(new["hands"][0], st["hands"][0][-2:])
    # As grouped too; and another round's contract is refused with the same cards.
    grouped = []
    for g in CONTRACT_HANDS[round_no].split("|"):
        grouped.append(hand_ids[: len(g.split())])
        hand_ids = hand_ids[len(g.split()) :]
    act(st, 0, "lay_down", melds=grouped)
    other = 3 if round_no != 3 else 1
    other_st = make_state(
        round=other, phase="play", hands={0: CONTRACT_HANDS[round_no] + " 13Y 13M"}
    )
    if BGA.contract(other) != want:
        refused(other_st, 0, ("lay_down", {"melds": grouped}), "wrong_contract")


# -- 3. lay off ----------------------------------------------------------------------------
def _down_state(**kw):
    """Seat 0 down (m1: 7s, m2: run 4I-7I), seat 1 down (m3: 9s, m4: run 5Y-8Y), seat 2 a MAYI
    meld (m5); seat 0 to play with the given hand."""
    defaults = dict(
        round=2,
        phase="play",
        melds=[(0, "w7M w7A b7Y | w4I w5I w6I w7I"), (1, "w9M w9A w9Y | w5Y w6Y w7Y w8Y")],
        mayi={2: "w2M w2A w2Y w2I"},
    )
    defaults.update(kw)
    return make_state(**defaults)


def test_lay_off_needs_the_contract_down():
    st = _down_state(hands={0: "b7M b3I w12I"}, down={1})
    refused(st, 0, ("lay_off", {"card": "b7M", "meld": "m1"}), "contract_not_down")


def test_lay_off_on_the_same_turn_as_the_lay_down():
    st = make_state(phase="play", hands={0: "w7M w7A w7Y w9I w9A w9Y b7M w2M"})
    new, _ = act(st, 0, "lay_down", cards="w7M w7A w7Y w9I w9A w9Y")
    assert new["laid_down_this_turn"]
    book = meld_with(new, "w7M")
    new, events = act(new, 0, "lay_off", card="b7M", meld=book["id"])
    assert "b7M" in meld_with(new, "w7M")["cards"]
    assert types(events) == ["laid_off"]


def test_lay_off_on_own_and_other_players_books():
    st = _down_state(hands={0: "b7M b9M w? w12I"})
    new, _ = act(st, 0, "lay_off", card="b7M", meld="m1")
    new, _ = act(new, 0, "lay_off", card="b9M", meld="m3")
    new, _ = act(new, 0, "lay_off", card="w?", meld="m3")
    assert new["melds"][0]["cards"][-1] == "b7M"
    assert new["melds"][2]["cards"][-2:] == ["b9M", "w?"]
    assert new["melds"][2]["owner"] == 1, "a lay-off does not change a meld's owner"
    assert new["hands"][0] == ["w12I"]


def test_lay_off_a_wrong_number_on_a_book_is_refused():
    st = _down_state(hands={0: "b8M w12I"})
    refused(st, 0, ("lay_off", {"card": "b8M", "meld": "m1"}), "does_not_fit")


def test_lay_off_at_either_end_of_a_run():
    st = _down_state(hands={0: "b3I b8I b4Y b9Y w12I"})
    new, events = act(st, 0, "lay_off", card="b3I", meld="m2")
    assert event(events, "laid_off")["end"] == "low"
    new, events = act(new, 0, "lay_off", card="b8I", meld="m2", end="high")
    assert event(events, "laid_off")["end"] == "high"
    assert new["melds"][1]["cards"] == ["b3I", "w4I", "w5I", "w6I", "w7I", "b8I"]
    assert new["melds"][1]["start"] == 3
    new, _ = act(new, 0, "lay_off", card="b4Y", meld="m4", end="low")
    new, _ = act(new, 0, "lay_off", card="b9Y", meld="m4")
    assert new["melds"][3]["cards"] == ["b4Y", "w5Y", "w6Y", "w7Y", "w8Y", "b9Y"]


def test_lay_off_refused_on_the_wrong_end_letter_or_number():
    st = _down_state(hands={0: "b3I b8I b8M b6I w12I"})
    refused(st, 0, ("lay_off", {"card": "b3I", "meld": "m2", "end": "high"}), "does_not_fit")
    refused(st, 0, ("lay_off", {"card": "b8I", "meld": "m2", "end": "low"}), "does_not_fit")
    refused(st, 0, ("lay_off", {"card": "b8M", "meld": "m2"}), "does_not_fit")
    refused(st, 0, ("lay_off", {"card": "b6I", "meld": "m2"}), "does_not_fit")
    refused(st, 0, ("lay_off", {"card": "b3I", "meld": "m2", "end": "middle"}), "bad_action")


def test_a_wild_goes_to_the_high_end_first_then_the_low_end():
    st = _down_state(hands={0: "w? b? w12I"})
    new, events = act(st, 0, "lay_off", card="w?", meld="m2")
    assert event(events, "laid_off")["end"] == "high"
    assert new["melds"][1]["cards"][-1] == "w?" and new["melds"][1]["start"] == 4
    new, events = act(new, 0, "lay_off", card="b?", meld="m2", end="low")
    assert new["melds"][1]["cards"][0] == "b?" and new["melds"][1]["start"] == 3


def test_a_wild_goes_low_when_the_run_ends_at_13():
    st = make_state(
        round=2,
        phase="play",
        hands={0: "w? w12I"},
        melds={0: "7M 7A 7Y | 10I 11I 12I 13I"},
    )
    refused(st, 0, ("lay_off", {"card": "w?", "meld": "m2", "end": "high"}), "does_not_fit")
    new, events = act(st, 0, "lay_off", card="w?", meld="m2")
    assert event(events, "laid_off")["end"] == "low"
    assert new["melds"][1]["start"] == 9 and new["melds"][1]["cards"][0] == "w?"


def test_a_tabled_run_remembers_the_number_of_each_wild():
    # Wild at the low end of 5Y-8Y stands for 4Y: then 3Y fits below it, 4Y fits nowhere.
    st = _down_state(hands={0: "w? b3Y b4Y w12I"})
    new, _ = act(st, 0, "lay_off", card="w?", meld="m4", end="low")
    refused(new, 0, ("lay_off", {"card": "b4Y", "meld": "m4"}), "does_not_fit")
    new, _ = act(new, 0, "lay_off", card="b3Y", meld="m4")
    assert new["melds"][3]["cards"][:2] == ["b3Y", "w?"] and new["melds"][3]["start"] == 3


def test_a_run_never_wraps_and_stops_at_13_cards():
    st = make_state(
        round=2,
        phase="play",
        hands={0: "b13M b1M w? b12I"},
        melds={0: "7M 7A 7Y | 1I 2I 3I 4I 5I 6I 7I 8I 9I 10I 11I 12I 13I", 1: "w1M w2M w3M w4M"},
        down={0, 1},
    )
    refused(st, 0, ("lay_off", {"card": "b13M", "meld": "m3"}), "does_not_fit")
    refused(st, 0, ("lay_off", {"card": "w?", "meld": "m2"}), "does_not_fit")
    refused(st, 0, ("lay_off", {"card": "b12I", "meld": "m2"}), "does_not_fit")


def test_the_wild_limit_holds_after_a_lay_off():
    # Seven players: three decks, three wilds.
    book = make_state(
        players=7, round=2, phase="play", hands={0: "b? g? w12I"}, melds={0: "w7M w7A w?"}
    )
    # A book 7 7 ? takes one more wild (2 naturals, 2 wilds), not a third one.
    new, _ = act(book, 0, "lay_off", card="b?", meld="m1")
    refused(new, 0, ("lay_off", {"card": "g?", "meld": "m1"}), "does_not_fit")
    # A run ? 5 6 ? is at the limit already.
    run = make_state(
        players=7, round=2, phase="play", hands={0: "g? w12I"}, melds={0: "w? w5Y w6Y b?"}
    )
    refused(run, 0, ("lay_off", {"card": "g?", "meld": "m1"}), "does_not_fit")
    refused(run, 0, ("lay_off", {"card": "g?", "meld": "m1", "end": "low"}), "does_not_fit")


def test_never_lay_off_on_a_mayi_meld():
    st = _down_state(hands={0: "b2M b? w3M w12I"})
    for card in ("b2M", "b?", "w3M"):
        refused(st, 0, ("lay_off", {"card": card, "meld": "m5"}), "mayi_meld_closed")


def test_lay_off_unknown_meld_or_card_not_in_hand():
    st = _down_state(hands={0: "b7M w12I"})
    refused(st, 0, ("lay_off", {"card": "b7M", "meld": "m99"}), "unknown_meld")
    refused(st, 0, ("lay_off", {"card": "g7M", "meld": "m1"}), "card_not_in_hand")
    refused(st, 0, ("lay_off", {"card": "b7I", "meld": "m1"}), "card_not_in_hand")
    refused(st, 0, ("lay_off", {"card": "7M", "meld": "m1"}), "bad_card")


# -- 5. discard ends the turn ------------------------------------------------------------------
def test_discard_ends_the_turn_and_play_passes_clockwise():
    st = make_state(players=4, active=3, phase="play", hands={3: "3M 4A 5Y 6I 8M 9A 10M"})
    card = st["hands"][3][0]
    new, events = act(st, 3, "discard", card=card)
    assert top(new) == card and new["discard_from"][-1] == 3
    assert card not in new["hands"][3]
    assert new["active"] == 0 and new["phase"] == "draw"
    assert types(events) == ["discarded", "turn"]


def test_discard_a_card_not_in_hand_is_refused():
    st = make_state(phase="play", hands={0: "w3M w4A w5Y w6I w8M w9A w10M"})
    refused(st, 0, ("discard", {"card": "b3M"}), "card_not_in_hand")
    refused(st, 0, ("discard", {"card": "3M"}), "bad_card")
    refused(st, 1, ("discard", {"card": st["hands"][1][0]}), "not_your_turn")


# -- going out ------------------------------------------------------------------------------
def _round_ended(events):
    ended = event(events, "round_ended")
    assert types(events)[-1] == "round_started"
    return ended


def test_going_out_by_discard_ends_the_round_at_once():
    st = make_state(
        players=3,
        phase="play",
        hands={0: "w2M", 1: "10M 13A ?", 2: "1M 2A 9Y"},
        melds={0: "7M 7A 7Y | 9I 9A 9M"},
    )
    new, events = act(st, 0, "discard", card="w2M")
    ended = _round_ended(events)
    assert ended["went_out"] == 0 and ended["reason"] == "went_out"
    assert ended["scores"] == [0, 15 + 10 + 15, 1 + 2 + 9]
    assert "turn" not in types(events)
    assert new["round"] == 2 and new["rounds_out"] == [1, 0, 0]
    assert new["totals"] == [0, 40, 12]


def test_going_out_by_lay_off():
    st = make_state(
        phase="play", hands={0: "b7M", 1: "5M", 2: "6M"}, melds={0: "7M 7A 7Y | 9I 9A 9M"}
    )
    new, events = act(st, 0, "lay_off", card="b7M", meld="m1")
    ended = _round_ended(events)
    assert ended["went_out"] == 0 and ended["scores"] == [0, 5, 6]
    assert new["round"] == 2


def test_going_out_by_lay_down():
    st = make_state(phase="play", hands={0: "w7M w7A w7Y w9I w9A w?", 1: "13M", 2: "?"})
    new, events = act(st, 0, "lay_down", cards="w7M w7A w7Y w9I w9A w?")
    ended = _round_ended(events)
    assert ended["went_out"] == 0 and ended["scores"] == [0, 10, 15]
    assert new["round"] == 2 and new["melds"] == []


def test_a_player_not_down_with_cards_left_does_not_go_out():
    st = make_state(phase="play", hands={0: "w7M w2A"})
    new, events = act(st, 0, "discard", card="w7M")
    assert new["round"] == 1 and types(events) == ["discarded", "turn"]
