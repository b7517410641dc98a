"""Old timeouts made concrete: the plays of a timeout recorded without them, read back from the
events it made.

A timeout recorded before timeouts carried their plays (``{"type": "timeout", "level": L}``)
replays by asking L's bot again, so a change to that bot changes the old game. Its move's
events say what was played (``timed_out``, then each play's events marked ``auto``): this
finds, step by step, the action that made exactly the next of those events, from the events
themselves first (a draw's source, a discard's card, a lay-down's melds...), then the bots'
choices and every legal action, so it works whatever the bots have become. The platform
rewrites such a move only when the whole game then replays to its stored state
(``games/services/timeouts.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from .actions import MAX_AUTO_STEPS, _same_turn, _step, apply
from .bots import TIMEOUT_LEVELS, choose_action, fallback_action
from .cards import is_wild_card
from .errors import IllegalMove
from .legal import legal_actions
from .records import PLATFORM_EVENTS, initial_state
from .state import State, copy_state

__all__ = ["LogRewrite", "timeout_from_events", "timeouts_with_plays"]

# How far the log is read for the card of a discard held on a window: the window closes within
# a few moves (its answers, its timer, the sales it chains).
LOOK_AHEAD = 60


@dataclass
class LogRewrite:
    """What :func:`timeouts_with_plays` found in one game's log."""

    actions: dict[int, dict] = field(default_factory=dict)  # index in the log -> new action
    problem: str | None = None  # set: nothing may be rewritten


def timeouts_with_plays(
    final: State, log: Sequence[tuple[int | None, dict, list[dict]]]
) -> LogRewrite:
    """The bare timeouts of a game's log (``(seat, action, events)`` per move, in order) in
    their concrete form, found from their events (:func:`timeout_from_events`), each checked:
    it makes the events stored with it, and the whole log, so rewritten, replays from the seed
    of ``final`` to ``final`` itself. Otherwise ``problem`` says where it failed, and nothing
    is to be rewritten.

    >>> from games.engine.state import new_game
    >>> from games.engine.actions import apply
    >>> st = new_game(3, "doc")
    >>> after, events = apply(st, None, {"type": "timeout"})
    >>> found = timeouts_with_plays(after, [(None, {"type": "timeout"}, events)])
    >>> found.problem, [a["type"] for a in found.actions[0]["plays"]][:1]
    (None, ['draw'])
    """
    out = LogRewrite()
    state = initial_state(final)
    for i, (seat, action, stored) in enumerate(log):
        applied = action
        if (
            seat is None
            and isinstance(action, dict)
            and action.get("type") == "timeout"
            and action.get("plays") is None
        ):
            later = [e for _, _, evs in log[i + 1 : i + 1 + LOOK_AHEAD] for e in evs or []]
            found = timeout_from_events(state, action, stored or [], later)
            if found is None:
                out.problem = f"move {i + 1}: no plays make the timeout's events"
                return out
            applied = out.actions[i] = found
        try:
            state, events = apply(state, seat, applied)
        except IllegalMove as exc:
            out.problem = f"move {i + 1} does not replay: {exc}"
            return out
        engine_part = [e for e in stored or [] if e.get("type") not in PLATFORM_EVENTS]
        if i in out.actions and events != engine_part:
            out.problem = f"move {i + 1}: the plays found make other events"
            return out
    if state != final:
        out.problem = "the log, so rewritten, does not rebuild the stored game"
    return out


def timeout_from_events(
    state: State, action: dict, events: list[dict], later: Iterable[dict] = ()
) -> dict | None:
    """The concrete form of the bare timeout ``action`` that was applied to ``state`` and made
    ``events`` (platform events the service added after them, such as strikes, are ignored);
    ``later``: the events of the moves after it (a discard held on an open window names its
    card only when the window closes). ``None`` when no sequence of actions makes those
    events.

    >>> from games.engine.state import new_game
    >>> from games.engine.actions import apply
    >>> st = new_game(3, "doc")
    >>> bare = {"type": "timeout", "level": "normal"}
    >>> _, events = apply(st, None, bare)
    >>> recorded = timeout_from_events(st, bare, events)
    >>> apply(st, None, recorded) == apply(st, None, bare)
    True
    """
    if action.get("type") != "timeout" or action.get("plays") is not None:
        return None
    if not events or events[0].get("type") != "timed_out" or state["game_over"]:
        return None
    if state["phase"] not in ("draw", "play"):
        return None
    made = [_plain(e) for e in events[1:] if e.get("auto")]
    later = list(later)
    player, round_no = state["active"], state["round"]
    st = copy_state(state)
    plays: list[dict] = []
    at = 0
    while at < len(made) and len(plays) < MAX_AUTO_STEPS:
        if not _same_turn(st, player, round_no):
            return None
        found = _next_play(st, player, action.get("level"), made, at, later)
        if found is None:
            return None
        play, st, count = found
        plays.append(play)
        at += count
    if at != len(made) or not plays:
        return None
    if len(plays) < MAX_AUTO_STEPS and _same_turn(st, player, round_no):
        return None
    return {**action, "plays": plays}


def _plain(event: dict) -> dict:
    return {k: v for k, v in event.items() if k != "auto"}


def _next_play(
    st: State, player: int, level: object, made: list[dict], at: int, later: list[dict]
) -> tuple[dict, State, int] | None:
    """The first candidate whose events are the next ones of ``made``."""
    tried: list[dict] = []
    for play in _candidates(st, player, level, made[at], later):
        if play in tried:
            continue
        tried.append(play)
        inner = copy_state(st)
        sub: list[dict] = []
        try:
            inner = _step(inner, player, play, sub)
        except IllegalMove:
            continue
        if sub and made[at : at + len(sub)] == sub:
            return play, inner, len(sub)
    return None


def _candidates(
    st: State, player: int, level: object, event: dict, later: list[dict]
) -> Iterator[dict]:
    yield from _from_event(event, player, later)
    policies = [level] if isinstance(level, str) and level in TIMEOUT_LEVELS else []
    for policy in [*policies, "heuristic", *TIMEOUT_LEVELS]:
        try:
            chosen = choose_action(st, player, policy)
        except Exception:  # noqa: BLE001 (a bot's failure only means no hint from it)
            chosen = None
        if chosen is not None:
            yield chosen
    try:
        fallback: dict | None = fallback_action(st, player)
    except RuntimeError:
        fallback = None
    if fallback is not None:
        yield fallback
    yield from legal_actions(st, player)


def _from_event(event: dict, player: int, later: list[dict]) -> Iterator[dict]:
    """The action that makes ``event``, as far as the event tells."""
    kind = event.get("type")
    if kind == "drew":
        yield {"type": "draw", "source": event.get("source")}
    elif kind == "declined":
        yield {"type": "draw", "source": "stock"}
    elif kind == "discarded":
        yield {"type": "discard", "card": event.get("card")}
    elif kind == "discard_held":
        # Its card lands when the window closes: the seat's next discard in the log.
        card = next(
            (
                e.get("card")
                for e in later
                if e.get("type") == "discarded" and e.get("seat") == player
            ),
            None,
        )
        if card is not None:
            yield {"type": "discard", "card": card}
    elif kind in ("passed", "pass_held"):
        yield {"type": "pass"}
    elif kind == "laid_down":
        melds = event.get("melds") or []
        wilds: dict[str, int] = {}
        for m in melds:
            if m.get("kind") == "run" and isinstance(m.get("start"), int):
                for i, card in enumerate(m.get("cards") or []):
                    if _wild(card):
                        wilds[card] = m["start"] + i
        play: dict = {"type": "lay_down", "melds": [list(m.get("cards") or []) for m in melds]}
        if wilds:
            yield {**play, "wilds": wilds}
        yield play
    elif kind == "laid_off":
        play = {"type": "lay_off", "card": event.get("card"), "meld": event.get("meld")}
        if event.get("kind") == "run" and event.get("end") is not None:
            yield {**play, "end": event.get("end")}
        yield play
    elif kind == "mayi_meld":
        yield {"type": "mayi_meld", "cards": list((event.get("meld") or {}).get("cards") or [])}
    elif kind == "wild_swapped":
        yield {"type": "swap_wild", "meld": event.get("meld"), "card": event.get("card")}
    elif kind == "answered" and event.get("seat") == player:
        yield {"type": event.get("answer")}


def _wild(card: object) -> bool:
    try:
        return isinstance(card, str) and is_wild_card(card)
    except ValueError:
        return False
