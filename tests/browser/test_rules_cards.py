"""The rules pages (issue 26 points 8 and 18) in a real browser at both sizes: their example
cards are the table page's cards (not colour-and-letter chips), each ruleset's range is named,
and axe-core finds nothing serious."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import RULESETS
from tests.browser.pages import wait_for_js
from tests.browser.tables import no_sideways_scroll, serious_violations, shoot

pytestmark = [pytest.mark.browser, pytest.mark.layout, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": (1280, 800), "phone": (375, 812)}


@pytest.mark.parametrize("size", SIZES)
def test_the_rules_pages_draw_the_table_page_s_cards(live_server, browser, size):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page: Any = context.new_page()
    try:
        page.goto(f"{live_server.url}/rules/")
        for name, rules in RULESETS.items():
            item = page.locator("li.card").filter(has=page.locator(f"code:text-is('{name}')"))
            assert f"{rules.min_players} to {rules.max_players} players" in item.inner_text()
        assert serious_violations(page) == []
        no_sideways_scroll(page)
        for name in RULESETS:
            page.goto(f"{live_server.url}/rules/{name}/")
            groups = page.locator(".cards-inline")
            wait_for_js(
                page,
                "[...document.querySelectorAll('.cards-inline')].every((e) => e.classList.contains('drawn'))",
            )
            assert groups.count() >= 5, name
            # Every example is drawn as the table draws a card, none as a text chip.
            assert page.locator(".cards-inline .pcard").count() == 0, name
            assert page.locator(".cards-inline .pc").count() >= 20, name
            labels = page.locator(".cards-inline .mini-cards").evaluate_all(
                "els => els.map((e) => e.getAttribute('aria-label'))"
            )
            assert all(labels), name
            assert serious_violations(page) == [], name
            no_sideways_scroll(page)
            if name in ("bga", "rook"):
                page.locator("#contracts, h2").first.scroll_into_view_if_needed()
                shoot(page, f"rules-{name}")
    finally:
        context.close()
