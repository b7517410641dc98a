"""Build engine states in exact situations, written in the compact card notation.

``make_state`` produces a state dict with every field ``state.py`` keeps, every card id in exactly
one place (the cards a test does not name fill the stock, or another place it picks), and
``check_invariants`` passing on it::

    st = make_state(
        players=3, round=2, active=0, phase="play",
        hands={0: "w7M b7A w? | w4I b5I w6I w7I", 1: "3M 3A 9Y"},
        discard="w2M b4I", stock="w5M w6M",
        melds={1: "w9M b9M w9A"},
    )

Notation: tokens are card ids (``w7M``, ``b?``, ``g13I``) or bare faces (``7M``, ``?``), which
take the first free copy (white deck first) once every explicit id is placed. Other rulesets
(``ruleset="petras"``...) use their card set's notation the same way: ``pQH``, ``QH``, ``*R``
(standard), ``x14R``, ``14R``, ``*``, ``_`` (rook); see ``games/engine/cards.py``. ``|`` only groups
for the reader in hands; in ``melds`` and ``mayi`` it separates melds.

Orders: ``discard`` is listed bottom to top (the last token is the top card), as in the state;
``stock`` is listed in draw order (the first token is drawn first). Cards nobody named go under
the named stock cards (``rest="stock"``), under the named discard pile (``rest="discard"``), or
into a seat's hand (``rest=<seat>``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from games.engine import IllegalMove, apply
from games.engine.cards import BGA_CARDS, CardSet, card_set_of, parse_card
from games.engine.invariants import check_invariants
from games.engine.rng import SeededStream
from games.engine.rulesets import get_ruleset
from games.engine.state import STATE_VERSION
from games.engine.table import classify, mayi_group

State = dict[str, Any]
PREVIOUS = object()  # default discarder of the top card: the seat before the active one


def groups(text: str) -> list[list[str]]:
    """``"w7M b7A | w4I"`` -> ``[["w7M", "b7A"], ["w4I"]]`` (empty groups dropped)."""
    return [g.split() for g in text.split("|") if g.split()]


def tokens(text: str | Iterable[str] | None) -> list[str]:
    """All tokens of a notation string (``|`` ignored), or a list passed through."""
    if text is None:
        return []
    if isinstance(text, str):
        return text.replace("|", " ").split()
    return list(text)


def cards(text: str) -> list[str]:
    """Card ids of a notation string; every token must be an explicit card id."""
    out = tokens(text)
    for c in out:
        parse_card(c)
    return out


class _Pool:
    """The game's card ids not yet placed, in a fixed shuffled order (for fillers)."""

    def __init__(self, players: int, seed: str, ruleset: str = "bga") -> None:
        rules = get_ruleset(ruleset)
        self.cs = rules.cards
        deck = rules.cards.full_deck(rules.decks(players))
        SeededStream(f"helpers:{seed}", 0).shuffle(deck)
        self.free = dict.fromkeys(deck)

    def take_id(self, card: str) -> None:
        if card not in self.free:
            raise ValueError(f"{card} is named twice or is not in this game's decks")
        del self.free[card]

    def take_face(self, face: str) -> str:
        for prefix in self.cs.prefixes:
            if prefix + face in self.free:
                del self.free[prefix + face]
                return prefix + face
        raise ValueError(f"no free copy of {face} left")

    def take_any(self, count: int) -> list[str]:
        out = list(self.free)[:count]
        if len(out) < count:
            raise ValueError(f"only {len(out)} cards left to fill in, {count} wanted")
        for c in out:
            del self.free[c]
        return out


def _is_id(token: str, cs: CardSet = BGA_CARDS) -> bool:
    return token[:1] in cs.prefixes


def _resolve(pool: _Pool, places: list[list[str]]) -> list[list[str]]:
    """Replace bare faces by free card ids, after every explicit id has been reserved."""
    cs = pool.cs
    for place in places:
        for t in place:
            if _is_id(t, cs):
                parse_card(t)
                pool.take_id(t)
    return [[t if _is_id(t, cs) else pool.take_face(t) for t in place] for place in places]


def _seat_map(value: Any, players: int, default: Any) -> list[Any]:
    """A per-seat list from a list, a ``{seat: value}`` dict, or a set of seats (-> bools)."""
    if value is None:
        return [copy.copy(default) for _ in range(players)]
    if isinstance(value, Mapping):
        return [value.get(s, copy.copy(default)) for s in range(players)]
    if isinstance(value, set | frozenset):
        return [s in value for s in range(players)]
    out = list(value)
    assert len(out) == players, f"{out} needs one entry per seat"
    return out


def _tabled(cards_: list[str]) -> tuple[str, dict]:
    """Classify a group as book or run; a run keeps the order given if it is a consistent one
    (so a test can put a wild at either end)."""
    found = classify(cards_)
    if found is None:
        raise ValueError(f"{' '.join(cards_)} is neither a book nor a run")
    kind, fields = found
    if kind == "run":
        top = card_set_of(cards_[0]).top
        parsed = [parse_card(c) for c in cards_]
        starts = {r - i for i, (r, _) in enumerate(parsed) if r}
        if len(starts) == 1:
            start = starts.pop()
            if start >= 1 and start + len(cards_) - 1 <= top:
                fields = {"cards": list(cards_), "suit": fields["suit"], "start": start}
    return kind, fields


def make_state(
    players: int = 3,
    round: int = 1,
    hands: Mapping[int, str] | None = None,
    discard: str = "",
    stock: str = "",
    active: int = 0,
    phase: str = "draw",
    down: Any = None,
    melds: Mapping[int, str] | list[tuple[int, str]] | None = None,
    mayi: Mapping[int, str] | None = None,
    discarder: Any = PREVIOUS,
    rest: str | int = "stock",
    hand_size: int | None = None,
    dealer: int | None = None,
    buys: Any = None,
    mayi_count: Any = None,
    never_buy: Any = None,
    early: Any = None,
    window: Mapping[str, Any] | None = None,
    held: Mapping[str, Any] | None = None,
    laid_down_now: bool = False,
    reshuffles: int = 0,
    scores: list[list[int]] | None = None,
    rounds_out: Any = None,
    seed: str = "helpers-seed",
    check: bool = True,
    ruleset: str = "bga",
    options: Mapping[str, Any] | None = None,
    calls: list[int] | None = None,
    finisher: int | None = None,
    last_turns: list[int] | None = None,
    swapped: list[str] | None = None,
) -> State:
    """A consistent state in an exact situation (see the module docstring for the notation).

    Seats not in ``hands`` get ``hand_size`` cards (default: the round's deal size) from the
    unnamed cards. ``melds`` maps an owner to ``"group | group"`` (books and runs; a run keeps the
    order given when it is a consistent one); ``mayi`` maps an owner to MAYI melds. ``down``
    defaults to the owners of books and runs. ``window`` gives ``eligible`` and ``answers``
    (``card`` and ``discarder`` are filled in from the discard pile).
    """
    rules = get_ruleset(ruleset)
    n = players
    hands = dict(hands or {})
    meld_specs: list[tuple[str, int, list[str]]] = []
    meld_items = melds.items() if isinstance(melds, Mapping) else (melds or [])
    for owner, text in meld_items:
        meld_specs += [("table", owner, g) for g in groups(text)]
    for owner, text in (mayi or {}).items():
        meld_specs += [("mayi", owner, g) for g in groups(text)]

    pool = _Pool(n, seed, ruleset)
    hand_tokens = [tokens(hands[s]) if s in hands else [] for s in range(n)]
    named = [*hand_tokens, tokens(discard), tokens(stock), *[g for _, _, g in meld_specs]]
    resolved = _resolve(pool, named)
    hand_cards = resolved[:n]
    discard_cards, stock_cards = resolved[n], resolved[n + 1]
    meld_cards = resolved[n + 2 :]

    size = rules.deal_size(round) if hand_size is None else hand_size
    for s in range(n):
        if s not in hands:
            hand_cards[s] = pool.take_any(size)
    leftover = pool.take_any(len(pool.free))
    if rest == "stock":
        stock_list = leftover + stock_cards[::-1]
        pile = discard_cards
    elif rest == "discard":
        stock_list = stock_cards[::-1]
        pile = leftover + discard_cards
    else:
        stock_list = stock_cards[::-1]
        pile = discard_cards
        hand_cards[int(rest)] += leftover
    discard_from: list[int | None] = [None] * len(pile)
    if pile:
        discard_from[-1] = (active - 1) % n if discarder is PREVIOUS else discarder

    tabled = []
    for i, ((kind, owner, _), group) in enumerate(zip(meld_specs, meld_cards, strict=True)):
        if kind == "mayi":
            fields = mayi_group(group)
            if fields is None:
                raise ValueError(f"{' '.join(group)} is no MAYI meld")
            meld_kind = "mayi"
        else:
            meld_kind, fields = _tabled(group)
        tabled.append({"id": f"m{i + 1}", "kind": meld_kind, "owner": owner, **fields})

    owners_down = {m["owner"] for m in tabled if m["kind"] != "mayi"}
    if mayi_count is None:
        mayi_count = [
            sum(1 for m in tabled if m["kind"] == "mayi" and m["owner"] == s) for s in range(n)
        ]
    if scores is None:
        scores = [[0] * n for _ in range(round - 1)]
    st: State = {
        "v": STATE_VERSION,
        "ruleset": ruleset,
        "options": dict(options or {}),
        "seed": seed,
        "rng": 0,
        "players": n,
        "round": round,
        "dealer": (active - 1) % n if dealer is None else dealer,
        "never_buy": [bool(x) for x in _seat_map(never_buy, n, False)],
        "scores": [list(r) for r in scores],
        "totals": [sum(r[s] for r in scores) for s in range(n)],
        "rounds_out": _seat_map(rounds_out, n, 0),
        "game_over": False,
        "places": None,
        "moves": 0,
        "hands": hand_cards,
        "discard": pile,
        "discard_from": discard_from,
        "stock": stock_list,
        "melds": tabled,
        "next_meld": len(tabled) + 1,
        "down": [bool(x) for x in _seat_map(down if down is not None else owners_down, n, False)],
        "laid_down_this_turn": laid_down_now,
        "buys": _seat_map(buys, n, 0),
        "mayi_count": _seat_map(mayi_count, n, 0),
        "reshuffles": reshuffles,
        "active": active,
        "phase": phase,
        "window": None,
        "held": dict(held) if held else None,
        "early": _seat_map(early, n, None),
    }
    if rules.claim == "first_caller":
        st["calls"] = list(calls or [])
    if rules.round_end == "last_turns":
        st["finisher"] = finisher
        st["last_turns"] = list(last_turns or [])
    if swapped:
        st["swapped"] = list(swapped)
    if window is not None:
        st["window"] = {
            "card": pile[-1],
            "discarder": discard_from[-1],
            "eligible": list(window["eligible"]),
            "answers": list(window.get("answers", [None] * len(window["eligible"]))),
        }
        if rules.claim == "first_caller":
            st["window"]["calls"] = list(window.get("calls", []))
    if check:
        problems = check_invariants(st)
        assert not problems, problems
        assert json.loads(json.dumps(st)) == st
    return st


# -- acting and asserting -----------------------------------------------------------------
def act(state: State, seat: int | None, kind: str, **fields: Any) -> tuple[State, list[dict]]:
    """``apply`` with the action written as keywords: ``act(st, 0, "draw", source="stock")``.
    String values of ``cards`` and ``melds`` are parsed from notation."""
    action: dict[str, Any] = {"type": kind, **fields}
    if isinstance(action.get("cards"), str):
        action["cards"] = cards(action["cards"])
    if isinstance(action.get("melds"), str):
        action["melds"] = groups(action["melds"])
    new, events = apply(state, seat, action)
    problems = check_invariants(new)
    assert not problems, problems
    return new, events


def run(state: State, *steps: tuple) -> tuple[State, list[dict]]:
    """Apply several ``(seat, kind, {fields})`` steps; returns the last state and all events."""
    events: list[dict] = []
    for step in steps:
        seat, kind, *rest = step
        state, evs = act(state, seat, kind, **(rest[0] if rest else {}))
        events += evs
    return state, events


def refused(state: State, seat: int | None, action: Any, code: str | None = None) -> IllegalMove:
    """Assert that ``action`` raises ``IllegalMove`` (with ``code``) and leaves the state as it was.
    ``action`` may be anything (garbage included) or ``(kind, {fields})``."""
    if isinstance(action, tuple) and len(action) == 2 and isinstance(action[1], dict):
        kind, fields = action
        action = {"type": kind, **fields}
        for key in ("cards",):
            if isinstance(action.get(key), str):
                action[key] = cards(action[key])
        if isinstance(action.get("melds"), str):
            action["melds"] = groups(action["melds"])
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as info:
        apply(state, seat, action)
    assert state == before, "a refused action changed the state"
    if code is not None:
        assert info.value.code == code, f"expected {code}, got {info.value.code}: {info.value}"
    return info.value


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def event(events: list[dict], kind: str) -> dict:
    """The only event of a type."""
    found = [e for e in events if e["type"] == kind]
    assert len(found) == 1, f"{len(found)} {kind} events in {types(events)}"
    return found[0]


def meld_with(state: State, card: str) -> dict:
    """The tabled meld holding a card id."""
    for m in state["melds"]:
        if card in m["cards"]:
            return m
    raise AssertionError(f"{card} is on no meld")


def same(cards_a: Iterable[str], cards_b: str | Iterable[str]) -> bool:
    """Same multiset of card ids."""
    return sorted(cards_a) == sorted(tokens(cards_b))


def top(state: State) -> str | None:
    return state["discard"][-1] if state["discard"] else None


def next_stock(state: State, k: int = 1) -> list[str]:
    """The next ``k`` cards the stock will give, in draw order."""
    return state["stock"][::-1][:k]


def contrary_bot(state: State, seat: int, *_: Any) -> dict | None:
    """A bot that plays otherwise than every level: it takes the pile's top when it may, lays
    nothing down and throws its last card away (the stand-in for "the bots' code changed")."""
    from games.engine import legal_actions
    from games.engine.bots import fallback_action

    actions = legal_actions(state, seat)
    for kind in ("discard", "pass", "draw"):
        found = [a for a in actions if a["type"] == kind]
        if found:
            return found[-1]
    return fallback_action(state, seat) if actions else None


def change_the_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every bot level (easy, normal, strong and the frozen heuristic) play
    :func:`contrary_bot`: wherever the engine (or the site) holds the bots' ``choose_action``,
    and inside the bots too (whatever their own names are by then)."""
    import sys

    from games.engine import bots
    from games.engine.bots import baseline as bots_baseline

    real = bots.choose_action
    for name, module in list(sys.modules.items()):
        if name.startswith("games") and getattr(module, "choose_action", None) is real:
            monkeypatch.setattr(module, "choose_action", contrary_bot)
    monkeypatch.setattr(bots_baseline, "choose_action", contrary_bot)
    for inner in ("_normal_action", "_easy_action", "strong_action"):
        monkeypatch.setattr(bots, inner, contrary_bot, raising=False)
