"""Invariants that must hold after every action; the simulator and property tests check them."""

from __future__ import annotations

from collections import Counter

from .cards import parse_card
from .melds import book_rank, mayi_ok, run_fit
from .state import State, ruleset_of
from .view import view


def full_deck(state: State) -> Counter:
    rules = ruleset_of(state)
    return Counter(rules.cards.full_deck(rules.decks(state["players"])))


def check_invariants(state: State) -> list[str]:
    """Every broken invariant, as readable strings (empty when all hold)."""
    problems: list[str] = []
    places: Counter[str] = Counter()
    for hand in state["hands"]:
        places.update(hand)
    places.update(state["stock"])
    places.update(state["discard"])
    for meld in state["melds"]:
        places.update(meld["cards"])
    expected = full_deck(state)
    if places != expected:
        extra = places - expected
        missing = expected - places
        problems.append(f"cards out of place: extra {sorted(extra)} missing {sorted(missing)}")
    if len(state["discard"]) != len(state["discard_from"]):
        problems.append("discard pile and its discarders differ in length")
    rules = ruleset_of(state)
    top, ace_high = rules.cards.top, rules.cards.ace_high
    for meld in state["melds"]:
        parsed = [parse_card(c) for c in meld["cards"]]
        kind = meld["kind"]
        if kind == "book" and book_rank(parsed) != meld["rank"]:
            problems.append(f"invalid book {meld['id']}: {meld['cards']}")
        elif kind == "run":
            fit = run_fit(parsed, top, ace_high)
            ok = fit is not None and fit[0] == meld["suit"]
            for i, (r, _) in enumerate(parsed):
                at = meld["start"] + i
                if r and r != at and not (ace_high and r == 1 and at == top):
                    ok = False
            if not ok or meld["start"] < 1 or meld["start"] + len(parsed) - 1 > top:
                problems.append(f"invalid run {meld['id']}: {meld['cards']}")
        elif kind == "mayi" and not mayi_ok(parsed):
            problems.append(f"invalid MAYI meld {meld['id']}: {meld['cards']}")
    n = state["players"]
    for seat in range(n):
        if state["totals"][seat] != sum(r[seat] for r in state["scores"]):
            problems.append(f"seat {seat}'s total is not the sum of its rounds")
    cap = ruleset_of(state).max_buys_per_round
    if cap is not None and any(b > cap for b in state["buys"]):
        problems.append("a seat bought more than the cap")
    if state["window"] is not None:
        w = state["window"]
        if not state["discard"] or state["discard"][-1] != w["card"]:
            problems.append("buy window is not on the discard top")
        if state["active"] in w["eligible"]:
            problems.append("the active seat may answer its own window")
    if state["held"] is not None and state["window"] is None:
        problems.append("an action is held with no window open")
    if state["phase"] == "selling" and state["window"] is None:
        problems.append("a sale is pending with no window open")
    if not rules.mayi_melds and any(m["kind"] == "mayi" for m in state["melds"]):
        problems.append("a MAYI meld in a ruleset without them")
    finisher = state.get("finisher")
    if finisher is not None and state["hands"][finisher]:
        problems.append("the seat that went out holds cards")
    for seat, hand in enumerate(state["hands"]):
        if seat != state["active"] and any(c in hand for c in state.get("swapped") or []):
            problems.append(f"seat {seat} kept a swapped wild past its turn")
    if not state["game_over"]:
        problems += _view_leaks(state)
    return problems


def _view_leaks(state: State) -> list[str]:
    problems = []
    n = state["players"]
    hidden_stock = set(state["stock"])
    # What every seat may see: the table, the discard pile, a wild taken off the table in plain
    # sight and a card taken from the pile.
    public = {c for m in state["melds"] for c in m["cards"]} | set(state["discard"])
    public |= set(state.get("swapped") or [])
    public |= {card for _, card in state.get("taken") or []}
    for seat in [*range(n), None]:
        v = view(state, seat)
        # Collect the view's strings once (values; and keys only for the seed): doing it per
        # card made the check quadratic, and walking the view twice doubled its cost.
        ids, keys = _ids_and_keys(v)
        # Only a seed long enough to be unmistakable is looked for (the platform's are 64 hex
        # digits): a short test seed such as "Fals" or "draw" also occurs in honest values.
        seed = state["seed"]
        if len(seed) >= 12 and any(seed in s for s in (*ids, *keys)):
            problems.append(f"view for {seat} shows the seed")
        visible = (public | set(state["hands"][seat])) if seat is not None else public
        for other in range(n):
            if other == seat:
                continue
            leaked = [c for c in state["hands"][other] if c not in visible and c in ids]
            if leaked:
                problems.append(f"view for {seat} shows seat {other}'s cards {leaked}")
        if hidden_stock & (ids - visible):
            problems.append(f"view for {seat} shows stock cards")
    return problems


_SCALARS = (int, bool, float, type(None))


def _ids_and_keys(obj: object) -> tuple[set[str], set[str]]:
    """Every string value, and every string key, in a JSON-like object (one walk: this runs
    for every seat's view after every move of the simulator and the property tests)."""
    values: set[str] = set()
    keys: set[object] = set()
    stack: list[object] = [obj]
    while stack:
        x = stack.pop()
        # Exact types first (a view is built of dicts, lists and strings), then subclasses.
        if type(x) is str:
            values.add(x)
        elif type(x) is dict:
            keys.update(x)
            stack.extend(x.values())
        elif type(x) is list:
            stack.extend(x)
        elif type(x) in _SCALARS:
            continue
        elif isinstance(x, str):
            values.add(x)
        elif isinstance(x, dict):
            keys.update(x)
            stack.extend(x.values())
        elif isinstance(x, list | tuple):
            stack.extend(x)
    return values, {k for k in keys if isinstance(k, str)}
