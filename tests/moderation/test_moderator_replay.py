"""A moderator's replay (issue 26 point 8): the inspect page steps through the game in the
page from one fetch of every move, with every hand and the stock's next cards, for a game in
play too; refused as the inspect page is, and audited."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import engine
from games import services as games
from games.engine.bots import choose_action
from games.models import Table
from moderation.models import AuditEntry
from tests.conftest import make_moderator, verified_client

pytestmark = pytest.mark.django_db


def _play(table: Table, users: dict[int, Any], moves: int) -> Table:
    for _ in range(moves):
        table.refresh_from_db()
        seat = engine.seats_to_act(table.state)[0]
        table, _ = games.table_submit_action(
            table_id=table.pk,
            user=users[seat],
            action=choose_action(table.state, seat),
            expect_version=table.version,
        )
    return table


def test_the_moderator_s_replay_has_every_move_every_hand_and_the_stock(
    three_player_game, alice, bob, carol
):
    table = _play(three_player_game, {0: alice, 1: bob, 2: carol}, 12)
    mod = make_moderator("gamemod", "game")
    client = verified_client(mod)
    page = client.get(f"/admin/moderation/tablecase/{table.pk}/inspect/").content.decode()
    frames_url = f"/admin/moderation/tablecase/{table.pk}/inspect/frames/"
    assert f'data-source="{frames_url}"' in page and "js/replay.js" in page
    before = AuditEntry.objects.filter(action=AuditEntry.Action.INSPECT_TABLE).count()
    game = client.get(frames_url).json()
    assert AuditEntry.objects.filter(action=AuditEntry.Action.INSPECT_TABLE).count() == before + 1
    assert game["total"] == table.move_count == 12 and len(game["frames"]) == 13
    hands: list[list[str]] = []
    for frame in game["frames"]:
        for seat, cards in frame["hands"].items():
            hands += [[]] * (int(seat) + 1 - len(hands))
            hands[int(seat)] = cards
        assert len(frame["stock_next"]) == 8 and frame["stock_size"] >= 8
    table.refresh_from_db()
    assert hands == table.state["hands"]
    # The next cards drawn: the stock is drawn from its end.
    assert game["frames"][-1]["stock_next"] == table.state["stock"][-8:][::-1]


def test_the_moderator_s_replay_is_refused_as_the_inspect_page(three_player_game, alice):
    table = three_player_game
    url = f"/admin/moderation/tablecase/{table.pk}/inspect/frames/"
    # Not staff: the admin's login; a chat moderator: no right to read hands.
    assert Client().get(url).status_code == 302
    chat_mod = make_moderator("chatmod", "chat")
    refused = verified_client(chat_mod).get(url)
    assert refused.status_code in (302, 403)
    # A moderator who plays at the table may not read its hands while it is played.
    player_mod = make_moderator("alicemod", "game", user=alice)
    refused = verified_client(player_mod).get(url)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "moderation_refused"
    # A table that never started has nothing to replay.
    empty = games.table_create(host=alice, seats=3)
    mod = make_moderator("gamemod", "game")
    refused = verified_client(mod).get(f"/admin/moderation/tablecase/{empty.pk}/inspect/frames/")
    assert refused.status_code == 409 and "has not started" in refused.json()["error"]["message"]
