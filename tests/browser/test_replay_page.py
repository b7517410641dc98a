"""The replay (issue 26 point 8) in a real browser at both sizes: one fetch of the whole
game, then every step drawn in the page (keys, buttons, the slider), opening at the deal,
a deep link (?move=N or #N) that survives a reload, the table page's cards, the log newest
first throughout, and no serious axe-core fault."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games.models import Move
from tests.browser.pages import signed_in_page, wait_for_js
from tests.browser.tables import no_sideways_scroll, serious_violations, shoot
from tests.site.stats_play import play_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": (1280, 800), "phone": (375, 812)}
READY = "document.getElementById('replay-app').dataset.ready === '1'"


def _position(page: Any) -> str:
    return page.inner_text("#replay-position")


def _at(page: Any) -> int:
    return int(page.get_attribute("#replay-app", "data-move"))


@pytest.mark.parametrize("size", SIZES)
def test_the_replay_opens_at_the_deal_and_steps_in_the_page(live_server, browser, alice, bob, size):
    try:
        table = play_game(alice, [bob], bots=1, seed="browser-replay-steps")
        total = Move.objects.filter(table=table).count()
        start_hands = sum(
            len(h)
            for h in __import__("games.engine", fromlist=["x"]).initial_state(table.state)["hands"]
        )
    finally:
        connection.close()
    width, height = SIZES[size]
    page = signed_in_page(
        browser, live_server.url, alice, viewport={"width": width, "height": height}
    )
    requests: list[str] = []
    page.on("request", lambda r: requests.append(f"{r.resource_type} {r.url}"))
    try:
        url = f"{live_server.url}/tables/{table.pk}/replay/"
        page.goto(url)
        wait_for_js(page, READY)
        # The first move: the deal, every hand drawn with the table page's cards.
        assert _position(page) == f"Round 1 · move 0 of {total}"
        assert page.locator("#replay-hands .pc").count() == start_hands
        assert page.locator(".card-face").count() == 0
        assert page.locator("#discard .pc").count() == 1
        assert "Round 1 begins" in page.inner_text("#replay-now")
        assert serious_violations(page) == []
        no_sideways_scroll(page)
        shoot(page, "replay-deal")

        loaded = list(requests)
        fetches = [r for r in loaded if f"/api/tables/{table.pk}/replay" in r]
        assert len(fetches) == 1, loaded
        # Steps: keys, buttons, rounds, the slider; none asks the server again.
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        assert _at(page) == 3 and _position(page).endswith(f"move 3 of {total}")
        page.click("#prev-move")
        assert _at(page) == 2
        page.keyboard.press("End")
        assert _at(page) == total and "Round 7" in _position(page)
        assert page.locator("#replay-hands [data-seat] dd").filter(has_text="1").count() >= 1
        page.keyboard.press("Home")
        assert _at(page) == 0
        page.keyboard.press("PageDown")
        assert "Round 2" in _position(page)
        page.fill("#replay-slider", "40")
        assert _at(page) == 40
        page.keyboard.press("ArrowLeft")  # the focus on the slider: it steps once, not twice
        assert _at(page) == 39
        assert [r for r in requests[len(loaded) :] if "/replay" in r or "document" in r] == []
        assert page.url.endswith("?move=39")

        # The log reads newest first: the move shown on top, then the ones before it.
        seqs = [
            int(s)
            for s in page.locator("#replay-log li").evaluate_all(
                "els => els.map((e) => e.dataset.seq)"
            )
        ]
        assert seqs[0] == 39 and seqs == sorted(seqs, reverse=True)
        assert page.locator("#replay-log li.current").first.get_attribute("data-seq") == "39"
        # A log line is a link to its move.
        page.locator(f"#replay-log li[data-seq='{seqs[-1]}'] a").first.click()
        assert _at(page) == seqs[-1]
        shoot(page, "replay-step")
        assert serious_violations(page) == []

        # The address keeps the move: a reload opens it again; #N links too.
        page.keyboard.press("ArrowRight")
        moved = _at(page)
        page.reload()
        wait_for_js(page, READY)
        assert _at(page) == moved
        page.goto(f"{url}#12")
        wait_for_js(page, READY)
        assert _at(page) == 12 and _position(page).endswith(f"move 12 of {total}")
        page.goto(f"{url}?move=25")
        wait_for_js(page, READY)
        assert _at(page) == 25
        no_sideways_scroll(page)
    finally:
        page.context.close()
