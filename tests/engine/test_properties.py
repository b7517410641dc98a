"""Property tests (hypothesis) over whole games played by bots with random seeds.

- every card id in exactly one place, every tabled meld valid, totals add up (check_invariants,
  plus an independent check of each round's scores against the hands);
- ``(seed, moves)`` replays to the same state;
- JSON round-trips are exact, and ``apply`` on a round-tripped state gives the same result;
- a view never shows another seat's cards, the stock or the seed until the game is over, and
  events never name a card that is hidden;
- ``apply`` never changes the state it is given;
- garbage actions raise only ``IllegalMove`` and leave the state unchanged;
- every action ``legal_actions`` offers is accepted.

Examples are bounded and fixed (derandomized) so the file runs in a few seconds, the same each
time; MAYI_PROPERTY_SCALE=20 (say) multiplies every example count and draws fresh examples for a
longer hunt.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games.engine import IllegalMove, apply, legal_actions, new_game, view
from games.engine.bots import choose_action, fallback_action
from games.engine.invariants import check_invariants
from games.engine.legal import answerers
from games.engine.public import public_events
from games.engine.rulesets import RULESETS
from games.engine.scoring import cards_penalty
from games.engine.simulate import play_game

SCALE = int(os.environ.get("MAYI_PROPERTY_SCALE", "1"))
# The suite's run is the same examples every time (its time and its verdict do not depend on
# luck); a longer hunt (MAYI_PROPERTY_SCALE > 1) draws new ones each run.
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=SCALE == 1)
POLICIES = hs.lists(hs.sampled_from(["heuristic", "random"]), min_size=1, max_size=3)
# Every ruleset, with a table size it allows (bga twice as often: it is the default). The
# variants' games are longer (bigger hands, no buy cap): up to 4 players keeps the file quick.
TABLES = hs.sampled_from(["bga", "bga", "petras", "classic", "rook"]).flatmap(
    lambda r: hs.tuples(
        hs.just(r),
        hs.integers(RULESETS[r].min_players, RULESETS[r].max_players if r == "bga" else 4),
    )
)


def record_game(players: int, seed: str, policies, timeouts: float, ruleset: str = "bga"):
    """A whole game by ``simulate.play_game``, with its move list."""
    moves: list = []
    final, _, problems = play_game(
        players,
        seed,
        ruleset,
        policies=tuple(policies),
        checks=False,
        timeouts=timeouts,
        record=moves,
    )
    assert not problems, problems[:3]
    assert final["game_over"]
    return final, moves


def drive(
    players: int,
    seed: str,
    policies,
    order_seed: int,
    p_timeout: float,
    p_close: float,
    ruleset: str = "bga",
):
    """A whole game by the bots, in a random order of who acts next: the active seat, a seat
    that may answer (early or in an open window), or the platform (timeout, close_window).
    Unlike ``play_game`` (answerers always first), this leaves windows open while the active
    player goes on, so held discards and held passes happen."""
    rng = random.Random(order_seed)
    state = new_game(players, seed, ruleset)
    moves: list = []
    while not state["game_over"]:
        assert len(moves) < 20000, "game did not finish"
        who = answerers(state)
        if state["phase"] in ("draw", "play"):
            who = [state["active"], *who]
        assert who, f"nobody to act in phase {state['phase']}"
        if state["window"] is not None and rng.random() < p_close:
            seat, action = None, {"type": "close_window"}
        elif state["phase"] in ("draw", "play") and rng.random() < p_timeout:
            seat, action = None, {"type": "timeout"}
        else:
            seat = rng.choice(who)
            policy = policies[seat % len(policies)]
            action = choose_action(state, seat, policy)
            if action is None:
                action = fallback_action(state, seat) if seat == state["active"] else None
            assert action is not None, f"bot for seat {seat} has nothing to do"
        try:
            state, _ = apply(state, seat, action)
        except IllegalMove as exc:
            raise AssertionError(f"bot chose an illegal action {action} for {seat}: {exc}") from exc
        moves.append((seat, action))
    return state, moves


def strings_in(obj) -> set[str]:
    out: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        # Exact types first (views and events are dicts, lists, strings and numbers): this
        # runs for every view and every move's events.
        if type(x) is str:
            out.add(x)
        elif type(x) is dict:
            stack.extend(x.values())
            out.update(k for k in x if isinstance(k, str))
        elif type(x) is list:
            stack.extend(x)
        elif type(x) in (int, bool, float, type(None)):
            continue
        elif isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
            stack.extend(k for k in x if isinstance(k, str))
        elif isinstance(x, list | tuple):
            stack.extend(x)
    return out


def check_views(state: dict) -> None:
    """Independent of invariants.py: what each view may and may not hold."""
    n = state["players"]
    for seat in [*range(n), None]:
        v = view(state, seat)
        text = json.dumps(v)
        json.loads(text)
        # A wild swapped off the table (rook) was public before it went into the hand, and so
        # was a card taken from the discard pile (the public history ``taken`` the bots read).
        public = set(state.get("swapped") or []) | {c for _, c in state.get("taken") or []}
        ids = strings_in(v) - public
        if state["game_over"]:
            assert v["hands"] == state["hands"] and v["stock"] == state["stock"]
            assert v["seed"] == state["seed"]
            continue
        seed = state["seed"]
        # A short generated seed ("play", "Fals") also occurs in honest values; the platform's
        # seeds are 64 hex digits, and the hex seeds generated here are 16.
        if len(seed) >= 12:
            assert seed not in text, "the seed is in a view"
        assert "stock" not in v and "hands" not in v and "seed" not in v
        assert not ids & set(state["stock"]), "a stock card is in a view"
        for other in range(n):
            if other != seat:
                assert not ids & set(state["hands"][other]), f"seat {other}'s cards shown"
        if seat is None:
            assert v["hand"] is None
        else:
            assert v["hand"] == state["hands"][seat]
        assert v["hand_sizes"] == [len(h) for h in state["hands"]]


def check_round_end(before: dict, seat, events: list[dict]) -> None:
    """Round scores: 0 for the player out, the hand's penalty for the others (checked for the
    seats whose hands this action did not touch), -10 per MAYI meld."""
    touched = {before["active"]} | {e["seat"] for e in events if e["type"] == "bought"}
    table = RULESETS[before["ruleset"]].penalties
    for e in events:
        if e["type"] != "round_ended":
            continue
        n = before["players"]
        assert e["scores"] == [e["penalties"][s] - 10 * e["mayi_melds"][s] for s in range(n)]
        if e["went_out"] is not None:
            assert e["penalties"][e["went_out"]] == 0
        for s in range(n):
            assert e["penalties"][s] >= 0
            if s not in touched and s != e["went_out"] and e["round"] == before["round"]:
                assert e["penalties"][s] == cards_penalty(before["hands"][s], table)


def check_events_hide(before: dict, after: dict, events: list[dict]) -> None:
    """Events (log lines, animations) show no card that is hidden after the action: nothing of
    the stock, and of the hands only cards that were public before (the discard pile) or that
    were tabled or discarded in this action. When a round ends, the events about the old
    round name its cards, which are in the new deal now: only the new round's events count."""
    if after["game_over"]:
        return
    # The engine's own events are a full record (a stock draw names its card); what a client
    # gets is their public form (games.engine.public; per seat in tests/engine/test_public.py).
    events = public_events(events, None)
    starts = [i for i, e in enumerate(events) if e["type"] == "round_started"]
    if starts:
        events = events[starts[-1] :]
    ids = strings_in(events)
    assert not ids & set(after["stock"]), f"stock cards in events {events}"
    public = set(before["discard"]) | set(after["discard"])
    public |= {c for m in after["melds"] for c in m["cards"]}
    for e in events:
        if e["type"] in ("laid_down", "laid_off", "mayi_meld", "discarded", "wild_swapped"):
            public |= strings_in(e)
    hidden = {c for h in after["hands"] for c in h} - public
    assert not ids & hidden, f"hand cards {ids & hidden} in events {events}"


def replay_checked(players: int, seed: str, moves: list, every: int, ruleset: str = "bga") -> dict:
    """Replay ``moves`` from ``new_game``, checking the properties; deep ones every few steps."""
    state = new_game(players, seed, ruleset)
    assert not check_invariants(state)
    for i, (seat, action) in enumerate(moves):
        deep = i % every == 0
        snapshot = copy.deepcopy(state) if deep else None
        new, events = apply(state, seat, action)
        problems = check_invariants(new)
        assert not problems, f"move {i} {action} by {seat}: {problems}"
        check_round_end(state, seat, events)
        check_events_hide(state, new, events)
        if deep:
            assert state == snapshot, "apply changed the state it was given"
            trip = json.loads(json.dumps(state))
            assert trip == state
            assert apply(trip, seat, copy.deepcopy(action)) == (new, events)
            check_views(new)
        state = new
    return state


SEEDS = hs.one_of(
    hs.binary(min_size=8, max_size=8).map(bytes.hex), hs.text(min_size=1, max_size=10)
)


@settings(max_examples=8 * SCALE, **SETTINGS)
@given(
    table=TABLES,
    seed=SEEDS,
    policies=POLICIES,
    order_seed=hs.integers(0, 2**32),
    p_timeout=hs.sampled_from([0.0, 0.03, 0.2]),
    p_close=hs.sampled_from([0.0, 0.1, 0.5]),
)
def test_whole_games_keep_the_invariants_and_replay_exactly(
    table, seed, policies, order_seed, p_timeout, p_close
):
    ruleset, players = table
    final, moves = drive(players, seed, policies, order_seed, p_timeout, p_close, ruleset)
    replayed = replay_checked(players, seed, moves, every=5, ruleset=ruleset)
    assert replayed == final
    assert json.loads(json.dumps(final)) == final
    check_views(final)
    assert len(final["scores"]) == 7
    assert final["totals"] == [sum(r[s] for r in final["scores"]) for s in range(players)]
    # Lowest total first; ties: more rounds out (bga); still tied: a shared place.
    by_out = RULESETS[ruleset].ties_broken_by_rounds_out
    key = [(final["totals"][s], -final["rounds_out"][s] * by_out) for s in range(players)]
    assert final["places"] == [1 + sum(k < key[s] for k in key) for s in range(players)]


@settings(max_examples=10 * SCALE, **SETTINGS)
@given(
    table=TABLES,
    seed=SEEDS,
    policies=POLICIES,
    timeouts=hs.sampled_from([0.0, 0.05, 0.3]),
)
def test_play_game_move_lists_replay_to_the_same_state(table, seed, policies, timeouts):
    ruleset, players = table
    final, moves = record_game(players, seed, policies, timeouts, ruleset)
    state = new_game(players, seed, ruleset)
    for seat, action in moves:
        state, _ = apply(state, seat, action)
    assert state == final
    assert not check_invariants(final)


# -- a pool of real positions, for the tests that poke at single states ----------------------
@functools.cache
def position_pool() -> tuple[dict, ...]:
    pool = []
    configs = [
        (3, "pool-a", ("heuristic",), 1, 0.0, 0.1),
        (4, "pool-b", ("random", "heuristic"), 2, 0.1, 0.2),
        (5, "pool-c", ("heuristic", "random"), 3, 0.05, 0.0),
        (7, "pool-d", ("heuristic",), 4, 0.02, 0.3),
        (8, "pool-e", ("random",), 5, 0.0, 0.1),
        (4, "pool-f", ("heuristic", "random"), 6, 0.05, 0.2, "petras"),
        (5, "pool-g", ("heuristic",), 7, 0.0, 0.1, "classic"),
        (4, "pool-h", ("heuristic", "random"), 8, 0.05, 0.1, "rook"),
        (2, "pool-i", ("heuristic",), 9, 0.0, 0.3, "rook"),
    ]
    for players, seed, policies, order_seed, p_timeout, p_close, *rest in configs:
        ruleset = rest[0] if rest else "bga"
        final, moves = drive(players, seed, policies, order_seed, p_timeout, p_close, ruleset)
        state = new_game(players, seed, ruleset)
        for i, (seat, action) in enumerate(moves):
            keep = i % 41 == 0 or (state["phase"] == "done" and i % 3 == 0)
            if keep or (state["window"] and i % 7 == 0):
                pool.append(state)
            state, _ = apply(state, seat, action)
        pool.append(final)
    return tuple(pool)


def test_the_pool_covers_the_interesting_phases():
    pool = position_pool()
    assert any(s["phase"] == "done" for s in pool)
    assert any(s["window"] for s in pool)
    assert any(s["round"] == 7 and not s["game_over"] for s in pool)
    assert any(s["game_over"] for s in pool)
    assert any(s["players"] >= 7 for s in pool)
    assert {s["ruleset"] for s in pool} == set(RULESETS)
    assert any(s["phase"] == "selling" for s in pool)
    assert any(s.get("finisher") is not None and not s["game_over"] for s in pool)


def cards_of(state: dict) -> list[str]:
    out = [c for h in state["hands"] for c in h] + state["stock"] + state["discard"]
    return out + [c for m in state["melds"] for c in m["cards"]]


CARDISH = hs.one_of(
    hs.sampled_from(["w7M", "b?", "g13I", "w14M", "x7M", "7M", "", "w", "w7m", "w0A", "b10Y"]),
    hs.text(max_size=5),
)
ANY_VALUE = hs.recursive(
    hs.none() | hs.booleans() | hs.integers(-3, 200) | hs.floats(allow_nan=False) | CARDISH,
    lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(hs.text(max_size=6), inner),
    max_leaves=8,
)
TYPES = [
    "draw",
    "lay_down",
    "lay_off",
    "mayi_meld",
    "discard",
    "pass",
    "may_i",
    "no_thanks",
    "swap_wild",
    "close_window",
    "timeout",
]


@hs.composite
def garbage(draw, state: dict):
    """A mostly-wrong action for ``state``: real card ids (the active player's, others',
    duplicated), real meld ids, wrong types, unknown fields, or no action at all."""
    ids = cards_of(state)
    hand = state["hands"][state["active"]] or ids
    meld_ids = [m["id"] for m in state["melds"]] + ["m0", "m99"]
    near = draw(hs.booleans())
    card = hs.sampled_from(hand) if near else hs.sampled_from(ids) | CARDISH | ANY_VALUE
    card_list = hs.lists(card, max_size=14) | (ANY_VALUE if not near else hs.just([]))
    field_values = {
        "source": hs.sampled_from(["stock", "discard", "both", None, 1]) | ANY_VALUE,
        "card": card,
        "cards": card_list,
        "melds": hs.lists(hs.lists(card, min_size=1, max_size=6), max_size=4) | card_list,
        "meld": hs.sampled_from(meld_ids) if near else hs.sampled_from(meld_ids) | ANY_VALUE,
        "end": hs.sampled_from(["low", "high", "middle", None]) | ANY_VALUE,
    }
    # (hypothesis leans to small integers: the rare branches test for the largest value)
    if draw(hs.integers(0, 19)) == 19:
        return draw(ANY_VALUE)
    kind = draw(ANY_VALUE) if draw(hs.integers(0, 9)) == 9 else draw(hs.sampled_from(TYPES))
    action = {"type": kind}
    for key in draw(hs.lists(hs.sampled_from(sorted(field_values)), max_size=4, unique=True)):
        action[key] = draw(field_values[key])
    if draw(hs.integers(0, 4)) == 4:
        action[draw(hs.text(max_size=5))] = draw(ANY_VALUE)
    return action


@hs.composite
def seats_for(draw, state: dict):
    """Mostly a real seat (often the active one), sometimes the platform, sometimes junk."""
    pick = draw(hs.integers(0, 9))
    if pick < 4:
        return state["active"]
    if pick < 7:
        return draw(hs.integers(0, state["players"] - 1))
    if pick < 9:
        return None
    return draw(SEATS)


SEATS = hs.one_of(
    hs.integers(-2, 9), hs.none(), hs.booleans(), hs.sampled_from(["0", 1.0, [0], {"s": 0}])
)


@settings(max_examples=500 * SCALE, **SETTINGS)
@given(data=hs.data())
def test_garbage_actions_raise_only_illegal_move_and_change_nothing(data):
    pool = position_pool()
    state = pool[data.draw(hs.integers(0, len(pool) - 1))]
    before = copy.deepcopy(state)
    seat = data.draw(seats_for(state), label="seat")
    action = data.draw(garbage(state))
    try:
        new, events = apply(state, seat, action)
    except IllegalMove as exc:
        assert isinstance(exc.code, str) and exc.code and exc.message
    else:
        assert not check_invariants(new)
        assert isinstance(events, list)
    assert state == before


@settings(max_examples=120 * SCALE, **SETTINGS)
@given(data=hs.data())
def test_out_of_turn_and_foreign_cards_are_refused(data):
    pool = [s for s in position_pool() if not s["game_over"]]
    state = pool[data.draw(hs.integers(0, len(pool) - 1))]
    n = state["players"]
    # (a seat out in rook's last turns holds nothing to play with)
    other = data.draw(
        hs.sampled_from([s for s in range(n) if s != state["active"] and state["hands"][s]])
    )
    kind = data.draw(hs.sampled_from(["draw", "lay_off", "discard", "pass", "lay_down"]))
    action = {"type": kind, "source": "stock", "card": state["hands"][other][0], "meld": "m1"}
    if kind == "lay_down":
        action = {"type": kind, "cards": state["hands"][other][:3]}
    before = copy.deepcopy(state)
    try:
        apply(state, other, action)
        raise AssertionError(f"seat {other} played out of turn: {action}")
    except IllegalMove as exc:
        assert exc.code == "not_your_turn"
    # The active player may not use another seat's card, nor a card twice.
    if state["phase"] == "play":
        foreign = state["hands"][other][0]
        for bad in (
            {"type": "discard", "card": foreign},
            {"type": "mayi_meld", "cards": [foreign] * 4},
            {"type": "lay_down", "cards": state["hands"][state["active"]][:1] * 2},
        ):
            try:
                apply(state, state["active"], bad)
                raise AssertionError(f"accepted {bad}")
            except IllegalMove as exc:
                assert exc.code in (
                    "card_not_in_hand",
                    "duplicate_card",
                    "already_down",
                    "no_mayi_melds",
                    "use_swapped_wild",
                )
    assert state == before


def test_every_offered_legal_action_is_accepted():
    for state in position_pool():
        for seat in range(state["players"]):
            for action in legal_actions(state, seat):
                new, _ = apply(state, seat, action)
                assert not check_invariants(new)
