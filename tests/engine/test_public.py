"""What each seat may see of a move's events (games.engine.public), over whole bot games of
every ruleset, and the view's data for the page's panels."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games.engine import apply, new_game, view
from games.engine.cards import face_data
from games.engine.public import (
    PRIVATE_KINDS,
    PUBLIC_KINDS,
    event_cards,
    public_event,
    public_events,
)
from games.engine.rulesets import RULESETS
from games.engine.scoring import cards_penalty
from games.engine.simulate import play_game

from .helpers import act, make_state

PLAYERS = {"bga": (3, 4), "petras": (3, 4), "classic": (3, 4), "rook": (2, 4)}


def strings_in(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(), *(strings_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(strings_in(v) for v in value))
    return set()


def unseen(state: dict, seat: int | None) -> set[str]:
    """Cards ``seat`` cannot see in ``state``: the stock and the other hands."""
    out = set(state["stock"])
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            out |= set(hand)
    return out


def hidden_during(before: dict, after: dict, events: list[dict], seat: int | None) -> set[str]:
    """Cards hidden from ``seat`` all through one move: unseen before it and after it. A move
    that ends a round shows every hand (the round's end); of the rest only the cards the
    move put on the table or the pile became public."""
    if not any(e["type"] == "round_ended" for e in events):
        return unseen(before, seat) & unseen(after, seat)
    shown = {c for hand in after["last_round"]["hands"] for c in hand}
    for e in events:
        if e["type"] in PUBLIC_KINDS:
            shown |= strings_in(e)
    return unseen(before, seat) - shown


def replay(players: int, seed: str, ruleset: str, timeouts: float):
    moves: list = []
    play_game(players, seed, ruleset, checks=False, timeouts=timeouts, record=moves)
    state = new_game(players, seed, ruleset)
    for seat, action in moves:
        after, events = apply(state, seat, action)
        yield state, seat, action, after, events
        state = after


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=hs.sampled_from(sorted(RULESETS)),
    seed=hs.text("0123456789abcdef", min_size=8, max_size=8),
    big=hs.booleans(),
    timeouts=hs.sampled_from([0.0, 0.05]),
)
def test_no_seat_is_ever_given_a_card_hidden_from_it(ruleset, seed, big, timeouts):
    players = PLAYERS[ruleset][big]
    kinds: set[str] = set()
    drawn_shown = 0
    for before, actor, action, after, events in replay(players, seed, ruleset, timeouts):
        kinds |= {e["type"] for e in events}
        if after["game_over"]:
            continue  # every hand and the stock are shown at the end of the game
        for seat in [*range(players), None]:
            given_ = public_events(events, seat)
            leaked = strings_in(given_) & hidden_during(before, after, events, seat)
            assert not leaked, f"{action} by {actor}: {leaked} given to seat {seat}: {given_}"
            if actor is not None and seat == actor:
                # The drawer is told the card a stock draw gave (the log says which).
                for e in given_:
                    if e["type"] == "drew" and e["seat"] == seat:
                        assert e["card"] in after["hands"][seat] or e["card"] in strings_in(events)
                        drawn_shown += 1
    # Every kind the engine emitted has a decision (none fell to the type-and-seat default).
    assert kinds <= PUBLIC_KINDS | set(PRIVATE_KINDS), kinds - PUBLIC_KINDS - set(PRIVATE_KINDS)
    assert drawn_shown > 0


def stocked(**kw):
    return make_state(
        players=3,
        round=1,
        active=0,
        phase="draw",
        hands={
            0: "w7M w7A b7Y w9I w? w12M",
            1: "w4M w4A w11Y w12I w3Y w6M",
            2: "w5M w5A w5Y w13I w13M w8A",
        },
        discard="w10I",
        discarder=None,
        stock="b4I b13Y b9A b7M b11M b5I b9I",
        **kw,
    )


def test_a_stock_draw_shows_the_card_to_the_drawer_only():
    st, events = act(stocked(), 0, "draw", source="stock")
    drew = next(e for e in events if e["type"] == "drew")
    assert drew["card"] == "b4I"
    assert public_event(drew, 0)["card"] == "b4I"
    assert "card" not in public_event(drew, 1)
    assert "card" not in public_event(drew, None)
    assert public_event(drew, 2) == {"type": "drew", "seat": 0, "source": "stock"}


def test_a_sale_shows_the_penalty_card_to_the_buyer_and_its_count_to_everyone():
    st, _ = act(stocked(), 0, "draw", source="stock")
    st, _ = act(st, 2, "may_i")
    st, events = act(st, 1, "no_thanks")
    bought = next(e for e in events if e["type"] == "bought")
    assert public_event(bought, 2) == {
        "type": "bought",
        "seat": 2,
        "card": "w10I",
        "penalty_cards": ["b13Y"],
        "penalty_count": 1,
    }
    for seat in (0, 1, None):
        assert public_event(bought, seat) == {
            "type": "bought",
            "seat": 2,
            "card": "w10I",
            "penalty_count": 1,
        }


def test_mayi_meld_replacements_show_their_count_to_others():
    st = make_state(
        players=3,
        round=1,
        active=0,
        phase="play",
        hands={0: "w4M w4A w4Y w4I w9M", 1: "w1M w2M w3M", 2: "w5M w6M w7M"},
        discard="w10I",
        stock="b4I b13Y b9A b7M b11M b5I b9I",
    )
    st, events = act(st, 0, "mayi_meld", cards="w4M w4A w4Y w4I")
    rep = next(e for e in events if e["type"] == "replacements")
    assert len(public_event(rep, 0)["cards"]) == 4
    assert public_event(rep, 1) == {"type": "replacements", "seat": 0, "count": 4}


def test_events_carry_what_a_log_in_words_needs():
    # A lay-off names the meld's owner and kind ("carol laid 7M off on bob's run").
    st = make_state(
        players=3,
        round=2,
        active=2,
        phase="play",
        hands={0: "w1M", 1: "w2A", 2: "w8Y w3I"},
        discard="w10I",
        stock="b4I b13Y b9A",
        down={0, 2},
        melds={0: "w9M w9A w9Y | w4Y w5Y w6Y w7Y"},
    )
    st, events = act(st, 2, "lay_off", card="w8Y", meld="m2", end="high")
    laid = next(e for e in events if e["type"] == "laid_off")
    assert (laid["owner"], laid["kind"], laid["card"], laid["end"]) == (0, "run", "w8Y", "high")


def test_a_round_end_shows_every_hand_in_its_event_and_the_next_views():
    st = make_state(
        players=3,
        round=1,
        active=0,
        phase="play",
        hands={0: "w9M", 1: "w4M w4A", 2: "w5M w?"},
        discard="w10I",
        stock="b4I b13Y b9A b7M b11M b5I b9I",
        down={0},
        melds={0: "w7M w7A w7Y | w8M w8A w8Y"},
    )
    before = [h[:] for h in st["hands"]]
    st, events = act(st, 0, "discard", card="w9M")
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["hands"] == [[], before[1], before[2]]
    for seat in (0, 1, None):
        summary = view(st, seat)["last_round"]
        assert summary["round"] == 1 and summary["went_out"] == 0
        assert summary["scores"] == ended["scores"]
        # Faces, not card ids: those cards are in round 2's deal now.
        assert summary["hands"][1] == [face_data(c) for c in before[1]]
        assert not strings_in(summary) & set().union(*st["hands"], st["stock"])
        assert summary["fresh"] is True
    st, _ = act(st, st["active"], "draw", source="stock")
    assert view(st, 1)["last_round"]["fresh"] is False


def test_a_round_end_keeps_the_melds_and_the_last_cards_as_the_table_showed_them():
    # Round 2 starts on an empty table: the summary still shows how round 1 was won.
    st = make_state(
        players=3,
        round=1,
        active=0,
        phase="play",
        hands={0: "w7I w9M", 1: "w4M w4A", 2: "w5M w?"},
        discard="w10I",
        stock="b4I b13Y b9A b7M b11M b5I b9I",
        down={0},
        melds={0: "w7M w7A w7Y | w8M w8A w8Y"},
    )
    st, _ = act(st, 0, "lay_off", card="w7I", meld="m1")
    st, events = act(st, 0, "discard", card="w9M")
    assert st["round"] == 2 and view(st, 0)["melds"] == []
    ended = next(e for e in events if e["type"] == "round_ended")
    assert [m["cards"] for m in ended["melds"]] == [
        ["w7M", "w7A", "w7Y", "w7I"],
        ["w8M", "w8A", "w8Y"],
    ]
    assert ended["last_cards"] == ["w9M"]
    summary = view(st, None)["last_round"]
    assert [(m["kind"], m["owner"]) for m in summary["melds"]] == [("book", 0), ("book", 0)]
    assert [c["label"] for c in summary["melds"][0]["cards"]] == ["7M", "7A", "7Y", "7I"]
    assert [c["label"] for c in summary["last_cards"]] == ["9M"]
    # Faces only: no card id of round 2's deal or stock.
    assert not strings_in(summary) & set().union(*st["hands"], st["stock"])


def test_the_view_has_the_hand_penalty_rules_recent_discards_and_winners():
    st = stocked()
    v = view(st, 0)
    assert v["hand_penalty"] == cards_penalty(st["hands"][0]) == 7 + 7 + 7 + 9 + 15 + 10
    assert view(st, None)["hand_penalty"] is None
    assert v["discard_recent"] == ["w10I"]
    assert v["winners"] is None
    assert v["lay_offs"] is None  # not down: nothing to lay off


def test_a_finished_game_names_its_winners():
    state, _, _ = play_game(3, "winners-seed", "bga", checks=False)
    v = view(state, None)
    assert v["winners"] == [s for s, p in enumerate(v["places"]) if p == 1]
    assert v["last_round"]["round"] == 7 and v["last_round"]["fresh"] is True


def test_the_view_lists_lay_off_targets_of_each_card_when_the_seat_may_lay_off():
    st = make_state(
        players=3,
        round=2,
        active=2,
        phase="play",
        hands={0: "w1M", 1: "w2A", 2: "w8Y w3Y w9A w?"},
        discard="w10I",
        stock="b4I b13Y b9A",
        down={0, 2},
        melds={0: "w9M w9I w9Y | w4Y w5Y w6Y w7Y"},
    )
    offs = view(st, 2)["lay_offs"]
    assert {"type": "lay_off", "card": "w8Y", "meld": "m2", "end": "high"} in offs
    assert {"type": "lay_off", "card": "w3Y", "meld": "m2", "end": "low"} in offs
    assert {"type": "lay_off", "card": "w9A", "meld": "m1"} in offs
    assert {a["meld"] for a in offs if a["card"] == "w?"} == {"m1", "m2"}
    # Each one the engine accepts.
    for action in offs:
        apply(st, 2, action)
    assert view(st, 1)["lay_offs"] is None  # not seat 1's turn


def test_event_cards_name_every_card_an_entry_draws():
    st, _ = act(stocked(), 0, "draw", source="stock")
    st, _ = act(st, 2, "may_i")
    st, events = act(st, 1, "no_thanks")
    assert set(event_cards(public_events(events, 2))) == {"w10I", "b13Y"}
    assert set(event_cards(public_events(events, 1))) == {"w10I"}
