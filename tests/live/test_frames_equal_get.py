"""What a client builds from the frames it was sent equals a fresh GET, after every move of whole
games of every ruleset (issue 34).

Each game is a table of the ruleset's fewest players: one person (whose moves the heuristic bot
chooses, played through ``POST /api/tables/<id>/actions``) and bots in the other seats, watched
by a spectator (two people made it twice as long for the same checks: the frames of a seat and
of a spectator are built in one batch either way). Both have a real socket through the consumer
(``mayi_site.asgi.application``: the group message, the batch of frames, the encoding). After
every move each socket's client takes the frames it got (``FrameClient``: the newest table and
view, the log grown by each frame's entries) and must hold exactly what ``GET
/api/tables/<id>`` answers its user now; its log must be the moves of the game without a gap
or a repeat. Every other move the frames are built as another process builds them (from reads,
not from the commit this process remembers), and once a game a socket reconnects with the
version it has, as the page does after a drop. Played again with the player's socket named in
each POST, as the page does while its socket is down (``X-Table-Socket``): that socket is then
sent no frame of the player's own moves, and the page's model takes the POST's answer instead.
And again with the player's moves sent over the socket, as the page does while it is open:
the answer is the frame naming the move's ``ref``, and no other frame of that version comes.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import engine, services
from games.engine.rulesets import RULESETS
from games.models import Move, Table
from tests.live.test_websocket import started
from tests.live.test_websocket_log import connect_since
from tests.live.wsutil import (  # noqa: F401 (close_db_pools: a fixture)
    TIMEOUT,
    as_get,
    close_db_pools,
    communicator,
    run,
    session_for,
    steady,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_db_pools")]

MAX_MOVES = 2000
LEVEL = "heuristic"


class FrameClient:
    """A page's model of the table, built only from the frames its socket gets."""

    def __init__(self, comm: WebsocketCommunicator, user: Any) -> None:
        self.comm, self.user = comm, user
        self.frame: dict[str, Any] | None = None
        self.version = -1
        self.log: list[dict[str, Any]] = []

    def take_answer(self, answer: dict[str, Any]) -> None:
        """The answer to this page's own POST, as the page applies it (static/js/table)."""
        self.take({"type": "table", "version": answer["table"]["version"], **answer})

    def take(self, frame: dict[str, Any]) -> None:
        assert frame["type"] == "table", frame
        assert frame["version"] > self.version, (frame["version"], self.version)
        entries = frame["log"]
        if self.frame is not None:
            # The log of a frame is exactly what came after the version the socket had.
            assert all(e["version"] > self.version for e in entries), "a move sent twice"
        self.log += entries
        self.frame, self.version = frame, frame["version"]

    async def until(self, version: int) -> None:
        while self.version < version:
            self.take(await self.comm.receive_json_from(timeout=TIMEOUT))

    async def quiet(self) -> None:
        """No frame beyond the ones awaited."""
        assert await self.comm.receive_nothing(timeout=0.01), "an unexpected frame"


async def get_now(api: Any, table_id: int, version: int) -> dict[str, Any]:
    """``GET /api/tables/<id>`` now, less its log (``?since`` the version just made: the log
    is compared once, whole, at the end) and what only the wall clock moves."""

    def get() -> dict[str, Any]:
        response = api.get(f"/api/tables/{table_id}?since={version}")
        assert response.status_code == 200, response.content[:300]
        return steady(response.json())

    return await database_sync_to_async(get)()


def _moves(table_id: int) -> list[tuple[int, int]]:
    return list(
        Move.objects.filter(table_id=table_id).order_by("seq").values_list("seq", "version")
    )


def _state(table_id: int) -> tuple[engine.State, int]:
    table = Table.objects.get(pk=table_id)
    return engine.state_of(table.state), table.version


NAME = "alicepage01"


@pytest.mark.parametrize(
    ("ruleset", "way"),
    [(ruleset, "post") for ruleset in sorted(RULESETS)]
    + [(sorted(RULESETS)[0], "named"), (sorted(RULESETS)[0], "socket")],
)
def test_frames_build_what_a_fresh_get_shows_through_whole_games(
    ruleset, way, alice, charlie, api_for, monkeypatch
):
    named = way == "named"
    players = RULESETS[ruleset].min_players
    table = started(alice, seats=players, public=True, ruleset=ruleset)
    people = {0: alice}
    watchers = [alice, charlie]  # charlie is not seated: the spectator
    keys = {user.pk: session_for(user) for user in watchers}
    apis = {user.pk: api_for(user) for user in watchers}

    # Every other move, frames as another daphne process builds them: nothing remembered of
    # the commit (games/services/recent.py), the table and the log read back.
    remembered = services.table_recent_commit
    state = {"forget": False}

    def recall(table_id: int, version: int) -> Any:
        found = remembered(table_id, version)
        return None if state["forget"] else found

    monkeypatch.setattr(services, "table_recent_commit", recall)

    def choose(step: int) -> tuple[dict[str, Any], int, int] | None:
        st, version = _state(table.pk)
        if engine.is_over(st):
            return None
        seat = next(s for s in engine.seats_to_act(st) if s in people)
        action = engine.choose_action(st, seat, LEVEL)
        assert action is not None
        state["forget"] = step % 2 == 1
        return action, version, seat

    def act(step: int) -> tuple[dict[str, Any] | None, bool]:
        chosen = choose(step)
        if chosen is None:
            return None, True
        action, version, seat = chosen
        answer = api_for(people[seat]).client.post(
            f"/api/tables/{table.pk}/actions",
            json.dumps({**action, "expect_version": version}),
            content_type="application/json",
            **({"HTTP_X_TABLE_SOCKET": NAME} if named else {}),
        )
        assert answer.status_code == 200, answer.content[:300]
        return answer.json(), False

    async def scenario() -> int:
        clients = []
        for user in watchers:
            comm = (
                connect_since(table.pk, keys[user.pk], None, client=NAME)
                if named and user == alice
                else communicator(table.pk, keys[user.pk])
            )
            assert (await comm.connect(timeout=TIMEOUT))[0]
            client = FrameClient(comm, user)
            client.take(await comm.receive_json_from(timeout=TIMEOUT))
            clients.append(client)
        first = clients[0].log[0]["seq"] if clients[0].log else 1
        reconnected = False
        for step in range(MAX_MOVES):
            if way == "socket":
                chosen = await database_sync_to_async(choose)(step)
                if chosen is None:
                    break
                action, at, _ = chosen
                mine = clients[0]
                ref = f"m{step}"
                await mine.comm.send_json_to(
                    {"type": "action", "action": action, "expect_version": at, "ref": ref}
                )
                while True:
                    frame = await mine.comm.receive_json_from(timeout=TIMEOUT)
                    if frame.get("ref") == ref:
                        break
                    mine.take(frame)  # a frame before the answer (none is expected)
                assert frame["type"] == "table", frame
                mine.take({k: v for k, v in frame.items() if k != "ref"})
                version = frame["version"]
            else:
                answer, over = await database_sync_to_async(act)(step)
                if over or answer is None:
                    break
                version = answer["table"]["version"]
                if named:
                    clients[0].take_answer(answer)
            for client in clients:
                await client.until(version)
                got = await get_now(apis[client.user.pk], table.pk, version)
                assert client.version == version, "a frame skipped past the move"
                assert as_get(client.frame) == got
            if not reconnected and step == 40:
                # A dropped socket comes back with the version it has: its first frame
                # carries the moves since, and nothing the page already holds.
                reconnected = True
                old = clients[0]
                await old.comm.disconnect()
                comm = connect_since(
                    table.pk, keys[alice.pk], old.version, client=NAME if named else None
                )
                assert (await comm.connect(timeout=TIMEOUT))[0]
                old.comm, old.version = comm, -1
                frame = await comm.receive_json_from(timeout=TIMEOUT)
                assert frame["log"] == [], "a reconnect at the current version resent moves"
                old.take(frame)
        else:
            pytest.fail(f"{ruleset}: no end after {MAX_MOVES} moves")
        moves = await database_sync_to_async(_moves)(table.pk)
        for client in clients:
            # No gap and no repeat: every move from the first frame's on, once, in order.
            assert [(e["seq"], e["version"]) for e in client.log] == [
                m for m in moves if m[0] >= first
            ], client.user
            await client.quiet()
            await client.comm.disconnect()
        return step

    played = run(scenario)
    assert played > 20, "the game ended too soon to say anything"
    final = Table.objects.get(pk=table.pk)
    assert engine.is_over(engine.state_of(final.state))
