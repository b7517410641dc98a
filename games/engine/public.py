"""What of a move's events, and of a finished round, each seat may see.

The engine's events tell the whole truth (the card a stock draw gave, the buyer's penalty
card, a MAYI meld's replacement cards), so that the move log is a complete record; every
client gets them through :func:`public_events`, which keeps a hidden card for the one seat
that holds it. Every event kind the engine (or the platform, for the clocks) emits is named
here with its decision; a kind nobody decided on is cut down to its type and seat, so a new
event can never leak by default.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import face_data
from .rulesets import get_ruleset
from .state import State

# Public as they are: every card they name is on the table, on the discard pile, or was in a
# hand that the rules show (a round's end). discard_held and pass_held name no card.
PUBLIC_KINDS = frozenset(
    {
        "round_started",  # the turned-up card
        "turn",
        "discarded",
        "passed",
        "went_out",
        "laid_down",
        "laid_off",
        "mayi_meld",
        "wild_swapped",  # the natural goes on the table, the wild (seen there) to the hand
        "window_opened",  # the discard top
        "window_closed",
        "window_timer",
        "declined",
        "sale_cancelled",
        "stock_rebuilt",  # its size only
        "round_ended",  # every hand is shown when a round ends
        "game_over",
        "timed_out",
        "discard_held",  # the held card stays the discarder's until the window closes
        "pass_held",
        # Added by the platform's turn clock (games/services/play.py).
        "strike",
        "expelled",
    }
)


def _drew(event: dict, seat: int | None) -> dict:
    # A card from the discard pile was face up; one from the stock is the drawer's secret.
    if event.get("source") == "stock" and seat != event.get("seat"):
        return {k: v for k, v in event.items() if k != "card"}
    return dict(event)


def _bought(event: dict, seat: int | None) -> dict:
    # Everyone saw the bought card; the penalty card(s) from the stock only the buyer sees.
    out = {k: v for k, v in event.items() if k != "penalty_cards"}
    out["penalty_count"] = len(event.get("penalty_cards") or [])
    if seat == event.get("seat"):
        out["penalty_cards"] = list(event.get("penalty_cards") or [])
    return out


def _replacements(event: dict, seat: int | None) -> dict:
    # A MAYI meld's replacement cards come from the stock: the count is public.
    if seat == event.get("seat"):
        return dict(event)
    return {k: v for k, v in event.items() if k != "cards"}


def _answered(event: dict, seat: int | None) -> dict:
    # The answer is public; that a standing order gave it only the answering seat sees (the
    # others would learn, say, that it never buys).
    if seat == event.get("seat"):
        return dict(event)
    return {k: v for k, v in event.items() if k != "standing_order"}


# Kinds that name something hidden, with the seat that may see it.
PRIVATE_KINDS = {
    "drew": _drew,
    "bought": _bought,
    "replacements": _replacements,
    "answered": _answered,
}


def public_event(event: dict, seat: int | None) -> dict:
    """One event as ``seat`` (``None``: a spectator) may see it; a new dict.

    >>> e = {"type": "drew", "seat": 1, "source": "stock", "card": "w7M"}
    >>> public_event(e, 1)["card"], "card" in public_event(e, 0), "card" in public_event(e, None)
    ('w7M', False, False)
    >>> public_event({"type": "new_kind", "seat": 2, "card": "w7M"}, 2)
    {'type': 'new_kind', 'seat': 2}
    """
    kind = event.get("type")
    if kind in PUBLIC_KINDS:
        return dict(event)
    private = PRIVATE_KINDS.get(kind) if isinstance(kind, str) else None
    if private is not None:
        return private(event, seat)
    # Nobody decided what this kind may show: its type and seat only.
    return {"type": kind, "seat": event.get("seat")}


def public_events(events: Iterable[dict], seat: int | None) -> list[dict]:
    """The events of one move as ``seat`` may see them: never a card hidden from that seat.

    >>> evs = [{"type": "bought", "seat": 2, "card": "w9A", "penalty_cards": ["b3I"]}]
    >>> public_events(evs, 0)
    [{'type': 'bought', 'seat': 2, 'card': 'w9A', 'penalty_count': 1}]
    >>> public_events(evs, 2)[0]["penalty_cards"]
    ['b3I']
    """
    return [public_event(e, seat) for e in events]


def round_summary(state: State) -> dict | None:
    """The last finished round as everyone saw it at its end: who went out, each hand (as
    faces, not card ids: those cards are in the new deal now), the melds on the table and the
    cards the player who went out played last (faces too), points, MAYI melds, totals.
    ``fresh`` while no move of the next round has been made (the moment to show it)."""
    last = state.get("last_round")
    if last is None:
        return None
    return {
        "melds": [
            {
                "kind": m["kind"],
                "owner": m["owner"],
                "cards": [face_data(c) for c in m["cards"]],
                **({"start": m["start"]} if "start" in m else {}),
            }
            for m in last.get("melds") or ()
        ],
        "last_cards": [face_data(c) for c in last.get("last_cards") or ()],
        "round": last["round"],
        "reason": last["reason"],
        "went_out": last["went_out"],
        "hands": [[face_data(c) for c in hand] for hand in last["hands"]],
        "penalties": last["penalties"][:],
        "scores": last["scores"][:],
        "mayi_melds": last["mayi_melds"][:],
        "totals": last["totals"][:],
        "fresh": _untouched_deal(state, last["round"]),
    }


def _untouched_deal(state: State, ended: int) -> bool:
    """Nothing has happened yet in the round dealt after round ``ended``: the first player
    has not drawn (the deal as dealt, the turned-up card alone on the pile)."""
    if state["game_over"]:
        return state["round"] == ended
    rules = get_ruleset(state["ruleset"])
    dealt = rules.deal_size(state["round"])
    return (
        state["round"] == ended + 1
        and state["phase"] == "draw"
        and state["active"] == (state["dealer"] + 1) % state["players"]
        and len(state["discard"]) == 1
        and not state["melds"]
        and all(len(h) == dealt for h in state["hands"])
    )


_ONE_CARD = frozenset({"card", "wild", "discard_top"})
_CARD_LISTS = frozenset({"cards", "penalty_cards"})


def event_cards(events: Iterable[dict]) -> list[str]:
    """The card ids some events name, in order, once each (for the face data a log entry
    carries: the cards of a past move need not be in the current view). One pass over each
    event's fields: this runs for every socket's frame.

    >>> event_cards([{"type": "laid_off", "card": "w7M", "meld": "m2"},
    ...              {"type": "laid_down", "melds": [{"id": "m3", "cards": ["w9A", "b9A"]}]}])
    ['w7M', 'w9A', 'b9A']
    """
    found: list[str] = []
    for e in events:
        for key, value in e.items():
            if key in _ONE_CARD:
                if isinstance(value, str):
                    found.append(value)
            elif key in _CARD_LISTS:
                found.extend(value or ())
            elif key == "hands":
                for hand in value or ():
                    found.extend(hand)
            elif key == "melds":
                for meld in value or ():
                    found.extend(meld.get("cards") or ())
            elif key == "meld" and isinstance(value, dict):
                found.extend(value.get("cards") or ())
    return list(dict.fromkeys(found))
