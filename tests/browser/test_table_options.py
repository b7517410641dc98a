"""The table page's opt-ins and its log's history, as a player meets them: browser
notifications when my turn comes while the tab is in the background (only once I said yes,
and only if the browser allowed them), the four-colour suits of the standard cards (kept
across a reload, offered only where there are suits), and "Show earlier moves" paging the
log back to the first move.

Served by daphne (tests/browser/conftest.py's ``live_server``), tables arranged as in
test_table_page.py. The browser's Notification API is replaced by a recorder before the page's
scripts run (Playwright's init script, which the page's Content-Security-Policy does not
cover): headless chromium shows no notification a test could see, and the permission prompt
is the user's answer, which the recorder plays.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.db import connection

from games import engine, services
from games.engine.bots import choose_action
from games.models import Table
from tests.browser.pages import signed_in_page, wait_for_js
from tests.browser.tables import OFFER, arranged_table, shoot, submit_as_a_client
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]


# The Notification API as a recorder: what the page shows goes to window.__notes; the
# permission prompt answers window.__answer (kept for the origin, as a browser does); the tab
# is in the background while window.__hidden is true.
FAKE_NOTIFICATIONS = """
(() => {
  window.__notes = [];
  class Recorder {
    constructor(title, options) { window.__notes.push({ title, body: (options || {}).body || "" }); }
    static get permission() { return localStorage.getItem("test:permission") || "default"; }
    static async requestPermission() {
      const answer = window.__answer || "denied";
      localStorage.setItem("test:permission", answer);
      return answer;
    }
  }
  window.Notification = Recorder;
  Object.defineProperty(Document.prototype, "visibilityState", {
    configurable: true, get() { return window.__hidden ? "hidden" : "visible"; },
  });
})();
"""


def _open(browser: Any, url: str, user: Any, table_id: int, *, fake: bool = False) -> Any:
    page = signed_in_page(browser, url, user)
    page.set_viewport_size({"width": 1280, "height": 800})
    if fake:
        page.add_init_script(FAKE_NOTIFICATIONS)
    page.goto(f"{url}/tables/{table_id}/")
    page.wait_for_selector("#hand [data-card]")
    return page


def _version(page: Any) -> int:
    return int(page.evaluate("document.getElementById('table').dataset.version"))


def _say_may_i_in_the_background(page: Any) -> None:
    """The tab goes to the background; my "May I?" (sent before) lets the bot end its turn,
    and then it is my turn to draw."""
    v = _version(page)
    page.evaluate("window.__hidden = true")
    page.click("#window [data-action='may_i']")
    wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {v}")
    page.wait_for_selector("#stock.glow")


def test_my_turn_notifies_me_in_the_background_once_i_opt_in(live_server, browser, alice, pool):
    table_id, _ = pool.submit(arranged_table, alice, **OFFER).result()
    page = _open(browser, live_server.url, alice, table_id, fake=True)
    try:
        page.keyboard.press("?")
        box = page.locator("#notify")
        assert not box.is_checked()  # off until I ask for it
        # The browser's prompt refused: the option stays off, and says so.
        page.evaluate("window.__answer = 'denied'")
        box.click()
        wait_for_js(page, "!document.getElementById('notify').checked")
        assert page.evaluate("localStorage.getItem('mayi:notify')") == "false"
        # Allowed: on, and still on after a reload.
        page.evaluate("localStorage.removeItem('test:permission'); window.__answer = 'granted'")
        box.click()
        wait_for_js(page, "document.getElementById('notify').checked")
        page.reload()
        page.wait_for_selector("#hand [data-card]")
        page.keyboard.press("?")
        assert page.locator("#notify").is_checked()
        page.keyboard.press("?")
        assert page.evaluate("window.__notes") == []
        _say_may_i_in_the_background(page)
        notes = page.evaluate("window.__notes")
        assert [n["title"] for n in notes] == ["May I?: your turn"]
        assert notes[0]["body"].startswith("Draw from the stock")
    finally:
        page.context.close()


def test_no_notification_without_opting_in_nor_while_i_look(live_server, browser, alice, pool):
    table_id, _ = pool.submit(arranged_table, alice, **OFFER).result()
    page = _open(browser, live_server.url, alice, table_id, fake=True)
    try:
        page.evaluate("localStorage.setItem('test:permission', 'granted')")
        _say_may_i_in_the_background(page)  # allowed by the browser, but never asked for
        assert page.evaluate("window.__notes") == []
    finally:
        page.context.close()
    table_id, _ = pool.submit(arranged_table, alice, **OFFER).result()
    page = _open(browser, live_server.url, alice, table_id, fake=True)
    try:
        page.evaluate("localStorage.setItem('test:permission', 'granted')")
        page.evaluate("localStorage.setItem('mayi:notify', 'true')")
        v = _version(page)
        page.click("#window [data-action='may_i']")  # the tab in front: the page says it
        wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {v}")
        page.wait_for_selector("#stock.glow")
        assert page.evaluate("window.__notes") == []
        assert re.match(r"(\(\d+\) )?● Your turn", page.title())
    finally:
        page.context.close()


# Petras: standard cards. Hearts and diamonds are red, spades and clubs black, until the
# four-colour option makes diamonds blue and clubs green.
STANDARD = {"hands": {0: "QH 7D 3C KS 10D 4C 9H 2S 5D 6C"}, "active": 0, "phase": "draw"}
RED, BLACK, BLUE, GREEN = (
    "rgb(185, 28, 28)",
    "rgb(17, 24, 39)",
    "rgb(29, 78, 216)",
    "rgb(21, 128, 61)",
)


def _colours(page: Any) -> dict[str, str]:
    """The colour each suit of my hand is drawn in (H, D, C, S)."""
    return page.evaluate(
        """() => {
          const out = {};
          for (const suit of ["H", "D", "C", "S"]) {
            const card = document.querySelector(`#hand .pc-standard.s-${suit}`);
            out[suit] = card ? getComputedStyle(card).color : null;
          }
          return out;
        }"""
    )


def _colours_become(page: Any, expected: dict[str, str]) -> dict[str, str]:
    """The suits' colours once the page has redrawn the hand (a setting's change is drawn on
    the next render, not at the click), or as they are after 5 s."""
    deadline = time.monotonic() + 5
    while (found := _colours(page)) != expected and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def test_four_colour_suits_for_the_standard_cards(live_server, browser, alice, pool):
    table_id, _ = pool.submit(arranged_table, alice, ruleset="petras", **STANDARD).result()
    page = _open(browser, live_server.url, alice, table_id)
    try:
        two = {"H": RED, "D": RED, "C": BLACK, "S": BLACK}
        four = {"H": RED, "D": BLUE, "C": GREEN, "S": BLACK}
        assert _colours_become(page, two) == two
        page.keyboard.press("?")
        page.check("#four-colour")
        assert _colours_become(page, four) == four
        shoot(page, "four-colour")
        page.keyboard.press("?")
        page.reload()
        page.wait_for_selector("#hand [data-card]")
        assert _colours_become(page, four) == four
        page.keyboard.press("?")
        page.uncheck("#four-colour")
        assert _colours_become(page, two) == two
    finally:
        page.context.close()
    # MAYI letters have four colours of their own: no such option on a bga table.
    table_id, _ = pool.submit(arranged_table, alice, **OFFER).result()
    page = _open(browser, live_server.url, alice, table_id)
    try:
        page.keyboard.press("?")
        page.wait_for_selector("#help")
        assert page.locator("#four-colour").count() == 0
        assert page.locator("#notify").count() == 1
    finally:
        page.context.close()


def _long_game(alice: Any, moves: int) -> int:
    """A "Play now" table where alice's moves are the bot policy's, until it holds ``moves``."""
    try:
        table = services.table_play_now(user=alice, seed="browser-log-paging")
        for _ in range(400):
            table = Table.objects.get(pk=table.pk)
            if table.move_count >= moves:
                break
            if 0 not in engine.seats_to_act(table.state):
                raise AssertionError("the bots wait on nobody but alice")
            submit_as_a_client(
                table_id=table.pk,
                user=alice,
                action=choose_action(table.state, 0),
                expect_version=table.version,
            )
        return table.pk
    finally:
        connection.close()


def _seqs(page: Any) -> list[int]:
    return page.eval_on_selector_all(
        "#log li[data-seq]", "els => els.map((e) => Number(e.dataset.seq))"
    )


def test_show_earlier_moves_pages_the_log_back_to_the_first_move(
    live_server, browser, alice, pool, monkeypatch
):
    table_id = pool.submit(_long_game, alice, 40).result()
    # The page comes with the last few moves only (200 in production).
    monkeypatch.setattr("games.services.log.LOG_LIMIT", 10)
    page = _open(browser, live_server.url, alice, table_id)
    try:
        shown = _seqs(page)
        assert shown and min(shown) > 1
        older = page.locator("#log-older")
        assert older.is_visible() and older.inner_text() == "Show earlier moves"
        before = page.locator("#log li").count()
        older.click()
        page.wait_for_selector("#log li[data-seq='1']")
        after = _seqs(page)
        # The moves from the first one, newest first, and nothing more to show.
        assert after == sorted(after, reverse=True) and min(after) == 1
        assert set(shown) < set(after) and page.locator("#log li").count() > before
        assert page.locator("#log-older").count() == 0
        assert page.locator("#log li[data-seq='1']").inner_text().strip()
    finally:
        page.context.close()
