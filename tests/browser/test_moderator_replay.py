"""A moderator's replay (issue 26 point 8) in a real browser at both sizes: the inspect page
of a game being played steps through it in the page (every hand, the stock's next cards) from
one fetch, with the players' replay's components."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from games import engine, services
from games.engine.bots import choose_action
from tests.browser.pages import wait_for_js
from tests.browser.tables import no_sideways_scroll, shoot
from tests.conftest import make_moderator, verified_client

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": (1280, 800), "phone": (375, 812)}


def _game_in_play(alice: Any, bob: Any, carol: Any) -> tuple[int, str, int]:
    try:
        table = services.table_create(host=alice, seats=3)
        services.table_join(user=bob, table_id=table.pk)
        services.table_join(user=carol, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="moderator-replay")
        users = {0: alice, 1: bob, 2: carol}
        for _ in range(20):
            table.refresh_from_db()
            seat = engine.seats_to_act(table.state)[0]
            table, _ = services.table_submit_action(
                table_id=table.pk,
                user=users[seat],
                action=choose_action(table.state, seat),
                expect_version=table.version,
            )
        mod = make_moderator("gamemod", "game")
        cookie = verified_client(mod).cookies[settings.SESSION_COOKIE_NAME].value
        dealt = sum(len(h) for h in engine.initial_state(table.state)["hands"])
        return table.pk, cookie, dealt
    finally:
        connection.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_moderator_steps_through_a_game_in_play(live_server, browser, alice, bob, carol, size):
    table_id, cookie, dealt = _game_in_play(alice, bob, carol)
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    page = context.new_page()
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    try:
        page.goto(f"{live_server.url}/admin/moderation/tablecase/{table_id}/inspect/")
        wait_for_js(page, "document.getElementById('replay-app').dataset.ready === '1'")
        assert "move 0 of 20" in page.inner_text("#replay-position")
        # The deal: every hand face up, as the players' replay shows a finished game's.
        assert page.locator("#replay-hands .pc").count() == dealt
        assert page.locator("#replay-stock .pc").count() == 8
        first_stock = page.locator("#replay-stock [data-card-face]").first.get_attribute(
            "data-card-face"
        )
        before = len(fetched)
        for _ in range(5):
            page.keyboard.press("ArrowRight")
        assert page.get_attribute("#replay-app", "data-move") == "5"
        page.keyboard.press("End")
        assert "move 20 of 20" in page.inner_text("#replay-position")
        # Drawing from the stock moved it on: the stock line follows the moves.
        assert (
            page.locator("#replay-stock [data-card-face]").first.get_attribute("data-card-face")
            != first_stock
        )
        assert [u for u in fetched[before:] if "/inspect" in u] == []
        assert page.locator("#replay-log li").count() >= 1
        if size == "laptop":  # the admin's own pages scroll sideways on a phone
            no_sideways_scroll(page)
        page.locator("#replay-app").scroll_into_view_if_needed()
        shoot(page, "moderator-replay")
    finally:
        context.close()
