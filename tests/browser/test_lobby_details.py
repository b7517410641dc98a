"""Issue 26 points 12, 13, 14, 17, 18 in a real browser at both sizes: the seats menu follows
the ruleset, the header's "Sign up" keeps an invitation, a full waiting room says so, a finished
game in "My games" says my place and score, and the lobby has its h1 and no serious axe fault."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games import services
from games.models import Table
from tests.browser.pages import signed_in_page
from tests.browser.tables import no_sideways_scroll, serious_violations, shoot
from tests.browser.test_lobby_pages import sign_up
from tests.site.stats_play import play_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": (1280, 800), "phone": (375, 812)}


def _viewport(size: str) -> dict[str, Any]:
    width, height = SIZES[size]
    return {"viewport": {"width": width, "height": height}}


def _seat_choices(page: Any) -> list[str]:
    return page.eval_on_selector(
        "#new-table select[name=seats]",
        "s => [...s.options].filter((o) => !o.disabled).map((o) => o.value)",
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_offers_the_seats_of_the_chosen_ruleset_and_my_results(
    live_server, browser, alice, bob, size
):
    try:
        finished = play_game(alice, [bob], bots=1, seed="lobby-browser-result")
        mine = finished.state["places"], finished.state["totals"]
    finally:
        connection.close()
    page = signed_in_page(browser, live_server.url, alice, **_viewport(size))
    try:
        page.goto(f"{live_server.url}/")
        assert page.locator("h1").count() == 1 and page.locator("h1").is_visible()
        # bga plays with 3 to 8: no 2 in the menu.
        page.select_option("#new-table select[name=ruleset]", "bga")
        assert _seat_choices(page) == [str(n) for n in range(3, 9)]
        page.select_option("#new-table select[name=ruleset]", "rook")
        assert _seat_choices(page)[0] == "2"
        page.select_option("#new-table select[name=seats]", "2")
        # Back to bga, the 2 it cannot play becomes the nearest count it can.
        page.select_option("#new-table select[name=ruleset]", "bga")
        assert page.eval_on_selector("#new-table select[name=seats]", "s => s.value") == "3"
        page.select_option("#new-table select[name=ruleset]", "petras")
        assert _seat_choices(page) == [str(n) for n in range(3, 7)]

        # My finished game says how it went for me.
        row = page.locator(f"#my-games li[data-table='{finished.pk}']")
        me = 0
        result = row.locator(".result").inner_text()
        assert result.endswith(f"of 3 · {mine[1][me]} points")
        assert result.startswith(str(mine[0][me]))
        row.scroll_into_view_if_needed()
        no_sideways_scroll(page)
        shoot(page, "lobby-result")
        assert serious_violations(page) == []
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_header_s_sign_up_keeps_the_invitation(live_server, browser, alice, size):
    try:
        table = services.table_create(host=alice, seats=3, public=False)
    finally:
        connection.close()
    context = browser.new_context(**_viewport(size))
    page = context.new_page()
    try:
        invite = f"{live_server.url}/join/{table.invite_code}/"
        page.goto(invite)
        page.click("header.top a:has-text('Sign up')")
        sign_up(page, f"eve{size}")
        page.wait_for_url(invite)
        page.click("main button:has-text('Take a seat')")
        page.wait_for_url(f"{live_server.url}/tables/{table.pk}/")
        assert Table.objects.get(pk=table.pk).seats.count() == 2
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_full_waiting_room_says_whom_it_waits_on(live_server, browser, alice, bob, size):
    try:
        table = services.table_create(host=alice, seats=2, ruleset="rook")
        services.table_join(user=bob, table_id=table.pk)
    finally:
        connection.close()
    page = signed_in_page(browser, live_server.url, bob, **_viewport(size))
    try:
        page.goto(f"{live_server.url}/tables/{table.pk}/")
        heading = page.inner_text("#room-state")
        assert "Waiting for players" not in heading
        assert "The table is full (2/2)" in heading and "waiting for alice to start" in heading
        no_sideways_scroll(page)
        shoot(page, "full-room")
    finally:
        page.context.close()
