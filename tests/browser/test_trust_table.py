"""Issue 29 on the table page in a real browser, at both sizes: each person's reliability beside
their name in the players panel, its counts on hover (laptop) or tap (phone) and inside the
screen; the final scores give each person's rating change; no serious axe-core fault."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games import services
from games.models import Seat
from stats.models import GameResult
from stats.ratings import display
from tests.browser.pages import signed_in_page, wait_live
from tests.browser.tables import (
    no_sideways_scroll,
    open_reliability_tip,
    serious_violations,
    shoot,
)
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)
from tests.site.stats_play import play_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]

SIZES = {"laptop": (1280, 800), "phone": (375, 812)}


def _context(size: str) -> dict[str, Any]:
    width, height = SIZES[size]
    options: dict[str, Any] = {"viewport": {"width": width, "height": height}}
    if size == "phone":
        options.update(has_touch=True, is_mobile=True)
    return options


def _games(alice: Any, bob: Any) -> tuple[int, int]:
    """A finished game of alice, bob and a bot; then a started one of the same."""
    try:
        finished = play_game(alice, [bob], bots=1, seed="trust-table-finished")
        table = services.table_create(host=alice, seats=3)
        services.table_join(user=bob, table_id=table.pk)
        services.table_fill_with_bots(user=alice, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="trust-table-live")
        return finished.pk, table.pk
    finally:
        connection.close()


@pytest.mark.parametrize("size", SIZES)
def test_reliability_in_the_players_panel_and_rating_changes(
    live_server, browser, alice, bob, pool, size
):
    finished_id, live_id = pool.submit(_games, alice, bob).result()
    bob_seat = Seat.objects.get(table_id=live_id, user=bob).position
    page = signed_in_page(browser, live_server.url, alice, **_context(size))
    try:
        page.goto(f"{live_server.url}/tables/{live_id}/")
        wait_live(page)
        badge = page.locator(f"#players [data-seat='{bob_seat}'] button.rel")
        assert badge.inner_text().strip().endswith("new")
        # Bots have none.
        bots = Seat.objects.filter(table_id=live_id, is_bot=True).values_list("position", flat=True)
        for position in bots:
            assert page.locator(f"#players [data-seat='{position}'] button.rel").count() == 0
        tip = page.locator(f"#players [data-seat='{bob_seat}'] .rel-tip")
        text = open_reliability_tip(page, badge, tip, size)
        assert "finished 1 of their last 1 game in their seat" in text
        no_sideways_scroll(page)
        shoot(page, "trust-players-panel")
        assert serious_violations(page) == []

        # The finished game: the final scores say each person's rating change.
        page.goto(f"{live_server.url}/tables/{finished_id}/")
        page.wait_for_selector("#game-end")
        mine = GameResult.objects.get(table_id=finished_id, user=alice)
        change = display(mine.mu_after) - display(mine.mu_before)
        text = page.inner_text("#game-end")
        sign = "+" if change > 0 else "−" if change < 0 else "±"
        assert f"rating {display(mine.mu_after)} ({sign}{abs(change)})" in text
        assert page.locator("#game-end [data-rating-change]").count() == 2  # alice and bob
        no_sideways_scroll(page)
        shoot(page, "trust-final-scores")
        assert serious_violations(page) == []
    finally:
        page.context.close()
