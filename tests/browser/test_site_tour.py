"""Every page as a player sees it, at a phone's and a laptop's size: the header on one line,
nothing wider than the screen, no serious accessibility fault (axe-core) on the pages a player
reads (statistics, leaderboard, replay among them); screenshots of each to look at go to
tests/browser/screenshots/ (git-ignored)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games import services
from tests.browser.pages import signed_in_page
from tests.browser.tables import (
    MID_GAME,
    arranged_table,
    no_sideways_scroll,
    serious_violations,
    shoot,
)
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)
from tests.site.stats_play import play_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.layout,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]

SIZES = {"desktop": (1280, 800), "phone": (375, 812)}


def _tables(alice: Any, bob: Any) -> dict[str, int]:
    try:
        finished = play_game(alice, [bob], bots=1, seed="tour-finished")
        mid, _ = arranged_table(alice, seats=4, **MID_GAME)
        services.table_create(host=bob, seats=3)  # an open table to join
        return {"finished": finished.pk, "mid": mid}
    finally:
        connection.close()


def _header_is_one_line(page: Any) -> None:
    """The site's header is one row: every link of it on the brand's line."""
    rows = page.evaluate(
        """() => {
          const tops = [...document.querySelectorAll('header.top a, header.top button')]
            .filter((el) => el.offsetParent !== null)
            .map((el) => Math.round(el.getBoundingClientRect().top + el.offsetHeight / 2));
          return { spread: Math.max(...tops) - Math.min(...tops),
                   height: document.querySelector('header.top').offsetHeight };
        }"""
    )
    assert rows["spread"] <= 4, f"the header's links are on several lines: {rows}"
    assert rows["height"] <= 52, f"the header is {rows['height']}px tall"


def _no_word_split(page: Any, name: str) -> None:
    """No word of a table cell, a button or a heading is split across two lines ("Statu / s")."""
    split = page.evaluate(
        """() => {
          const out = [];
          for (const el of document.querySelectorAll('main th, main td, main button, main h1, main h2, main h3, main label')) {
            if (!el.offsetParent) continue;
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              const re = /\\S+/g;
              let m;
              while ((m = re.exec(n.textContent))) {
                // A hash (in a code box) is meant to break anywhere.
                if (m[0].length < 2 || n.parentElement.closest('code')) continue;
                const r = document.createRange();
                r.setStart(n, m.index);
                r.setEnd(n, m.index + m[0].length);
                const tops = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
                if (tops.size > 1) out.push(m[0]);
              }
            }
          }
          return out.slice(0, 10);
        }"""
    )
    assert not split, f"{name}: words split across lines: {split}"


def _look(page: Any, url: str, name: str, *, axe: bool = False, ready: str | None = None) -> None:
    page.goto(url)
    page.wait_for_load_state("load")
    if ready:
        # A page drawn from a fetch after the load (the replay) is looked at once drawn.
        page.wait_for_selector(ready)
    _header_is_one_line(page)
    no_sideways_scroll(page)
    _no_word_split(page, name)
    if axe:
        found = serious_violations(page)
        assert not found, (name, found)
    shoot(page, f"tour-{name}")


@pytest.mark.parametrize("size", SIZES)
def test_every_page_fits_the_screen_with_a_one_line_header(
    live_server, browser, alice, bob, pool, size
):
    tables = pool.submit(_tables, alice, bob).result()
    width, height = SIZES[size]
    url = live_server.url

    anon = browser.new_context(viewport={"width": width, "height": height})
    page = anon.new_page()
    try:
        for name, path in {
            "home": "/",
            "login": "/accounts/login/",
            "signup": "/accounts/signup/",
            "rules": "/rules/bga/",
        }.items():
            _look(page, f"{url}{path}", name)
    finally:
        anon.close()

    page = signed_in_page(browser, url, alice)
    page.set_viewport_size({"width": width, "height": height})
    try:
        _look(page, f"{url}/", "lobby")
        page.click("#advanced summary")
        no_sideways_scroll(page)
        shoot(page, "tour-create-form")
        _look(page, f"{url}/accounts/profile/", "profile", axe=True)
        _look(page, f"{url}/no-such-page/", "not-found", axe=True)
        _look(page, f"{url}/players/alice/", "stats", axe=True)
        _look(page, f"{url}/leaderboard/", "leaderboard", axe=True)
        _look(
            page,
            f"{url}/tables/{tables['finished']}/replay/?move=40",
            "replay",
            axe=True,
            ready=".replay-log .current",
        )
        # A step's page opens at its top (the hands and the table), the move shown in the
        # log's own scrolled box.
        assert page.evaluate("window.scrollY") == 0
        assert page.evaluate(
            """() => {
              const log = document.querySelector('.replay-log').getBoundingClientRect();
              const now = document.querySelector('.replay-log .current').getBoundingClientRect();
              return now.top >= log.top && now.bottom <= log.bottom;
            }"""
        )
        _look(page, f"{url}/tables/{tables['mid']}/", "table-mid")
        page.wait_for_selector("#hand [data-card]")
        shoot(page, "tour-table-mid")
        _look(page, f"{url}/tables/{tables['finished']}/", "table-over")
        page.wait_for_selector("#game-end")
        shoot(page, "tour-table-over")
    finally:
        page.context.close()


def test_a_long_name_keeps_the_phone_header_on_one_line(live_server, browser, django_user_model):
    user = django_user_model.objects.create_user("maximilian_the_card_sharp_2026", "m@example.com")
    page = signed_in_page(browser, live_server.url, user)
    page.set_viewport_size({"width": 375, "height": 812})
    try:
        page.goto(f"{live_server.url}/")
        _header_is_one_line(page)
        no_sideways_scroll(page)
        # The profile link is the name's initial on a phone, the whole name in its title and
        # label; "Log out" still there.
        who = page.locator("header.top .who")
        assert who.inner_text().strip() == "M"
        assert user.username in who.get_attribute("title")
        assert user.username in who.get_attribute("aria-label")
        assert page.locator("header.top button:has-text('Log out')").is_visible()
        shoot(page, "tour-long-name")
    finally:
        page.context.close()
