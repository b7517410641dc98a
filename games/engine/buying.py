"""Drawing and buying: the draw, buy windows, "May I?" answers and sales.

Two orders of play, chosen by ``RuleSet.sale_first``:

- ``bga``: the active player draws from the stock, and that opens a buy window on the discard
  top while the turn goes on (a discard or round-7 pass submitted meanwhile is held).
- ``petras``, ``classic``, ``rook`` (sale first): the active player's ``draw stock`` declares
  the decline and opens the window; the phase is ``selling`` (the active player waits) and the
  stock draw completes when the window closes. With ``sale_chain`` a sale uncovers the next
  card and a new window opens on it, and with ``no_successive_buys`` the seat that just
  bought may not buy the card its purchase uncovered.

Who wins a window is the ``RuleSet.claim`` policy: ``priority`` (the eligible seat nearest
the active player, once every seat before it has passed) or ``first_caller`` (rook: the
earliest "May I?"; the active player decides by drawing the discard to take it, or the stock
to let that caller buy; a "May I?" from the active player itself takes the discard).
"""

from __future__ import annotations

from .errors import IllegalMove
from .rulesets import RULESETS
from .state import (
    State,
    draw_from_stock,
    note_taken,
    own_hand,
    ruleset_of,
    take_discard,
    with_item,
)
from .turns import do_discard, do_pass, require_turn

ANSWER_WORDS = {"may_i": "“May I?”", "no_thanks": "“no thanks”"}


def draw(st: State, seat: int, action: dict, events: list[dict]) -> None:
    require_turn(st, seat, ("draw",))
    source = action.get("source")
    if source not in ("stock", "discard"):
        raise IllegalMove("bad_action", "draw from the stock or the discard pile")
    if source == "discard":
        if not st["discard"]:
            raise IllegalMove("empty_discard", "the discard pile is empty")
        card = take_discard(st)
        own_hand(st, seat).append(card)
        note_taken(st, seat, card)
        st["phase"] = "play"
        st["early"] = [None] * st["players"]
        if "calls" in st:
            st["calls"] = []
        events.append({"type": "drew", "seat": seat, "source": "discard", "card": card})
        return
    if ruleset_of(st).sale_first:
        st["phase"] = "selling"
        events.append({"type": "declined", "seat": seat})
        open_window(st, events)
        return
    card = draw_from_stock(st, events)
    own_hand(st, seat).append(card)
    st["phase"] = "play"
    # The card is for the drawer's eyes: games.engine.public removes it for everyone else.
    events.append({"type": "drew", "seat": seat, "source": "stock", "card": card})
    open_window(st, events)


def window_eligible(st: State, active: int, exclude: tuple[int, ...] = ()) -> list[int]:
    """Seats that may buy the discard top while ``active`` plays, in priority order.

    >>> from games.engine.state import new_game
    >>> st = new_game(4, "doc"); window_eligible(st, 0)  # the turned-up card: no discarder
    [1, 2, 3]
    >>> st["discard_from"][-1] = 2; window_eligible(st, 0), window_eligible(st, 0, exclude=(1,))
    ([1, 3], [3])
    """
    if not st["discard"]:
        return []
    rules = ruleset_of(st)
    n = st["players"]
    discarder = None if rules.discarder_may_claim else st["discard_from"][-1]
    cap = rules.max_buys_per_round
    out = st.get("finisher")  # rook: the seat that went out is done with this round
    buys = st["buys"]
    return [
        s
        for s in _AFTER[n][active]
        if s != discarder and s != out and s not in exclude and (cap is None or buys[s] < cap)
    ]


# _AFTER[n][seat]: the other seats of an n-seat table, clockwise from ``seat`` (every
# window and every bot's answer asks).
_AFTER = [
    [tuple((seat + k) % n for k in range(1, n)) for seat in range(n)]
    for n in range(max(r.max_players for r in RULESETS.values()) + 1)
]


def open_window(st: State, events: list[dict], exclude: tuple[int, ...] = ()) -> None:
    """Open a buy window on the discard top (``exclude``: the buyer of the card above it)."""
    eligible = window_eligible(st, st["active"], exclude)
    early = st["early"]
    calls = st.get("calls")
    st["early"] = [None] * st["players"]
    if calls is not None:
        st["calls"] = []
    if not eligible:
        after_window(st, None, events)
        return
    answers = [early[s] or ("no_thanks" if st["never_buy"][s] else None) for s in eligible]
    st["window"] = {
        "card": st["discard"][-1],
        "discarder": st["discard_from"][-1],
        "eligible": eligible,
        "answers": answers,
    }
    if calls is not None:
        st["window"]["calls"] = [s for s in calls if s in eligible]
    events.append({"type": "window_opened", "card": st["discard"][-1], "eligible": eligible})
    resolve_window(st, events, force=False)


def _winner(st: State, window: dict, force: bool) -> tuple[bool, int | None]:
    """``(decided, winner)`` under the ruleset's claim policy."""
    if "calls" in window:
        if window["calls"]:
            return True, window["calls"][0]
        return force or None not in window["answers"], None
    for s, answer in zip(window["eligible"], window["answers"], strict=True):
        if answer == "may_i":
            return True, s
        if answer is None and not force:
            return False, None
    return True, None


def resolve_window(st: State, events: list[dict], force: bool) -> None:
    """Close the window if its claim policy already decides it (or ``force``: unanswered =
    pass)."""
    window = st["window"]
    decided, winner = _winner(st, window, force)
    if not decided:
        return
    st["window"] = None
    if winner is None:
        events.append({"type": "window_closed", "card": window["card"], "buyer": None})
        after_window(st, None, events)
    else:
        after_window(st, winner if sell(st, winner, events) else None, events)


def after_window(st: State, buyer: int | None, events: list[dict]) -> None:
    """What follows a closed window: the next window of a sale chain, or the stock draw the
    sale was waiting for (sale first); or the held discard or pass (bga)."""
    rules = ruleset_of(st)
    if st["phase"] == "selling":
        if buyer is not None and rules.sale_chain and st["discard"]:
            open_window(st, events, exclude=(buyer,) if rules.no_successive_buys else ())
            return
        active = st["active"]
        card = draw_from_stock(st, events)
        own_hand(st, active).append(card)
        st["phase"] = "play"
        events.append({"type": "drew", "seat": active, "source": "stock", "card": card})
        return
    held = st["held"]
    if held:
        st["held"] = None
        st["phase"] = "play"
        if held["type"] == "discard":
            do_discard(st, st["active"], held["card"], events)
        else:
            do_pass(st, events)


def _can_supply_penalty(st: State) -> bool:
    """Is there a penalty card for a purchase, after the bought card leaves the pile?"""
    if st["stock"]:
        return True
    cap = ruleset_of(st).reshuffles_per_round
    # The rebuilt stock is the pile under the new top: the bought card gone, two more needed.
    return (cap is None or st["reshuffles"] < cap) and len(st["discard"]) >= 3


def sell(st: State, buyer: int, events: list[dict]) -> bool:
    """The buyer takes the discard top and the penalty card(s); ``False`` when the ruleset
    does not complete a purchase whose penalty card cannot be supplied (petras)."""
    rules = ruleset_of(st)
    if rules.sale_needs_penalty and not _can_supply_penalty(st):
        events.append({"type": "window_closed", "card": st["discard"][-1], "buyer": None})
        events.append({"type": "sale_cancelled", "seat": buyer, "reason": "no_penalty_card"})
        return False
    card = take_discard(st)
    hand = own_hand(st, buyer)
    hand.append(card)
    note_taken(st, buyer, card)
    with_item(st, "buys", buyer, st["buys"][buyer] + 1)
    events.append({"type": "window_closed", "card": card, "buyer": buyer})
    # The penalty cards are the buyer's secret (games.engine.public shows others the count);
    # filled in as drawn, so a stock that runs out mid-way leaves the event telling the truth.
    bought: dict = {"type": "bought", "seat": buyer, "card": card, "penalty_cards": []}
    events.append(bought)
    for _ in range(rules.penalty_cards_per_buy):
        penalty = draw_from_stock(st, events)
        hand.append(penalty)
        bought["penalty_cards"].append(penalty)
    return True


def answer(st: State, seat: int, action: dict, events: list[dict]) -> None:
    kind = action["type"]
    rules = ruleset_of(st)
    if (
        rules.claim == "first_caller"
        and kind == "may_i"
        and seat == st["active"]
        and st["phase"] == "draw"
    ):
        # rook: "May I?" on one's own turn is taking the discard.
        draw(st, seat, {"type": "draw", "source": "discard"}, events)
        return
    window = st["window"]
    if window is not None:
        if seat not in window["eligible"]:
            raise IllegalMove("not_eligible", _why_not_eligible(st, seat))
        i = window["eligible"].index(seat)
        if window["answers"][i] is not None:
            raise IllegalMove(
                "already_answered", f"you already said {ANSWER_WORDS[window['answers'][i]]}"
            )
        window["answers"][i] = kind
        if kind == "may_i" and "calls" in window:
            window["calls"].append(seat)
        events.append(_answered(seat, action, window["card"]))
        resolve_window(st, events, force=False)
        return
    if st["phase"] != "draw" or not st["discard"]:
        raise IllegalMove("no_window", "there is no discard to answer for right now")
    # Early answer [D]: for the card on the pile before the active player draws.
    if seat not in window_eligible(st, st["active"]):
        raise IllegalMove("not_eligible", _why_not_eligible(st, seat))
    if st["early"][seat] is not None:
        raise IllegalMove(
            "already_answered", f"you already said {ANSWER_WORDS[st['early'][seat]]} for this card"
        )
    with_item(st, "early", seat, kind)
    if kind == "may_i" and "calls" in st:
        st["calls"] = [*st["calls"], seat]
    events.append(_answered(seat, action, st["discard"][-1]))


def _answered(seat: int, action: dict, card: str) -> dict:
    event = {"type": "answered", "seat": seat, "answer": action["type"], "card": card}
    if action.get("standing_order") is True:
        # The platform answered by the seat's standing order: that seat's log says so
        # (public.py keeps it from the others, who would learn the order).
        event["standing_order"] = True
    return event


def _why_not_eligible(st: State, seat: int) -> str:
    if seat == st["active"]:
        return "the active player cannot buy; draw the discard instead"
    rules = ruleset_of(st)
    window = st["window"]
    discarder = (
        window["discarder"] if window else (st["discard_from"][-1] if st["discard"] else None)
    )
    if seat == discarder and not rules.discarder_may_claim:
        return "you cannot buy back your own discard"
    cap = rules.max_buys_per_round
    if cap is not None and st["buys"][seat] >= cap:
        return f"you already bought {cap} times this round"
    if window is not None and rules.no_successive_buys:
        return "you bought the card above it: not two successive discards"
    return "you cannot buy this card"


def close_window(st: State, seat: None, action: dict, events: list[dict]) -> None:
    if st["window"] is None:
        raise IllegalMove("no_window", "no buy window is open")
    events.append({"type": "window_timer", "card": st["window"]["card"]})
    resolve_window(st, events, force=True)
