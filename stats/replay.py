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

from games import engine, services
from games.engine import (
    PLATFORM_EVENTS,
    IllegalMove,
    Verification,
    face_data,
    initial_state,
    opening_event,
    replay,
    verify_replayed,
)
from games.models import Move, Seat, Table
from games.names import bot_name


class ReplayRefused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class Replay:
    """What the replay page draws on the server: the frame of the page (who played, the
    rounds, the move count) and the deal's verification. The game itself, every move of it,
    comes in one fetch of ``GET /api/tables/<id>/replay`` (``replay_frames``), drawn in the
    page by static/js/replay.js."""

    table: Table
    names: list[str]
    total_moves: int
    rounds: list[dict[str, Any]]  # number, first move, last move
    verification: Verification
    published: str | None


def replay_table(*, table_id: int, viewer: User | AnonymousUser) -> tuple[Table, list[Seat]]:
    """The table and its seats if ``viewer`` may replay it: a finished game they may see (a
    public one, or one they sat at); ReplayRefused otherwise."""
    try:
        table, seat_rows = services.table_read(table_id=table_id)
        services.table_check_access(table, seat_rows, viewer)
    except services.TableNotFound:
        raise ReplayRefused(404, "table_not_found", f"there is no table {table_id}") from None
    except services.NotSeated as exc:
        if exc.code == "deal_in_play":
            # A tournament's duplicate deal that the viewer's own table still plays.
            raise ReplayRefused(403, exc.code, exc.message) from None
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
    if table.status != Table.Status.FINISHED or not table.state or not engine.is_over(table.state):
        raise ReplayRefused(
            403,
            "game_not_finished",
            "this game is not finished: its replay opens when it ends, since it shows every hand",
        )
    return table, seat_rows


def replay_for(*, table_id: int, viewer: User | AnonymousUser) -> Replay:
    """The replay page's frame of a finished game, its deal verified."""
    table, seat_rows = replay_table(table_id=table_id, viewer=viewer)
    try:
        game = replayed_game(table)
    except IllegalMove as exc:
        raise _unreplayable(exc) from None
    return Replay(
        table=table,
        names=seat_names(seat_rows, table.seat_count),
        total_moves=len(game.moves),
        rounds=game.rounds,
        verification=verify_replayed(
            engine.state_of(table.state), game.replayed, table.seed_sha256 or None
        ),
        published=table.seed_sha256 or None,
    )


def replay_frames(*, table_id: int, viewer: User | AnonymousUser) -> dict[str, Any]:
    """Every move of a finished game as the replay shows it (``game_frames``), for the page
    to step through without asking again."""
    table, seat_rows = replay_table(table_id=table_id, viewer=viewer)
    try:
        return game_frames(table, seat_rows)
    except IllegalMove as exc:
        raise _unreplayable(exc) from None


def _unreplayable(exc: IllegalMove) -> ReplayRefused:
    # A log that does not replay from its seed: say so rather than fail.
    return ReplayRefused(
        409, "replay_failed", f"this game's move log does not replay from its seed: {exc}"
    )


@dataclass
class ReplayedGame:
    """A game dealt again from its seed and every move applied again, once."""

    start: engine.State
    moves: list[Move]
    replayed: list[tuple[engine.State, list[dict]]]  # (state after, events) per move
    platform: dict[int, list[dict]]  # a timeout move's platform events (strike, expulsion)
    rounds: list[dict[str, Any]] = field(default_factory=list)


def replayed_game(table: Table, upto: int | None = None) -> ReplayedGame:
    """Deal ``table``'s game again from its seed and apply its moves (the first ``upto``)."""
    moves = list(
        Move.objects.filter(table=table).order_by("seq").only("seq", "seat", "by_bot", "action")
    )
    if upto is not None:
        moves = moves[:upto]
    # The platform's own part of a move (a timeout's strike, an expulsion) is not the engine's
    # to replay: it is told from the stored events, which only the timeouts' moves carry.
    platform = {
        seq: [e for e in events or [] if e.get("type") in PLATFORM_EVENTS]
        for seq, events in Move.objects.filter(table=table, action__type="timeout").values_list(
            "seq", "events"
        )
    }
    start = initial_state(engine.state_of(table.state))
    replayed = list(replay(start, [(m.seat, m.action) for m in moves]))
    rounds: list[dict[str, Any]] = [{"round": start["round"], "first": 0}]
    for n, (after, events) in enumerate(replayed, start=1):
        if any(e["type"] == "round_started" for e in events):
            rounds[-1]["last"] = n
            rounds.append({"round": after["round"], "first": n})
    rounds[-1]["last"] = len(moves)
    return ReplayedGame(start, moves, replayed, platform, rounds)


_MISSING = object()

# What a replay never needs of a view: this seat's own parts (a spectator's view has none),
# the whole stock and the seed (a finished game's view carries them: the replay shows the
# hands, never the stock's order), and the faces (sent once for the whole game).
_NOT_IN_FRAMES = frozenset(
    {"faces", "hand", "hands", "stock", "seed", "seat", "my_answer", "may_answer", "lay_offs"}
)


def game_frames(
    table: Table, seat_rows: list[Seat], *, stock_shown: int = 0, upto: int | None = None
) -> dict[str, Any]:
    """The game move by move as a replay draws it: for each move (0 the deal), the
    spectator's view of the table after it (``engine.view(state, None)``), every hand, and the
    move's events (the table page's log reads them). Each frame after the first carries only
    what changed since the one before (the view's keys, the hands by seat), so a whole game
    is one small answer; the page rebuilds each frame in full once, then steps in memory.

    ``stock_shown``: the stock's next cards in each frame (a moderator's replay only).
    """
    game = replayed_game(table, upto)
    names = seat_names(seat_rows, table.seat_count)
    frames: list[dict[str, Any]] = []
    previous_view: dict[str, Any] = {}
    previous_hands: list[list[str]] = []
    faces: dict[str, dict[str, Any]] = {}
    states = [(game.start, [opening_event(game.start)], None)] + [
        (after, events + game.platform.get(m.seq, []), m)
        for m, (after, events) in zip(game.moves, game.replayed, strict=True)
    ]
    for n, (state, events, move) in enumerate(states):
        shown = engine.view(state, None)
        for card, face in shown["faces"].items():
            faces.setdefault(card, face)
        full = {k: v for k, v in shown.items() if k not in _NOT_IN_FRAMES}
        hands = engine.hands_of(state)
        for hand in hands:
            for card in hand:
                if card not in faces:
                    faces[card] = face_data(card)
        frame: dict[str, Any] = {
            "move": n,
            "seat": move.seat if move is not None else None,
            "by_bot": move.by_bot if move is not None else False,
            "events": events,
            "view": {k: v for k, v in full.items() if previous_view.get(k, _MISSING) != v},
            "hands": {
                str(i): h
                for i, h in enumerate(hands)
                if i >= len(previous_hands) or previous_hands[i] != h
            },
        }
        if stock_shown:
            # The stock is drawn from its end (games/engine/state.py draw_from_stock).
            frame["stock_next"] = engine.stock_next(state, stock_shown)
            frame["stock_size"] = engine.stock_size(state)
        frames.append(frame)
        previous_view, previous_hands = full, hands
    for frame in frames:
        for event in frame["events"]:
            for card in _event_cards(event):
                if card not in faces:
                    faces[card] = face_data(card)
    return {
        "table": table.pk,
        "ruleset": table.ruleset,
        "status": table.status,
        "names": names,
        "seats": [
            {
                "position": i,
                "user": next(
                    (
                        s.user.get_username()
                        for s in seat_rows
                        if s.position == i and s.user is not None
                    ),
                    None,
                ),
                "is_bot": any(s.position == i and s.is_bot for s in seat_rows),
            }
            for i in range(table.seat_count)
        ],
        "total": len(game.moves),
        "rounds": game.rounds,
        "faces": faces,
        "frames": frames,
    }


def _event_cards(event: dict[str, Any]) -> list[str]:
    """Every card id an event names (the log draws each one)."""
    found: list[str] = []
    for key in ("card", "wild"):
        if isinstance(event.get(key), str):
            found.append(event[key])
    for key in ("cards", "penalty_cards"):
        found += [c for c in event.get(key) or [] if isinstance(c, str)]
    for meld in event.get("melds") or []:
        found += meld.get("cards", [])
    if isinstance(event.get("meld"), dict):
        found += event["meld"].get("cards", [])
    return found


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
