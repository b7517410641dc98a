"""The header's "Your games" count on every page (issue 26 point 15, issue 28): the games
waiting on me, at both sizes, kept fresh by the lobby's timer (and when the tab comes back) and
at once on a table page when its socket brings a move; in the tab's title too."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from games import services
from tests.browser.pages import signed_in_page, wait_for_js, wait_live
from tests.browser.tables import no_sideways_scroll, serious_violations, shoot
from tests.browser.test_lobby_pages import _others_play_until_it_waits_on, _started

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1280, 800), (375, 812)]
COUNT = "document.querySelector('#your-games').dataset.count"


@pytest.mark.parametrize("size", SIZES, ids=["laptop", "phone"])
def test_every_page_s_header_counts_my_games_and_keeps_the_count_fresh(
    live_server, browser, alice, bob, size
):
    try:
        mine = services.table_play_now(user=alice, seed="badge-0")
        theirs = _started(alice, bob, "badge", want_host=False)
        assert services.tables_waiting_on(user=alice) == [mine.pk]
    finally:
        connection.close()
    width, height = size
    page = signed_in_page(
        browser, live_server.url, alice, viewport={"width": width, "height": height}
    )
    try:
        page.goto(f"{live_server.url}/rules/")
        badge = page.locator("#your-games")
        assert badge.is_visible() and badge.locator(".count").inner_text() == "1"
        assert badge.get_attribute("href") == "/#my-games"
        assert page.title().startswith("(1) ")
        no_sideways_scroll(page)
        # The badge sits in the header's one line beside the other links, never over them.
        box, brand = badge.bounding_box(), page.locator(".brand").bounding_box()
        header = page.locator("header.top").bounding_box()
        assert box["y"] + box["height"] <= header["y"] + header["height"]
        assert box["x"] >= brand["x"] + brand["width"]
        first = page.locator("header.top nav > *").first.bounding_box()
        assert first["x"] >= brand["x"] + brand["width"] + 4, "the links run into the site's name"
        assert serious_violations(page) == []
        shoot(page, "your-games-rules")

        # Bob plays until the other game waits on alice: the tab coming back asks again.
        _others_play_until_it_waits_on(theirs.pk, alice, bob)
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        wait_for_js(page, f"{COUNT} === '2'")
        assert badge.locator(".count").inner_text() == "2"
        wait_for_js(page, "document.title.startsWith('(2) ')")

        # The badge leads to the lobby's list of my games.
        badge.click()
        page.wait_for_url(f"{live_server.url}/#my-games")
        assert page.locator("#my-games li[data-mark]").count() == 2
        assert page.locator("#your-games .count").inner_text() == "2"
        shoot(page, "your-games-lobby")
    finally:
        page.context.close()


def test_on_a_table_page_the_count_follows_the_socket(live_server, browser, alice, bob):
    # Alice watches her game with bob (bob's turn); bob's move hands her the turn: the header
    # says so as the frame arrives, without a reload, a tab switch or the 30 s timer.
    try:
        table = _started(alice, bob, "badge-live", want_host=False)
    finally:
        connection.close()
    page = signed_in_page(browser, live_server.url, alice, viewport={"width": 375, "height": 812})
    try:
        page.goto(f"{live_server.url}/tables/{table.pk}/")
        wait_live(page)
        assert page.locator("#your-games").get_attribute("data-count") == "0"
        assert not page.locator("#your-games .count").is_visible()
        # Off the thread of Playwright's loop, so the move's on-commit broadcast can run.
        with ThreadPoolExecutor(1) as pool:
            pool.submit(_others_play_until_it_waits_on, table.pk, alice, bob).result()
        wait_for_js(page, f"{COUNT} === '1'", timeout=10000)
        assert page.locator("#your-games .count").is_visible()
        # The page's own "your turn" mark stays in the title, after the count.
        wait_for_js(page, "/^\\(1\\) ● Your turn/.test(document.title)")
        shoot(page, "your-games-table")
    finally:
        page.context.close()


def test_signed_out_pages_show_no_count(live_server, page: Any):
    page.goto(f"{live_server.url}/rules/")
    assert page.locator("#your-games").count() == 0
    assert not page.title().startswith("(")
