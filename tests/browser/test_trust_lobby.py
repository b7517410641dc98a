"""Issue 29 in a real browser at both sizes: the lobby's filters (ruleset, pace, seats free)
narrow the open tables and stay chosen; each name carries its reliability, whose counts a hover
(laptop) or a tap (phone) shows; no sideways scroll, no serious axe-core fault."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games import services
from tests.browser.pages import signed_in_page
from tests.browser.tables import (
    no_sideways_scroll,
    open_reliability_tip,
    serious_violations,
    shoot,
)
from tests.site.stats_helpers import finished_game, rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": (1280, 800), "phone": (375, 812)}


def _context(size: str) -> dict[str, Any]:
    width, height = SIZES[size]
    options: dict[str, Any] = {"viewport": {"width": width, "height": height}}
    if size == "phone":
        options.update(has_touch=True, is_mobile=True)
    return options


def _open_ids(page: Any) -> list[int]:
    return [
        int(n)
        for n in page.eval_on_selector_all(
            "#open-tables > li", "items => items.map((li) => li.dataset.table)"
        )
    ]


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_filters_and_the_reliability_counts(
    live_server, browser, alice, bob, carol, size
):
    try:
        for _ in range(5):
            finished_game([bob, carol], [rounds([10] * 7), rounds([20] * 7)], expelled=())
        finished_game([bob, carol], [rounds([10] * 7), rounds([20] * 7)], expelled=(0,))
        fast = services.table_create(host=bob, seats=3, turn_seconds=300, window_seconds=30)
        daily = services.table_create(host=carol, seats=4, turn_seconds=86400)
        rook = services.table_create(host=carol, seats=3, ruleset="rook", turn_seconds=3 * 86400)
    finally:
        connection.close()
    page = signed_in_page(browser, live_server.url, alice, **_context(size))
    try:
        page.goto(f"{live_server.url}/")
        assert set(_open_ids(page)) == {fast.pk, daily.pk, rook.pk}
        fast_entry = page.locator(f'#open-tables li[data-table="{fast.pk}"]')
        assert "fast: 5 min a turn" in fast_entry.inner_text()
        assert "“May I?” 30 s" in fast_entry.inner_text()

        # Reliability beside bob's name: 5 of 6 finished; the counts on hover or tap.
        badge = fast_entry.locator("button.rel").first
        assert badge.inner_text().strip().endswith("83%")
        tip = fast_entry.locator(".rel-tip").first
        text = open_reliability_tip(page, badge, tip, size)
        assert "finished 5 of their last 6 games in their seat" in text
        shoot(page, "trust-lobby-reliability")
        if size == "phone":
            page.locator("h1").tap()  # a tap elsewhere closes it
            assert not tip.is_visible()

        # Filters: the pace, then the seats free, then the ruleset.
        page.select_option("#lobby-filters select[name=pace]", "fast")
        page.click("#lobby-filters button[type=submit]")
        page.wait_for_url("**/?*pace=fast*")
        assert _open_ids(page) == [fast.pk]
        assert page.eval_on_selector("#lobby-filters select[name=pace]", "s => s.value") == "fast"
        shoot(page, "trust-lobby-filtered")
        page.select_option("#lobby-filters select[name=pace]", "")
        page.select_option("#lobby-filters select[name=seats_free]", "3")
        page.click("#lobby-filters button[type=submit]")
        page.wait_for_url("**/?*seats_free=3*")
        assert _open_ids(page) == [daily.pk]
        page.select_option("#lobby-filters select[name=seats_free]", "1")
        page.select_option("#lobby-filters select[name=ruleset]", "rook")
        page.click("#lobby-filters button[type=submit]")
        page.wait_for_url("**/?*ruleset=rook*")
        assert _open_ids(page) == [rook.pk]
        page.click("#clear-filters")
        page.wait_for_url(f"{live_server.url}/")
        assert len(_open_ids(page)) == 3
        no_sideways_scroll(page)
        shoot(page, "trust-lobby")
        assert serious_violations(page) == []
    finally:
        page.context.close()
