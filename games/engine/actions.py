"""``apply``: the state machine. Validate an action completely, then change a copy of the state.

Each handler checks everything before it moves a card, so a refused action leaves nothing
half-done; ``apply`` works on a copy anyway, so the caller's state is never touched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import CardError, parse_card
from .contract import assign_ids, solve_exact
from .errors import IllegalMove
from .state import RoundOver, State, copy_state, draw_from_stock, end_round, ruleset_of
from .table import classify, lay_off_on, layoff_ends, mayi_group

PLAYER_ACTIONS = (
    "draw",
    "lay_down",
    "lay_off",
    "mayi_meld",
    "discard",
    "pass",
    "may_i",
    "no_thanks",
)
PLATFORM_ACTIONS = ("close_window", "timeout")
MAX_AUTO_STEPS = 200


def apply(state: State, seat: int | None, action: dict) -> tuple[State, list[dict]]:
    """Apply one action for ``seat`` (``None`` for the platform). Returns ``(new_state, events)``.

    Raises :class:`IllegalMove` and leaves ``state`` untouched when the rules refuse it.

    >>> from games.engine.state import new_game
    >>> st = new_game(3, "doc")
    >>> st2, events = apply(st, st["active"], {"type": "draw", "source": "discard"})
    >>> st2["phase"], st["phase"], events[0]["type"]
    ('play', 'draw', 'drew')
    """
    if not isinstance(state, dict) or "hands" not in state:
        raise IllegalMove("bad_state", "not a game state")
    if not isinstance(action, dict):
        raise IllegalMove("bad_action", f"an action is a JSON object, not {type(action).__name__}")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in PLAYER_ACTIONS + PLATFORM_ACTIONS:
        raise IllegalMove("unknown_action", f"unknown action type {kind!r}")
    if kind in PLATFORM_ACTIONS:
        if seat is not None:
            raise IllegalMove("platform_only", f"{kind} is sent by the platform, not by a seat")
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["players"]:
        raise IllegalMove("bad_seat", f"no seat {seat!r} at this table")
    if state["game_over"]:
        raise IllegalMove("game_over", "the game is over")
    st = copy_state(state)
    events: list[dict] = []
    st = _step(st, seat, action, events)
    st["moves"] += 1
    return st, events


def _step(st: State, seat: int | None, action: dict, events: list[dict]) -> State:
    try:
        result = HANDLERS[action["type"]](st, seat, action, events)
    except RoundOver:
        return st
    return st if result is None else result


# -- field checks ------------------------------------------------------------------------
def _where(st: State) -> str:
    return f"in round {st['round']}, phase {st['phase']}, seat {st['active']} to play"


def _card(action: dict, field: str = "card") -> str:
    card = action.get(field)
    if not isinstance(card, str):
        raise IllegalMove("bad_action", f"{action['type']} needs {field!r}: a card id")
    try:
        parse_card(card)
    except CardError:
        raise IllegalMove("bad_card", f"{card!r} is not a card id") from None
    return card


def _card_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not value:
        raise IllegalMove("bad_action", f"{what} must be a non-empty list of card ids")
    for card in value:
        if not isinstance(card, str):
            raise IllegalMove("bad_action", f"{what} must hold card ids, not {card!r}")
        try:
            parse_card(card)
        except CardError:
            raise IllegalMove("bad_card", f"{card!r} is not a card id") from None
    if len(set(value)) != len(value):
        raise IllegalMove("duplicate_card", f"{what} names a card twice")
    return value


def _in_hand(st: State, seat: int, cards: list[str]) -> None:
    hand = st["hands"][seat]
    missing = [c for c in cards if c not in hand]
    if missing:
        raise IllegalMove(
            "card_not_in_hand", f"{' '.join(missing)} not in seat {seat}'s hand ({' '.join(hand)})"
        )


def _require_turn(st: State, seat: int, phases: tuple[str, ...]) -> None:
    if seat != st["active"]:
        raise IllegalMove("not_your_turn", f"seat {seat} acted {_where(st)}")
    if st["phase"] not in phases:
        if st["phase"] == "draw":
            raise IllegalMove("must_draw", f"draw a card first ({_where(st)})")
        if st["phase"] == "done":
            raise IllegalMove("turn_over", "your turn is over; it ends when the buy window closes")
        raise IllegalMove("wrong_phase", f"not now: {_where(st)}")


def _went_out_check(st: State, seat: int, events: list[dict]) -> None:
    if not st["hands"][seat] and st["down"][seat]:
        end_round(st, seat, events, reason="went_out")
        raise RoundOver


def _next_turn(st: State, events: list[dict]) -> None:
    st["active"] = (st["active"] + 1) % st["players"]
    st["phase"] = "draw"
    st["laid_down_this_turn"] = False
    st["early"] = [None] * st["players"]
    events.append({"type": "turn", "seat": st["active"]})


def _table(st: State, kind: str, owner: int, fields: dict) -> dict:
    meld = {"id": f"m{st['next_meld']}", "kind": kind, "owner": owner, **fields}
    st["next_meld"] += 1
    st["melds"].append(meld)
    return meld


def _take_from_hand(st: State, seat: int, cards: list[str]) -> None:
    hand = st["hands"][seat]
    for c in cards:
        hand.remove(c)


# -- drawing and buying ------------------------------------------------------------------
def _draw(st: State, seat: int, action: dict, events: list[dict]) -> None:
    _require_turn(st, seat, ("draw",))
    source = action.get("source")
    if source not in ("stock", "discard"):
        raise IllegalMove("bad_action", "draw needs source 'stock' or 'discard'")
    hand = st["hands"][seat]
    if source == "discard":
        if not st["discard"]:
            raise IllegalMove("empty_discard", "the discard pile is empty")
        card = st["discard"].pop()
        st["discard_from"].pop()
        hand.append(card)
        st["phase"] = "play"
        st["early"] = [None] * st["players"]
        events.append({"type": "drew", "seat": seat, "source": "discard", "card": card})
        return
    hand.append(draw_from_stock(st, events))
    st["phase"] = "play"
    events.append({"type": "drew", "seat": seat, "source": "stock"})
    _open_window(st, events)


def window_eligible(st: State, active: int) -> list[int]:
    """Seats that may buy the discard top while ``active`` plays, in priority order."""
    if not st["discard"]:
        return []
    rules = ruleset_of(st)
    n = st["players"]
    discarder = st["discard_from"][-1]
    cap = rules.max_buys_per_round
    seats = []
    for k in range(1, n):
        s = (active + k) % n
        if s == discarder or (cap is not None and st["buys"][s] >= cap):
            continue
        seats.append(s)
    return seats


def _open_window(st: State, events: list[dict]) -> None:
    eligible = window_eligible(st, st["active"])
    early = st["early"]
    st["early"] = [None] * st["players"]
    if not eligible:
        return
    answers = [early[s] or ("no_thanks" if st["never_buy"][s] else None) for s in eligible]
    st["window"] = {
        "card": st["discard"][-1],
        "discarder": st["discard_from"][-1],
        "eligible": eligible,
        "answers": answers,
    }
    events.append({"type": "window_opened", "card": st["discard"][-1], "eligible": eligible})
    _resolve_window(st, events, force=False)


def _resolve_window(st: State, events: list[dict], force: bool) -> None:
    """Close the window if priority already decides it (or ``force``: unanswered = pass)."""
    window = st["window"]
    winner = None
    for s, answer in zip(window["eligible"], window["answers"], strict=True):
        if answer == "may_i":
            winner = s
            break
        if answer is None and not force:
            return
    st["window"] = None
    if winner is None:
        events.append({"type": "window_closed", "card": window["card"], "buyer": None})
    else:
        _sell(st, winner, events)
    held = st["held"]
    if held:
        st["held"] = None
        st["phase"] = "play"
        if held["type"] == "discard":
            _do_discard(st, st["active"], held["card"], events)
        else:
            _do_pass(st, events)


def _sell(st: State, buyer: int, events: list[dict]) -> None:
    rules = ruleset_of(st)
    card = st["discard"].pop()
    st["discard_from"].pop()
    hand = st["hands"][buyer]
    hand.append(card)
    st["buys"][buyer] += 1
    events.append({"type": "window_closed", "card": card, "buyer": buyer})
    events.append({"type": "bought", "seat": buyer, "card": card})
    for _ in range(rules.penalty_cards_per_buy):
        hand.append(draw_from_stock(st, events))


def _answer(st: State, seat: int, action: dict, events: list[dict]) -> None:
    answer = action["type"]
    window = st["window"]
    if window is not None:
        if seat not in window["eligible"]:
            raise IllegalMove("not_eligible", _why_not_eligible(st, seat))
        i = window["eligible"].index(seat)
        if window["answers"][i] is not None:
            raise IllegalMove(
                "already_answered", f"seat {seat} already said {window['answers'][i]}"
            )
        window["answers"][i] = answer
        events.append({"type": "answered", "seat": seat, "answer": answer, "card": window["card"]})
        _resolve_window(st, events, force=False)
        return
    if st["phase"] != "draw" or not st["discard"]:
        raise IllegalMove("no_window", "there is no discard to answer for right now")
    # Early answer [D]: for the card on the pile before the active player draws.
    if seat not in window_eligible(st, st["active"]):
        raise IllegalMove("not_eligible", _why_not_eligible(st, seat))
    if st["early"][seat] is not None:
        raise IllegalMove("already_answered", f"seat {seat} already said {st['early'][seat]}")
    st["early"][seat] = answer
    events.append({"type": "answered", "seat": seat, "answer": answer, "card": st["discard"][-1]})


def _why_not_eligible(st: State, seat: int) -> str:
    if seat == st["active"]:
        return "the active player cannot buy; draw the discard instead"
    window = st["window"]
    discarder = (
        window["discarder"] if window else (st["discard_from"][-1] if st["discard"] else None)
    )
    if seat == discarder:
        return "you cannot buy back your own discard"
    cap = ruleset_of(st).max_buys_per_round
    if cap is not None and st["buys"][seat] >= cap:
        return f"you already bought {cap} times this round"
    return "you cannot buy this card"


def _close_window(st: State, seat: None, action: dict, events: list[dict]) -> None:
    if st["window"] is None:
        raise IllegalMove("no_window", "no buy window is open")
    events.append({"type": "window_timer", "card": st["window"]["card"]})
    _resolve_window(st, events, force=True)


# -- melding ---------------------------------------------------------------------------
def _lay_down(st: State, seat: int, action: dict, events: list[dict]) -> None:
    _require_turn(st, seat, ("play",))
    if st["down"][seat]:
        raise IllegalMove("already_down", "your contract is already down this round")
    rules = ruleset_of(st)
    contract = rules.contract(st["round"])
    has_cards, has_melds = "cards" in action, "melds" in action
    if has_cards == has_melds:
        raise IllegalMove("bad_action", "lay_down needs either 'cards' or 'melds'")
    if has_cards:
        cards = _card_list(action["cards"], "cards")
        _in_hand(st, seat, cards)
        plans = solve_exact([parse_card(c) for c in cards], contract.books, contract.runs)
        if plans is None:
            raise IllegalMove(
                "no_contract",
                f"{' '.join(cards)} cannot be split into exactly {contract.describe()} "
                "using every card",
            )
        groups = assign_ids(cards, plans)
    else:
        groups = action["melds"]
        if not isinstance(groups, list) or not groups:
            raise IllegalMove("bad_action", "melds must be a non-empty list of lists of card ids")
        for g in groups:
            _card_list(g, "each meld")
        flat = [c for g in groups for c in g]
        if len(set(flat)) != len(flat):
            raise IllegalMove("duplicate_card", "a card appears in two melds")
        _in_hand(st, seat, flat)
    wild_numbers = action.get("wilds") or {}
    if not isinstance(wild_numbers, dict) or not all(
        isinstance(k, str) and k.endswith("?") and isinstance(v, int) and not isinstance(v, bool)
        for k, v in wild_numbers.items()
    ):
        raise IllegalMove("bad_action", "wilds maps a wild's card id to the number it stands for")
    made = []
    for g in groups:
        found = classify(g, wild_numbers)
        if found is None:
            raise IllegalMove("invalid_meld", f"{' '.join(g)} is neither a book nor a run")
        made.append(found)
    books = sum(1 for kind, _ in made if kind == "book")
    runs = len(made) - books
    if (books, runs) != (contract.books, contract.runs):
        raise IllegalMove(
            "wrong_contract",
            f"round {st['round']} needs {contract.describe()}, not {books} books and {runs} runs",
        )
    tabled = []
    for kind, fields in made:
        _take_from_hand(st, seat, fields["cards"])
        tabled.append(_table(st, kind, seat, fields))
    st["down"][seat] = True
    st["laid_down_this_turn"] = True
    events.append({"type": "laid_down", "seat": seat, "melds": [dict(m) for m in tabled]})
    _went_out_check(st, seat, events)


def _lay_off(st: State, seat: int, action: dict, events: list[dict]) -> None:
    _require_turn(st, seat, ("play",))
    rules = ruleset_of(st)
    if not st["down"][seat]:
        raise IllegalMove("contract_not_down", "lay down your contract before laying off")
    if st["laid_down_this_turn"] and not rules.lay_off_on_lay_down_turn:
        raise IllegalMove("not_this_turn", "you may not lay off on the turn you lay down")
    card = _card(action)
    _in_hand(st, seat, [card])
    meld_id = action.get("meld")
    meld = next((m for m in st["melds"] if m["id"] == meld_id), None)
    if meld is None:
        raise IllegalMove("unknown_meld", f"no meld {meld_id!r} on the table")
    end = action.get("end")
    if end not in (None, "low", "high"):
        raise IllegalMove("bad_action", "end must be 'low' or 'high'")
    if meld["kind"] == "mayi":
        raise IllegalMove("mayi_meld_closed", "nothing may be added to a MAYI meld")
    ends = layoff_ends(meld, card)
    if meld["kind"] == "run" and end is not None:
        ends = [e for e in ends if e == end]
    if not ends:
        raise IllegalMove(
            "does_not_fit", f"{card} cannot be laid off on {meld_id} ({' '.join(meld['cards'])})"
        )
    st["hands"][seat].remove(card)
    lay_off_on(meld, card, ends[0])
    events.append({"type": "laid_off", "seat": seat, "card": card, "meld": meld_id, "end": ends[0]})
    _went_out_check(st, seat, events)


def _mayi_meld(st: State, seat: int, action: dict, events: list[dict]) -> None:
    rules = ruleset_of(st)
    if not rules.mayi_melds:
        raise IllegalMove("no_mayi_melds", f"{rules.name} has no MAYI melds")
    _require_turn(st, seat, ("draw", "play"))
    cards = _card_list(action.get("cards"), "cards")
    _in_hand(st, seat, cards)
    fields = mayi_group(cards)
    if fields is None:
        raise IllegalMove(
            "invalid_meld",
            f"{' '.join(cards)} is no MAYI meld (one each of M A Y I, same or consecutive numbers, no wilds)",
        )
    _take_from_hand(st, seat, cards)
    meld = _table(st, "mayi", seat, fields)
    st["mayi_count"][seat] += 1
    events.append(
        {"type": "mayi_meld", "seat": seat, "meld": dict(meld), "score": rules.mayi_meld_score}
    )
    if st["down"][seat]:
        _went_out_check(st, seat, events)
        return
    hand = st["hands"][seat]
    for _ in range(rules.mayi_meld_replacements):
        hand.append(draw_from_stock(st, events))
    events.append({"type": "replacements", "seat": seat, "count": rules.mayi_meld_replacements})


# -- ending a turn -------------------------------------------------------------------------
def _discard(st: State, seat: int, action: dict, events: list[dict]) -> None:
    _require_turn(st, seat, ("play",))
    card = _card(action)
    _in_hand(st, seat, [card])
    rules = ruleset_of(st)
    if st["round"] in rules.no_final_discard_rounds and len(st["hands"][seat]) == 1:
        raise IllegalMove(
            "no_final_discard",
            f"round {st['round']} has no final discard: meld or lay off your last card, or pass",
        )
    if st["window"] is not None:
        st["held"] = {"type": "discard", "card": card}
        st["phase"] = "done"
        events.append({"type": "discard_held", "seat": seat})
        return
    _do_discard(st, seat, card, events)


def _do_discard(st: State, seat: int, card: str, events: list[dict]) -> None:
    st["hands"][seat].remove(card)
    st["discard"].append(card)
    st["discard_from"].append(seat)
    events.append({"type": "discarded", "seat": seat, "card": card})
    _went_out_check(st, seat, events)
    _next_turn(st, events)


def playable_anywhere(st: State, card: str) -> bool:
    return any(layoff_ends(m, card) for m in st["melds"])


def _pass(st: State, seat: int, action: dict, events: list[dict]) -> None:
    _require_turn(st, seat, ("play",))
    rules = ruleset_of(st)
    if st["round"] not in rules.no_final_discard_rounds:
        raise IllegalMove(
            "no_pass", f"passing is only for a last card in round 7, not round {st['round']}"
        )
    hand = st["hands"][seat]
    if not st["down"][seat] or len(hand) != 1:
        raise IllegalMove("cannot_pass", "you pass only with your contract down and one card left")
    if playable_anywhere(st, hand[0]) and not (
        st["laid_down_this_turn"] and not rules.lay_off_on_lay_down_turn
    ):
        raise IllegalMove("must_play", f"{hand[0]} can be laid off: play it to go out")
    if st["window"] is not None:
        st["held"] = {"type": "pass"}
        st["phase"] = "done"
        events.append({"type": "pass_held", "seat": seat})
        return
    _do_pass(st, events)


def _do_pass(st: State, events: list[dict]) -> None:
    events.append({"type": "passed", "seat": st["active"]})
    _next_turn(st, events)


# -- the platform's clock ---------------------------------------------------------------------
def _timeout(st: State, seat: None, action: dict, events: list[dict]) -> State:
    if st["phase"] not in ("draw", "play"):
        raise IllegalMove("no_turn_pending", "the active player's turn is already over")
    from .bots import choose_action, fallback_action

    player = st["active"]
    round_no = st["round"]
    events.append({"type": "timed_out", "seat": player})
    for _ in range(MAX_AUTO_STEPS):
        if st["game_over"] or st["round"] != round_no or st["active"] != player:
            break
        if st["phase"] not in ("draw", "play"):
            break
        chosen = choose_action(st, player) or fallback_action(st, player)
        try:
            st = _apply_inner(st, player, chosen, events)
        except IllegalMove:
            st = _apply_inner(st, player, fallback_action(st, player), events)
    return st


def _apply_inner(st: State, seat: int, action: dict, events: list[dict]) -> State:
    inner = copy_state(st)
    sub: list[dict] = []
    inner = _step(inner, seat, action, sub)
    for e in sub:
        e["auto"] = True
    events.extend(sub)
    return inner


HANDLERS: dict[str, Callable[..., State | None]] = {
    "draw": _draw,
    "lay_down": _lay_down,
    "lay_off": _lay_off,
    "mayi_meld": _mayi_meld,
    "discard": _discard,
    "pass": _pass,
    "may_i": _answer,
    "no_thanks": _answer,
    "close_window": _close_window,
    "timeout": _timeout,
}
