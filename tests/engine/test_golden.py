"""Golden scenario files: a start position in the compact notation, then actions, each followed
by what must be true after it. The test replays every file in ``golden/``.

Format (``#`` starts a comment)::

    players: 4                  header lines: make_state keywords (see helpers.make_state)
    round: 2
    active: 0
    phase: draw
    hand 0: w7M w7A w7Y | 4I 5I 6I 7I
    discard: w1M w13Y           bottom to top
    discarder: 3                the top card's discarder (or none)
    stock: w12I w2A             in draw order
    melds 1: w9M w9A w9Y | 5Y 6Y 7Y 8Y
    mayi 2: 3M 3A 3Y 3I
    buys: 0 0 3 0               also: down (seats), never_buy (seats), scores (rows split by |),
                                rounds_out, reshuffles, dealer, seed, rest, hand_size

    > 0 draw stock              an action: seat (or "platform") then the action
        events: drew window_opened
        hand 0: w7M ...         the seat's hand, any order
        meld m2: 4I 5I 6I 7I    a meld's cards, in order (any order for a book)
        stock_top: w2A          the next stock cards, in draw order
        window.eligible: 1 2    a field of the spectator view (window = buy_window)
        view 0.held_discard: w3M   a field of one seat's view
        event round_ended.scores: 0 40 12   a field of the (only) event of a type
        event round_ended.scores.1: 40      list items by index
    ! 3 may_i -> not_eligible   an action that must be refused with that code (state unchanged)

Actions: ``draw stock|discard``, ``lay_down CARDS``, ``lay_down melds CARDS | CARDS``,
``lay_off CARD MELD [low|high]``, ``mayi_meld CARDS``, ``discard CARD``, ``pass``, ``may_i``,
``no_thanks``, ``close_window``, ``timeout``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine import IllegalMove, view

from .helpers import act, cards, groups, make_state, next_stock, refused, same, tokens

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.txt"))


def scalar(token: str) -> Any:
    low = token.lower()
    if low == "none":
        return None
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(token)
    except ValueError:
        return token


def parse_value(text: str, like: Any) -> Any:
    """Parse ``text`` into the shape of ``like`` (the actual value): scalar, list or rows."""
    text = text.strip()
    if text.lower() == "none":
        return None
    if isinstance(like, list) and like and isinstance(like[0], list):
        return [[scalar(t) for t in row.split() if t != "[]"] for row in text.split("|")]
    if isinstance(like, list):
        return [scalar(t) for t in text.split()] if text != "[]" else []
    return scalar(text)


def seats(text: str) -> set[int]:
    return {int(t) for t in text.split()}


HEADER_LISTS = ("buys", "rounds_out")


def parse_header(lines: list[tuple[int, str]]) -> dict:
    kw: dict[str, Any] = {"hands": {}, "melds": [], "mayi": {}}
    for _, line in lines:
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        word, _, arg = key.partition(" ")
        if word == "hand":
            kw["hands"][int(arg)] = value
        elif word == "melds":
            kw["melds"].append((int(arg), value))
        elif word == "mayi":
            kw["mayi"][int(arg)] = value
        elif key in ("players", "round", "active", "dealer", "reshuffles", "hand_size"):
            kw[key] = int(value)
        elif key in ("phase", "seed", "discard", "stock"):
            kw[key] = value
        elif key in ("discarder", "rest"):
            kw[key] = scalar(value)
        elif key in ("down", "never_buy"):
            kw[key] = seats(value)
        elif key in HEADER_LISTS:
            kw[key] = [int(t) for t in value.split()]
        elif key == "scores":
            kw[key] = [[int(t) for t in row.split()] for row in value.split("|")]
        elif key == "title":
            pass
        else:
            raise ValueError(f"unknown header {key!r}")
    return kw


def parse_action(text: str) -> tuple[int | None, dict]:
    seat_text, kind, *args = text.split(maxsplit=2)
    seat = None if seat_text == "platform" else int(seat_text)
    rest = args[0] if args else ""
    action: dict[str, Any] = {"type": kind}
    if kind == "draw":
        action["source"] = rest.strip()
    elif kind == "lay_down":
        if rest.startswith("melds"):
            action["melds"] = groups(rest[len("melds") :])
        else:
            action["cards"] = cards(rest)
    elif kind == "lay_off":
        parts = rest.split()
        action["card"], action["meld"] = parts[0], parts[1]
        if len(parts) > 2:
            action["end"] = parts[2]
    elif kind == "mayi_meld":
        action["cards"] = cards(rest)
    elif kind == "discard":
        action["card"] = rest.strip()
    elif rest.strip():
        raise ValueError(f"{kind} takes no arguments: {text!r}")
    return seat, action


def check(state: dict, events: list[dict], line: str, where: str) -> None:
    key, _, value = line.partition(":")
    key = key.strip()
    spectator = view(state, None)
    if key == "events":
        assert [e["type"] for e in events] == value.split(), where
        return
    word, _, arg = key.partition(" ")
    if word == "hand":
        assert same(state["hands"][int(arg)], value), f"{where}: hand {arg} is {state['hands']}"
        return
    if word == "meld":
        meld = next(m for m in state["melds"] if m["id"] == arg)
        if meld["kind"] == "book":  # a book has no order
            assert same(meld["cards"], value), f"{where}: {meld}"
        else:
            assert meld["cards"] == tokens(value), f"{where}: {meld}"
        return
    if key == "stock_top":
        want = tokens(value)
        assert next_stock(state, len(want)) == want, where
        return
    if word == "event":
        kind, _, field = arg.partition(".")
        found = [e for e in events if e["type"] == kind]
        assert len(found) == 1, f"{where}: {len(found)} {kind} events"
        actual = dig(found[0], field)
        assert actual == parse_value(value, actual), f"{where}: {kind}.{field} is {actual}"
        return
    source = spectator
    if word == "view":
        seat_text, _, key = arg.partition(".")
        source = view(state, int(seat_text))
    if key.split(".")[0] == "window":
        key = "buy_window" + key[len("window") :]
    actual = dig(source, key)
    assert actual == parse_value(value, actual), f"{where}: {key} is {actual!r}"


def dig(obj: Any, path: str) -> Any:
    """``"buy_window.eligible"``, ``"scores.0"``: dict keys and list indexes."""
    for part in path.split("."):
        if obj is None:
            return None
        obj = obj[int(part)] if isinstance(obj, list) else obj[part]
    return obj


def load(path: Path) -> tuple[dict, list]:
    """Header keywords and steps: ``("act", line_no, text, [checks])`` or ``("refuse", ...)``."""
    header: list[tuple[int, str]] = []
    steps: list[list] = []
    for no, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if line.startswith(">"):
            steps.append(["act", no, line[1:].strip(), []])
        elif line.startswith("!"):
            text, _, code = line[1:].partition("->")
            steps.append(["refuse", no, text.strip(), code.strip()])
        elif line[0].isspace():
            assert steps and steps[-1][0] == "act", f"{path.name}:{no}: a check needs an action"
            steps[-1][3].append((no, line.strip()))
        else:
            assert not steps, f"{path.name}:{no}: header line after the first action"
            header.append((no, line))
    return parse_header(header), steps


def replay(path: Path) -> dict:
    kw, steps = load(path)
    state = make_state(**kw)
    for kind, no, text, extra in steps:
        where = f"{path.name}:{no}"
        seat, action = parse_action(text)
        try:
            if kind == "refuse":
                refused(state, seat, action, extra)
                continue
            fields = {k: v for k, v in action.items() if k != "type"}
            state, events = act(state, seat, action["type"], **fields)
        except (AssertionError, IllegalMove) as exc:
            raise AssertionError(f"{where}: {text}: {exc}") from exc
        assert json.loads(json.dumps(state)) == state, where
        for check_no, line in extra:
            check(state, events, line, f"{path.name}:{check_no}")
    return state


def test_there_are_golden_files():
    assert len(FILES) >= 4


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden(path):
    replay(path)
