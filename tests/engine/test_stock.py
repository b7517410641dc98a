"""docs/RULES.md section 6: the stock runs out (one rebuild from the discard pile, then the round
ends with nobody out and everyone counting)."""

from __future__ import annotations

from games.engine import hand_penalty

from .helpers import act, event, make_state, same, top, types

PILE = "w1M w2M w3M w4M w13Y"


def empty_stock(**kw):
    """Seat 0 to draw from an empty stock; the pile holds PILE (top w13Y); the unnamed cards
    sit in seat 2's hand."""
    base = dict(hands={0: "3M 4A 5Y 6I 8M 9A", 1: "2A 7Y"}, discard=PILE, stock="", rest=2)
    base.update(kw)
    return make_state(**base)


def test_an_empty_stock_is_rebuilt_from_the_pile_but_its_top():
    st = empty_stock()
    new, events = act(st, 0, "draw", source="stock")
    assert types(events)[:2] == ["stock_rebuilt", "drew"]
    assert event(events, "stock_rebuilt")["stock_size"] == 4
    assert new["discard"] == ["w13Y"] and new["discard_from"] == [st["discard_from"][-1]]
    drawn = new["hands"][0][-1]
    assert same(new["stock"] + [drawn], "w1M w2M w3M w4M")
    assert new["reshuffles"] == 1
    assert new["window"]["card"] == "w13Y", "the draw goes on and opens its window"


def test_the_rebuild_is_a_seeded_shuffle():
    a = empty_stock(discard="w1M w2M w3M w4M w5M w6M w7M w8M w9M w10M w13Y")
    again, _ = act(a, 0, "draw", source="stock")
    first, _ = act(a, 0, "draw", source="stock")
    assert again == first
    orders = set()
    for seed in ("s1", "s2", "s3", "s4"):
        b = dict(a, seed=seed)
        new, _ = act(b, 0, "draw", source="stock")
        orders.add(tuple(new["stock"] + new["hands"][0][-1:]))
    assert len(orders) > 1, "the order depends on the game's seed"


def test_the_second_time_the_stock_runs_out_the_round_ends_with_nobody_out():
    st = empty_stock(reshuffles=1, hands={0: "3M 4A 5Y 6I 8M 9A", 1: "2A 7Y", 2: "?"}, rest=0)
    hands = st["hands"]
    new, events = act(st, 0, "draw", source="stock")
    ended = event(events, "round_ended")
    assert ended["reason"] == "stock_exhausted" and ended["went_out"] is None
    assert ended["penalties"] == [hand_penalty([c[1:] for c in h]) for h in hands]
    assert ended["penalties"][1:] == [9, 15]
    assert new["rounds_out"] == [0, 0, 0] and new["round"] == 2
    assert types(events) == ["round_ended", "round_started"]


def test_nothing_to_reshuffle_ends_the_round():
    st = empty_stock(discard="w13Y", hands={0: "3M", 1: "2A 7Y", 2: "?"}, rest=0)
    new, events = act(st, 0, "draw", source="stock")
    ended = event(events, "round_ended")
    assert ended["reason"] == "stock_exhausted" and ended["scores"][1:] == [9, 15]


def test_an_empty_discard_pile_and_stock_ends_the_round():
    st = empty_stock(discard="", hands={0: "3M", 1: "2A 7Y", 2: "?"}, rest=0)
    _, events = act(st, 0, "draw", source="stock")
    assert event(events, "round_ended")["reason"] == "stock_exhausted"


def test_the_last_stock_card_is_drawn_normally():
    st = make_state(hands={0: "3M", 1: "2A 7Y"}, discard=PILE, stock="w12I", rest=2)
    new, events = act(st, 0, "draw", source="stock")
    assert new["stock"] == [] and new["hands"][0][-1] == "w12I" and new["round"] == 1
    assert "stock_rebuilt" not in types(events)


def test_a_penalty_card_from_an_empty_stock_rebuilds_it():
    st = make_state(hands={0: "3M", 1: "2A 7Y"}, discard=PILE, stock="w12I", rest=2)
    st, _ = act(st, 0, "draw", source="stock")
    st, events = act(st, 1, "may_i")
    assert types(events) == ["answered", "window_closed", "bought", "stock_rebuilt"]
    # The bought card left the pile; the pile's new top (w4M) stays, the rest is the stock.
    assert top(st) == "w4M" and st["discard"] == ["w4M"]
    assert len(st["hands"][1]) == 4 and "w13Y" in st["hands"][1]
    assert same(st["stock"] + st["hands"][1][-1:], "w1M w2M w3M")


def test_a_penalty_card_from_an_exhausted_stock_ends_the_round():
    st = make_state(hands={0: "3M", 1: "2A 7Y"}, discard=PILE, stock="w12I", rest=2, reshuffles=1)
    st, _ = act(st, 0, "draw", source="stock")
    st, events = act(st, 1, "may_i")
    ended = event(events, "round_ended")
    assert ended["went_out"] is None and ended["buys"][1] == 1
    assert ended["penalties"][1] == 2 + 7 + 10, "the bought card counts"


def test_replacement_cards_from_an_empty_stock_rebuild_it():
    st = make_state(
        hands={0: "b4M w3A w6Y w5I w9M"}, discard=PILE, stock="b1A b2A", rest=2, phase="play"
    )
    st, events = act(st, 0, "mayi_meld", cards="b4M w3A w6Y w5I")
    assert types(events) == ["mayi_meld", "stock_rebuilt", "replacements"]
    assert len(st["hands"][0]) == 5 and st["discard"] == ["w13Y"]
    assert len(st["stock"]) == 2


def test_the_round_ends_when_replacements_run_out():
    st = make_state(
        hands={0: "w4M w3A w6Y w5I w9M"},
        discard="w13Y",
        stock="b1A b2A",
        rest=2,
        phase="play",
    )
    _, events = act(st, 0, "mayi_meld", cards="w4M w3A w6Y w5I")
    ended = event(events, "round_ended")
    assert ended["mayi_melds"][0] == 1
    assert ended["scores"][0] == 9 + 1 + 2 - 10
