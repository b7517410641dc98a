"""The leak audit (issue 14): record every payload sent to the clients of whole games, one per
ruleset, and prove that before the game ends none carries a card of another hand, a card of the
stock, or the seed.

A table of one person and bots, watched by a spectator. The person plays through the HTTP API
(the heuristic bot's choice, or now and then any of the engine's legal actions); after every
answer the spectator reads the table (as the page polls, with the log since its version), and
both get the websocket frame their socket would be sent (``games.live.changed_frame`` and
``changed_frames``, the consumer's own functions, with the moves since the socket's version, as
the consumer reads them). Every recorded payload is then
checked against the game at that moment, rebuilt by replaying the move log from the seed:
"public" is every card that lay face up (discard pile, melds, the card on offer) in this round,
so a card taken from the pile may be named; anything else in another hand or the stock may not.
Log entries ("log", the events of earlier moves) of earlier rounds are about cards of an older
deal and are left out of the comparison.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games import engine, live, services
from games.engine.rulesets import RULESETS
from games.models import Move, Seat, Table
from tests.live.wsutil import session_for, strings_in

MAX_STEPS = 3000


class Game:
    """The game as the engine sees it at each version, rebuilt from the move log."""

    def __init__(self, table: Table) -> None:
        state = table.state
        self.table_id = table.pk
        self.seed = state["seed"]
        self.state = engine.new_game(
            state["players"], state["seed"], state["ruleset"], state["options"] or None
        )
        self.applied = 0
        self.round_of_seq: dict[int, int] = {}
        self.public: set[str] = set()
        self._see()

    def _see(self) -> None:
        state = self.state
        self.public |= set(state["discard"])
        for meld in state["melds"]:
            self.public |= set(meld["cards"])
        window = state.get("window")
        if window and window.get("card"):
            self.public.add(window["card"])

    def catch_up(self) -> None:
        for move in Move.objects.filter(table_id=self.table_id, seq__gt=self.applied).order_by(
            "seq"
        ):
            before = self.state["round"]
            self.state, _ = engine.apply(self.state, move.seat, move.action)
            self.round_of_seq[move.seq] = before
            if self.state["round"] != before:
                self.public = set()
            self._see()
            self.applied = move.seq
        assert self.state == Table.objects.get(pk=self.table_id).state, "replay diverged"

    def hidden_from(self, seat: int | None) -> set[str]:
        state = self.state
        hidden = set(state["stock"])
        for other, hand in enumerate(state["hands"]):
            if other != seat:
                hidden |= set(hand)
        return hidden - self.public


def audit(game: Game, payload: Any, seat: int | None, where: str) -> None:
    """``payload`` was sent to ``seat`` (None: a spectator) at the game's current version."""
    if game.state["game_over"]:
        return
    text = json.dumps(payload)
    assert game.seed not in text, f"{where}: the seed"
    current = game.state["round"]
    body = dict(payload) if isinstance(payload, dict) else {"_": payload}
    log = body.pop("log", None) or []
    recent = [e for e in log if game.round_of_seq.get(e.get("seq"), current) == current]
    leaked = (strings_in(body) | strings_in(recent)) & game.hidden_from(seat)
    assert not leaked, f"{where} to seat {seat}: hidden cards {sorted(leaked)[:6]}"


def human_action(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.2:
        legal = engine.legal_actions(state, seat)
        if legal:
            return dict(rng.choice(legal))
    action = engine.choose_action(state, seat, "heuristic")
    assert action is not None
    return action


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_no_payload_of_a_whole_game_leaks_a_hidden_card_or_the_seed(
    ruleset, alice, charlie, api_for, settings
):
    settings.MAYI_RATE_LIMITS_ENABLED = False
    rng = random.Random(ruleset)
    person, spectator = api_for(alice), api_for(charlie)
    sessions = {0: session_for(alice), None: session_for(charlie)}
    sent: list[tuple[int | None, str, Any]] = []

    def record(seat: int | None, where: str, response: Any) -> Any:
        assert response.status_code < 500, response.content[:300]
        body = response.json()
        sent.append((seat, where, body))
        return body

    created = record(0, "create", person.post("/api/tables", {"seats": 4, "ruleset": ruleset}))
    table_id = created["table"]["id"]
    record(0, "bots", person.post(f"/api/tables/{table_id}/bots"))
    record(0, "start", person.post(f"/api/tables/{table_id}/start"))
    game = Game(Table.objects.get(pk=table_id))
    game.catch_up()
    audit_all(game, sent)

    for step in range(MAX_STEPS):
        table = Table.objects.get(pk=table_id)
        if table.state["game_over"]:
            break
        assert 0 in engine.seats_to_act(table.state), "only bots left to act, yet not over"
        before = table.version
        action = human_action(table.state, 0, rng)
        answer = record(0, f"act {action['type']}", person.act(table_id, before, **action))
        if "error" in answer:
            assert answer["error"]["code"] not in {"stale_version", "not_your_turn"}, answer
        if step % 2 == 0:
            # As the page polls: the log since the version it has (every 50 steps, the whole
            # recent log a first load gets).
            since = "" if step % 50 == 0 else f"?since={before}"
            record(None, "spectator get", spectator.get(f"/api/tables/{table_id}{since}"))
        table, seats = services.table_read(table_id=table_id)
        # As the consumer sends them: the log's moves since the version the socket had.
        moves = live.moves_since(table, before)
        for seat, key in sessions.items():
            sent.append((seat, "socket frame", live.changed_frame(table, seats, key, moves)))
        # And as the consumer builds them for all of a table's sockets at once.
        together = live.changed_frames(table_id, [(key, before) for key in sessions.values()])
        assert all(isinstance(frame, dict) for frame in together), together
        sent += [
            (seat, "socket frames", frame) for seat, frame in zip(sessions, together, strict=True)
        ]
        game.catch_up()
        audit_all(game, sent)
    else:
        pytest.fail(f"{ruleset}: no end after {MAX_STEPS} steps")
    assert Seat.objects.filter(table_id=table_id, user=alice).exists()


def audit_all(game: Game, sent: list[tuple[int | None, str, Any]]) -> None:
    """Check what was recorded since the last call, then forget it (one version's worth)."""
    for seat, where, payload in sent:
        audit(game, payload, seat, where)
    sent.clear()


def test_the_audit_sees_a_leak():
    """The check itself: a payload naming a card of another hand is caught."""
    state = engine.new_game(4, "audit-self-test", "bga")

    class Fake(Game):
        def __init__(self) -> None:
            self.state, self.seed, self.public, self.round_of_seq = state, "s33d", set(), {}

    game = Fake()
    audit(game, {"view": {"hand": state["hands"][0]}}, 0, "own hand")
    with pytest.raises(AssertionError, match="hidden cards"):
        audit(game, {"view": {"hand": state["hands"][1]}}, 0, "another hand")
    with pytest.raises(AssertionError, match="hidden cards"):
        audit(game, {"x": [state["stock"][0]]}, None, "the stock")
    with pytest.raises(AssertionError, match="seed"):
        audit(game, {"x": "s33d"}, None, "the seed")
