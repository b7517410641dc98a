"""Issue 16: a rook player not yet down may swap a tabled wild exactly when, after the swap,
some lay-down of the round's contract holds the swapped wild; wilds of their own may stay in
hand. The swapped wild is still played that turn."""

from __future__ import annotations

from itertools import combinations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as hs

from games.engine import IllegalMove, apply, legal_actions
from games.engine.cards import is_wild_card, parse_card
from games.engine.contract import solve_exact
from games.engine.rulesets import ROOK

from .helpers import act, make_state, refused

SEAT1 = "x5R x5G x* x9R x9G x9Y x1K"


def reproduction(seat2: str = "x7R x7G x8R x8G x5Y y* z* x_ y_"):
    """The issue's position: seat 1 goes down with a wild in a book of fives, seat 2 holds the
    natural five it stands for."""
    st = make_state(
        players=6,
        round=1,
        ruleset="rook",
        seed="rook-ownwilds",
        active=1,
        phase="draw",
        hands={1: SEAT1, 2: seat2},
        discard="x4K",
    )
    st, _ = act(st, 1, "draw", source="discard")
    st, _ = act(st, 1, "lay_down", melds="x5R x5G x* | x9R x9G x9Y")
    st, _ = act(st, 1, "discard", card="x1K")
    st, _ = act(st, 2, "draw", source="discard")
    return st


def test_issue_reproduction_the_swap_is_allowed_with_own_wilds_kept():
    st = reproduction()
    st, events = act(st, 2, "swap_wild", meld="m1", card="x5Y")
    assert "x*" in st["hands"][2]
    assert st["melds"][0]["cards"].count("x5Y") == 1
    # The swapped wild must still go down this turn...
    refused(st, 2, ("discard", {"card": "x1K"}), "use_swapped_wild")
    refused(st, 2, ("lay_down", {"melds": "x7R x7G y* | x8R x8G z*"}), "use_swapped_wild")
    # ...and the two books go down with it while y_ stays in hand.
    st, _ = act(st, 2, "lay_down", melds="x7R x7G x* y* | x8R x8G z* x_")
    assert st["down"][2] and "y_" in st["hands"][2]
    st, _ = act(st, 2, "discard", card="x1K")
    assert st["hands"][2] == ["y_"]


def test_the_swap_offered_is_the_swap_accepted_and_the_lay_down_the_engine_suggests_holds_it():
    st = reproduction()
    assert {"type": "swap_wild", "meld": "m1", "card": "x5Y"} in legal_actions(st, 2)
    st, _ = act(st, 2, "swap_wild", meld="m1", card="x5Y")
    lay = [a for a in legal_actions(st, 2) if a["type"] == "lay_down"]
    assert len(lay) == 1 and any("x*" in g for g in lay[0]["melds"])
    st, _ = act(st, 2, "lay_down", melds=lay[0]["melds"])


def test_the_inconsistency_one_own_wild_more_or_fewer_gives_the_same_answer():
    # Before the fix, with y_ fewer the swap was accepted and then a lay-down keeping an own
    # wild in hand was too, while with y_ the same swap was refused. Now both agree.
    fewer = reproduction("x7R x7G x8R x8G x5Y y* z* x_")
    more = reproduction()
    for st in (fewer, more):
        after, _ = act(st, 2, "swap_wild", meld="m1", card="x5Y")
        after, _ = act(after, 2, "lay_down", melds="x7R x7G x* | x8R x8G z*")
        assert after["down"][2]
        assert sum(1 for c in after["hands"][2] if is_wild_card(c)) >= 2  # own wilds kept


def test_still_refused_when_no_lay_down_can_hold_the_wild():
    st = reproduction("x7R x7G x8R x2G x5Y y* x3K x_ y_")  # one book at most
    refused(st, 2, ("swap_wild", {"meld": "m1", "card": "x5Y"}), "cannot_go_down")


# -- the property: accepted iff some lay-down of the contract uses the swapped wild ------------
def oracle(hand: list[str], swapped: list[str], round_no: int, options: dict) -> bool:
    """Brute force: some subset of the hand holding every swapped wild splits exactly into
    one of the round's contracts."""
    rest = [c for c in hand if c not in swapped]
    parsed_swapped = [parse_card(c) for c in swapped]
    for contract in ROOK.contract_choices(round_no, options):
        for k in range(len(rest) + 1):
            for sub in combinations(rest, k):
                cards = parsed_swapped + [parse_card(c) for c in sub]
                if solve_exact(cards, contract.books, contract.runs, ROOK.cards) is not None:
                    return True
    return False


FACES = [f"{n}{c}" for n in range(1, 15) for c in "RGYK"]


@hs.composite
def rook_swap_state(draw):
    """A rook state where seat 0, not down, holds a natural a tabled wild stands for, with a
    hand drawn mostly near that natural (so lay-downs are neither always nor never there)."""
    round_no = draw(hs.sampled_from([1, 2, 3, 4]))
    kind = draw(hs.sampled_from(["book", "run"]))
    color = draw(hs.sampled_from("RGYK"))
    if kind == "book":
        rank = draw(hs.integers(1, 14))
        others = [c for c in "RGYK" if c != color]
        meld = f"y{rank}{others[0]} y{rank}{others[1]} y*"
        natural = f"x{rank}{color}"
    else:
        low = draw(hs.integers(1, 11))
        meld = f"y{low}{color} y* y{low + 2}{color} y{low + 3}{color}"
        natural = f"x{low + 1}{color}"
    near = [f for f in FACES if abs(int(f[:-1]) - int(natural[1:-1])) <= 4]
    faces = draw(hs.lists(hs.sampled_from(near + FACES[:8]), min_size=4, max_size=8))
    own_wilds = draw(hs.integers(0, 3))
    wild_ids = ["x_", "y_", "x*"][:own_wilds]
    hand = [natural, *faces, *wild_ids]
    return round_no, meld, hand


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rook_swap_state())
def test_a_swap_is_accepted_iff_some_lay_down_uses_the_swapped_wild(case):
    round_no, meld, hand = case
    try:
        st = make_state(
            players=3,
            round=round_no,
            ruleset="rook",
            phase="play",
            hands={0: " ".join(hand)},
            melds={1: meld},
            down={1},
        )
    except ValueError:
        return  # more copies of a face than the decks hold
    hand_ids = st["hands"][0]
    natural = hand_ids[0]
    wild = next(c for c in st["melds"][0]["cards"] if is_wild_card(c))
    after = [c for c in hand_ids if c != natural] + [wild]
    expected = oracle(after, [wild], round_no, st["options"])
    try:
        new, _ = apply(st, 0, {"type": "swap_wild", "meld": "m1", "card": natural})
    except IllegalMove as e:
        event("refused")
        assert not expected, f"refused ({e.code}) though a lay-down holds {wild}: {after}"
        return
    event("accepted")
    assert expected, f"accepted though no lay-down holds {wild}: {after}"
    # And the lay-down the engine then offers is accepted and holds the wild.
    lay = [a for a in legal_actions(new, 0) if a["type"] == "lay_down"]
    assert lay and any(wild in g for g in lay[0]["melds"])
    apply(new, 0, lay[0])


# -- a player already down: every wild taken off the table this turn needs a place ----------
def full_run(suit: str, wild_rank: int, wild: str) -> str:
    """A rook run of every number, 1 to 14, with ``wild`` standing for ``wild_rank``."""
    return " ".join(wild if r == wild_rank else f"x{r}{suit}" for r in range(1, 15))


def down_with_one_place(hand: str = "x7R x9G x3K"):
    """Seat 0 is down; the only place a wild could go is the low end of its own run (2-14):
    two full runs each hold a wild seat 0 has the natural for."""
    return make_state(
        players=2,
        round=1,
        ruleset="rook",
        active=0,
        phase="play",
        hands={0: hand},
        melds=[
            (1, full_run("R", 7, "x*")),
            (1, full_run("G", 9, "y*")),
            (0, " ".join(f"x{r}Y" for r in range(2, 15))),
        ],
    )


def test_a_second_swap_is_refused_when_both_wilds_would_need_the_same_place():
    st = down_with_one_place()
    st, _ = act(st, 0, "swap_wild", meld="m1", card="x7R")
    # The first wild takes the one place; the second would be stuck in hand for good.
    assert not [a for a in legal_actions(st, 0) if a["type"] == "swap_wild"]
    refused(st, 0, ("swap_wild", {"meld": "m2", "card": "x9G"}), "wild_has_no_place")
    st, _ = act(st, 0, "lay_off", card="x*", meld="m3", end="low")
    st, _ = act(st, 0, "discard", card="x3K")


def test_a_lay_off_that_would_take_the_waiting_wilds_place_is_refused():
    st = down_with_one_place("x7R x1Y x3K")
    st, _ = act(st, 0, "swap_wild", meld="m1", card="x7R")
    offered = [a for a in legal_actions(st, 0) if a["type"] == "lay_off"]
    assert {"type": "lay_off", "card": "x1Y", "meld": "m3", "end": "low"} not in offered
    refused(st, 0, ("lay_off", {"card": "x1Y", "meld": "m3"}), "wild_has_no_place")
    # The wild first; then the one goes nowhere (the run is full), and the turn ends.
    st, _ = act(st, 0, "lay_off", card="x*", meld="m3", end="low")
    st, _ = act(st, 0, "discard", card="x1Y")
