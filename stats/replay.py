"""A finished game's replay, rebuilt by the engine from the move log and the seed.

Never from stored views or states: the first state is dealt again from the seed
(``games.engine.records.initial_state``), every move is applied again, and the rebuilt final
state is checked against the stored one (``games.engine.verify``). Refused while the game is in
play: it shows every hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from games import services
from games.engine import IllegalMove
from games.engine.cards import face_data
from games.engine.records import PLATFORM_EVENTS, initial_state, replay
from games.engine.verify import Verification, verify_replayed
from games.models import Move, Seat, Table
from games.names import bot_name


class ReplayRefused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class Step:
    number: int  # 1-based move number (0 is the deal)
    round: int
    seat: int | None
    by_bot: bool
    words: list[str]


@dataclass
class Replay:
    table: Table
    names: list[str]
    steps: list[Step]
    at: int  # the move shown (0: the first deal)
    state: dict[str, Any]
    seats: list[dict[str, Any]]
    melds: list[dict[str, Any]]
    rounds: list[dict[str, Any]]  # number, first move, last move
    scores: list[list[int]]
    totals: list[int]
    verification: Verification
    published: str | None
    discard_top: dict[str, Any] | None = None
    nav: dict[str, int | None] = field(default_factory=dict)

    @property
    def total_moves(self) -> int:
        return len(self.steps)

    @property
    def current(self) -> Step | None:
        return self.steps[self.at - 1] if self.at else None


def replay_for(*, table_id: int, viewer: User | AnonymousUser, move: int | None = None) -> Replay:
    """The replay of a finished game as it stood after ``move`` (default: the end)."""
    try:
        table, seat_rows = services.table_read(table_id=table_id)
        services.table_check_access(table, seat_rows, viewer)
    except services.TableNotFound:
        raise ReplayRefused(404, "table_not_found", f"there is no table {table_id}") from None
    except services.NotSeated:
        # A player the clock expelled sees nothing of a private table while it is played (the
        # bot holds their seat), but the finished game is theirs too: their statistics list
        # it and link here.
        sat_here = any(s.user_id is not None and s.user_id == viewer.pk for s in seat_rows)
        if not (sat_here and table.status == Table.Status.FINISHED):
            raise ReplayRefused(
                403, "not_seated", "this table is private: only its players see its replay"
            ) from None
    if table.status == Table.Status.ABORTED:
        # Never finished, so never replayed: "its replay opens when it ends" would promise one.
        raise ReplayRefused(
            403,
            "game_not_finished",
            "a moderator aborted this game before its end: an unfinished game has no replay, "
            "since it shows every hand",
        )
    if table.status != Table.Status.FINISHED or not (table.state or {}).get("game_over"):
        raise ReplayRefused(
            403,
            "game_not_finished",
            "this game is not finished: its replay opens when it ends, since it shows every hand",
        )
    try:
        return build_replay(table, seat_rows, move)
    except IllegalMove as exc:
        # A log that does not replay from its seed: say so rather than fail.
        raise ReplayRefused(
            409, "replay_failed", f"this game's move log does not replay from its seed: {exc}"
        ) from None


def build_replay(table: Table, seat_rows: list[Seat], move: int | None) -> Replay:
    moves = list(
        Move.objects.filter(table=table).order_by("seq").only("seq", "seat", "by_bot", "action")
    )
    # The platform's own part of a move (a timeout's strike, an expulsion) is not the engine's
    # to replay: it is told from the stored events, which only the timeouts' moves carry.
    platform = {
        seq: [e for e in events or [] if e.get("type") in PLATFORM_EVENTS]
        for seq, events in Move.objects.filter(table=table, action__type="timeout").values_list(
            "seq", "events"
        )
    }
    names = seat_names(seat_rows, table.seat_count)
    start = initial_state(table.state or {})
    at = len(moves) if move is None else max(0, min(move, len(moves)))
    shown = start
    state = start
    steps: list[Step] = []
    rounds: list[dict[str, Any]] = [{"round": start["round"], "first": 0}]
    # Replayed once, for the steps here and for the verification below.
    replayed = list(replay(start, [(m.seat, m.action) for m in moves]))
    for n, (m, (after, events)) in enumerate(zip(moves, replayed, strict=True), start=1):
        # A move belongs to the round it was made in (the one that ends a round, to that one).
        told = events + platform.get(m.seq, [])
        steps.append(Step(n, state["round"], m.seat, m.by_bot, describe(told, names, seat=m.seat)))
        state = after
        if n == at:
            shown = state
        if any(e["type"] == "round_started" for e in events):
            rounds[-1]["last"] = n
            rounds.append({"round": state["round"], "first": n})
    rounds[-1]["last"] = len(moves)
    verification = verify_replayed(table.state or {}, replayed, table.seed_sha256 or None)
    current_round = shown["round"]
    idx = next(i for i, r in enumerate(rounds) if r["round"] == current_round)
    nav = {
        "first": 0,
        "prev": at - 1 if at > 0 else None,
        "next": at + 1 if at < len(moves) else None,
        "last": len(moves),
        "prev_round": rounds[idx - 1]["first"] if idx > 0 else None,
        "next_round": rounds[idx + 1]["first"] if idx + 1 < len(rounds) else None,
    }
    seats = [
        {
            "position": i,
            "name": names[i],
            "hand": [card_face(c) for c in shown["hands"][i]],
            "down": shown["down"][i],
            "buys": shown["buys"][i],
            "active": i == shown.get("active") and not shown["game_over"],
            "total": shown["totals"][i],
        }
        for i in range(shown["players"])
    ]
    melds = [
        {
            "id": m["id"],
            "kind": m["kind"],
            "owner": names[m["owner"]],
            "cards": [card_face(c) for c in m["cards"]],
        }
        for m in shown["melds"]
    ]
    return Replay(
        table=table,
        names=names,
        steps=steps,
        at=at,
        state=shown,
        seats=seats,
        melds=melds,
        rounds=rounds,
        # As the game stood at the move shown: a replay does not tell the future.
        scores=[r[:] for r in shown["scores"]],
        totals=shown["totals"][:],
        verification=verification,
        published=table.seed_sha256 or None,
        discard_top=card_face(shown["discard"][-1]) if shown["discard"] else None,
        nav=nav,
    )


def seat_names(seat_rows: list[Seat], count: int) -> list[str]:
    """Each seat's name as the table page shows it (static/js/table/names.js, the lobby): the
    player's username, else "Bot 3" for a bot in seat 3."""
    names = [f"Seat {i + 1}" for i in range(count)]
    for s in seat_rows:
        if s.user is not None:
            names[s.position] = s.user.get_username()
        elif s.is_bot:
            names[s.position] = bot_name(s.position)
    return names


def card_face(card: str) -> dict[str, Any]:
    """A card as a page draws or names it: its id, label (Q♥), whether wild, suit and colour."""
    data = face_data(card)
    suit = (data.get("suit") or "").lower()
    return {
        "id": card,
        "label": data["label"],
        "wild": data["wild"],
        "suit": suit,
        "color": data.get("color"),
    }


def _label(card: str) -> str:
    return str(face_data(card)["label"])


def _cards(cards: list[str]) -> str:
    return " ".join(_label(c) for c in cards)


def _on_meld(event: dict, who: Any) -> str:
    """ "on Bot 3's run", "on their own book": whose meld, as the table's log says it (the
    meld's id means nothing to a reader)."""
    owner, kind = event.get("owner"), event.get("kind")
    if not isinstance(owner, int) or kind is None:
        return "on a meld"
    if owner == event.get("seat"):
        return f"on their own {kind}"
    return f"on {who(owner)}'s {kind}"


def describe(events: list[dict], names: list[str], *, seat: int | None = None) -> list[str]:
    """The events of one move in words (hands are visible in a replay: cards are named)."""

    def who(s: Any) -> str:
        return names[s] if isinstance(s, int) and 0 <= s < len(names) else "the platform"

    out: list[str] = []
    for e in events:
        kind = e.get("type")
        s = e.get("seat")
        if kind == "drew":
            if e["source"] == "discard":
                out.append(f"{who(s)} takes {_label(e['card'])} from the pile")
            else:
                out.append(f"{who(s)} draws from the stock")
        elif kind == "declined":
            out.append(f"{who(s)} declines the discard")
        elif kind == "window_opened":
            out.append(
                f"“May I?” for {_label(e['card'])}: {', '.join(who(x) for x in e['eligible'])} may buy"
            )
        elif kind == "answered":
            answer = "“May I?”" if e["answer"] == "may_i" else "“no thanks”"
            out.append(f"{who(s)} says {answer} for {_label(e['card'])}")
        elif kind == "bought":
            out.append(f"{who(s)} buys {_label(e['card'])} and takes a penalty card")
        elif kind == "window_closed" and e.get("buyer") is None:
            out.append(f"nobody buys {_label(e['card'])}")
        elif kind == "window_timer":
            out.append("the “May I?” timer runs out")
        elif kind == "sale_cancelled":
            out.append(f"{who(s)}'s purchase is cancelled: no penalty card left")
        elif kind == "laid_down":
            melds = " · ".join(_cards(m["cards"]) for m in e["melds"])
            out.append(f"{who(s)} lays down the contract: {melds}")
        elif kind == "laid_off":
            out.append(f"{who(s)} lays {_label(e['card'])} off {_on_meld(e, who)}")
        elif kind == "mayi_meld":
            out.append(f"{who(s)} makes a MAYI meld: {_cards(e['meld']['cards'])} ({e['score']})")
        elif kind == "replacements":
            out.append(f"{who(s)} draws {e['count']} replacement cards")
        elif kind == "wild_swapped":
            out.append(f"{who(s)} swaps {_label(e['card'])} for the wild {_label(e['wild'])}")
        elif kind == "discarded":
            out.append(f"{who(s)} discards {_label(e['card'])}")
        elif kind in ("discard_held", "pass_held"):
            out.append(
                f"{who(s)}'s {'discard' if kind == 'discard_held' else 'pass'} waits for the window"
            )
        elif kind == "passed":
            out.append(f"{who(s)} passes")
        elif kind == "went_out":
            out.append(f"{who(s)} goes out")
        elif kind == "timed_out":
            out.append(f"{who(s)}'s clock runs out: the bot plays the turn")
        elif kind == "strike":
            count = f" ({e['strikes']} of {e['of']})" if e.get("strikes") else ""
            out.append(f"{who(s)} gets a strike{count}")
        elif kind == "expelled":
            out.append(f"{who(s)} is expelled: a bot plays the seat to the end")
        elif kind == "stock_rebuilt":
            out.append(f"the stock is rebuilt from the pile ({e['stock_size']} cards)")
        elif kind == "round_ended":
            how = (
                f"{who(e['went_out'])} went out"
                if e.get("went_out") is not None
                else "nobody went out"
            )
            scores = ", ".join(f"{names[i]} {sc}" for i, sc in enumerate(e["scores"]))
            out.append(f"round {e['round']} ends, {how}: {scores}")
        elif kind == "round_started":
            out.append(f"round {e['round']} is dealt; {who(e['active'])} plays first")
        elif kind == "game_over":
            out.append("the game is over")
    if not out and seat is not None:
        out.append(f"{who(seat)} acts")
    return out
