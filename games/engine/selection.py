"""A selection of cards checked against the round, for the page's contract meter and its
lay-off targets: what the round needs, what the selected and staged cards make, whether the
engine would take them as a lay-down now, and where one selected card may be laid off.

Pure, like the rest of the engine: it reads a state and the seat's own cards only (every card
asked about must be in that seat's hand), and asks the solver and the engine's own checks; no
rule is written here again.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from .actions import apply
from .cards import face_data, parse_card
from .contract import assign_ids, solve_best, solve_exact
from .errors import IllegalMove
from .legal import lay_off_options, lay_offs_allowed
from .rulesets import Contract
from .state import State, ruleset_of
from .table import classify, layoff_ends

MAX_CARDS = 40


def _labels(cards: list[str]) -> str:
    return " ".join(face_data(c)["label"] for c in cards)


def _count(books: int, runs: int) -> str:
    return Contract(books, runs).describe() or "nothing"


def _ids(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise IllegalMove("bad_action", f"{what} must be a list of card ids")
    return value


def _partition(
    free: list[str], books: int, runs: int, cs: Any
) -> tuple[list[tuple[str, list[str]]], bool]:
    """The most melds (up to ``books`` books and ``runs`` runs) the free cards make: using
    every card when some split does (``True``), else from a subset (the solver's best)."""
    if not free:
        return [], True
    parsed = [parse_card(c) for c in free]
    combos = sorted(
        (c for c in product(range(books + 1), range(runs + 1)) if c != (0, 0)),
        key=lambda c: (-(c[0] + c[1]), -c[0]),
    )
    for b, r in combos:
        plans = solve_exact(parsed, b, r, cs)
        if plans is not None:
            return list(zip([p[0] for p in plans], assign_ids(free, plans), strict=True)), True
    for b, r in combos:
        plans = solve_best(parsed, b, r, cs)
        if plans is not None:
            return list(zip([p[0] for p in plans], assign_ids(free, plans), strict=True)), False
    return [], False


def check_selection(state: State, seat: int, cards: Any, melds: Any = None) -> dict[str, Any]:
    """What ``cards`` (selected) and ``melds`` (staged groups) of ``seat``'s hand make.

    ``needs``: the round's contract (``choices``: every contract it accepts); ``makes``: the
    books and runs found (staged groups as grouped, the selected cards split by the solver);
    ``melds``: those groups (``kinds`` beside them); ``leftover``: selected cards in no meld;
    ``complete``: they make exactly a contract with every card; ``can_lay_down``: the engine
    takes them as a lay-down now (else ``reason``, the engine's own words); ``lay_offs``: for
    one selected card, the lay-off actions the engine takes now; ``message``: all that in a
    player's words.

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc"); st["hands"][0] = ["w7M", "w7A", "w?", "w4I", "w5I", "w6I"]
    >>> out = check_selection(st, 0, ["w7M", "w7A", "w?"])
    >>> out["needs"], out["makes"], out["complete"], out["message"]
    ({'books': 2, 'runs': 0}, {'books': 1, 'runs': 0}, False, '7M 7A ? is a book; round 1 also needs 1 book')
    """
    n = state["players"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise IllegalMove("bad_seat", f"no seat {seat!r} at this table")
    selected = _ids(cards if cards is not None else [], "cards")
    groups = [_ids(g, "each meld") for g in _ids_list(melds)]
    every = [*selected, *(c for g in groups for c in g)]
    if len(every) > MAX_CARDS:
        raise IllegalMove("bad_action", f"at most {MAX_CARDS} cards")
    if len(set(every)) != len(every):
        raise IllegalMove("duplicate_card", "a card is selected twice")
    hand = state["hands"][seat]
    missing = [c for c in every if c not in hand]
    if missing:
        raise IllegalMove("card_not_in_hand", f"{' '.join(missing)} is not in your hand")
    rules = ruleset_of(state)
    round_no = state["round"]
    choices = rules.contract_choices(round_no, state["options"])
    staged: list[tuple[str | None, list[str]]] = []
    for g in groups:
        classified = classify(g) if g else None
        staged.append((classified[0] if classified else None, g))
    staged_ids = {c for _, g in staged for c in g}
    free = [c for c in selected if c not in staged_ids]
    valid: list[tuple[str, list[str]]] = [(k, g) for k, g in staged if k is not None]
    sb = sum(1 for k, _ in valid if k == "book")
    sr = len(valid) - sb

    best: dict[str, Any] | None = None
    for choice in choices:
        found: list[tuple[str, list[str]]] = []
        exact = not free
        if choice.books >= sb and choice.runs >= sr:
            found, exact = _partition(free, choice.books - sb, choice.runs - sr, rules.cards)
        made = valid + found
        books = sum(1 for k, _ in made if k == "book")
        runs = len(made) - books
        used = {c for _, g in found for c in g}
        leftover = [c for c in free if c not in used]
        complete = (
            exact
            and not leftover
            and len(valid) == len(staged)
            and (books, runs) == (choice.books, choice.runs)
        )
        progress = (complete, min(books, choice.books) + min(runs, choice.runs), -len(leftover))
        if best is None or progress > best["progress"]:
            best = {
                "progress": progress,
                "choice": choice,
                "made": made,
                "leftover": leftover,
                "complete": complete,
            }
    assert best is not None
    choice = best["choice"]
    made = best["made"]
    books = sum(1 for k, _ in made if k == "book")
    runs = len(made) - books
    out: dict[str, Any] = {
        "needs": {"books": choice.books, "runs": choice.runs},
        "choices": [{"books": c.books, "runs": c.runs, "text": c.describe()} for c in choices],
        "makes": {"books": books, "runs": runs},
        "melds": [g for _, g in made],
        "kinds": [k for k, _ in made],
        "invalid": [g for k, g in staged if k is None],
        "leftover": best["leftover"],
        "complete": best["complete"],
        "down": state["down"][seat],
        "can_lay_down": False,
        "reason": None,
    }
    if best["complete"]:
        try:
            _try(state, seat, {"type": "lay_down", "melds": out["melds"]})
            out["can_lay_down"] = True
        except IllegalMove as exc:
            out["reason"] = exc.message
    out["lay_offs"], lay_off_reason = _lay_offs(state, seat, selected, groups)
    out["message"] = _message(out, round_no, choice, staged, lay_off_reason)
    return out


def _ids_list(melds: Any) -> list[Any]:
    if melds is None:
        return []
    if not isinstance(melds, list):
        raise IllegalMove("bad_action", "melds must be a list of lists of card ids")
    return melds


def _try(state: State, seat: int, action: dict) -> None:
    """Would the engine take ``action`` now? Raises its IllegalMove (``apply`` changes
    nothing it is given)."""
    apply(state, seat, action)


def _lay_offs(
    state: State, seat: int, selected: list[str], groups: list[list[str]]
) -> tuple[list[dict] | None, str | None]:
    """For one selected card: the lay-off actions the engine takes now, or why none."""
    if len(selected) != 1 or groups:
        return None, None
    card = selected[0]
    if lay_offs_allowed(state, seat):
        return [a for a in lay_off_options(state, seat) if a["card"] == card], None
    fits = [m for m in state["melds"] if layoff_ends(m, card)]
    if not fits:
        return [], None
    action: dict[str, Any] = {"type": "lay_off", "card": card, "meld": fits[0]["id"]}
    try:
        _try(state, seat, action)
    except IllegalMove as exc:
        return [], exc.message
    return [], None


def _message(
    out: dict[str, Any],
    round_no: int,
    choice: Contract,
    staged: list[tuple[str | None, list[str]]],
    lay_off_reason: str | None,
) -> str:
    parts = []
    if out["down"] and out["lay_offs"] is not None:
        card = face_data(out["leftover"][0])["label"] if out["leftover"] else ""
        if out["lay_offs"]:
            n = len({a["meld"] for a in out["lay_offs"]})
            return f"{card} can be laid off on {n} meld{'s' if n > 1 else ''}"
        if lay_off_reason:
            return f"{card}: {lay_off_reason}"
    for g in [g for k, g in staged if k is None]:
        parts.append(f"{_labels(g)} is neither a book nor a run")
    for kind, g in zip(out["kinds"], out["melds"], strict=True):
        parts.append(f"{_labels(g)} is a {kind}")
    if out["leftover"]:
        parts.append(
            f"{_labels(out['leftover'])} {'is' if len(out['leftover']) == 1 else 'are'} in no meld"
        )
    if out["down"]:
        parts.append("your contract is down")
    elif out["complete"]:
        parts.append(
            f"that is {choice.describe()}: "
            + ("ready to lay down" if out["can_lay_down"] else out["reason"] or "not now")
        )
    else:
        makes = out["makes"]
        more_b = max(0, choice.books - makes["books"])
        more_r = max(0, choice.runs - makes["runs"])
        if (more_b, more_r) == (0, 0):
            parts.append(f"round {round_no} needs exactly {choice.describe()}")
        elif not out["melds"]:
            parts.append(f"round {round_no} needs {choice.describe()}")
        else:
            parts.append(f"round {round_no} also needs {_count(more_b, more_r)}")
    return "; ".join(parts)
