"""The way in, in a real browser: sign up and "Play now"; my games waiting on me first; an
invite link kept through sign-up and login; the create form's folded options; the home page,
lobby, rules and account pages never wider than a phone or a laptop screen, without serious
accessibility faults (axe-core), with screenshots to look at."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection

from games import engine, services
from games.engine.bots import choose_action
from games.models import Seat, Table
from tests.browser.pages import signed_in_page, wait_for_js
from tests.browser.tables import no_sideways_scroll, serious_violations, shoot
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1280, 800), (375, 812)]


def sign_up(page: Any, name: str) -> None:
    page.fill("#id_username", name)
    page.fill("#id_email", f"{name}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main form button[type=submit]")


def width_of(page: Any) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_sign_up_and_play_now_lands_on_a_started_table_with_bots(live_server, page):
    page.goto(f"{live_server.url}/")
    # Signed out, "Play now" goes through sign-up and comes back to it.
    page.click("#play-now-signed-out")
    sign_up(page, "dora")
    page.wait_for_url(f"{live_server.url}/play/")
    page.click("#play-now button")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = Table.objects.get()
    assert table.status == Table.Status.PLAYING
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    assert seats[0].user.username == "dora" and all(s.is_bot for s in seats[1:])
    assert table.options["window_seconds"] == services.PLAY_NOW_WINDOW_SECONDS
    assert 0 in engine.seats_to_act(table.state)
    # Back in the lobby the table waits on her, marked.
    page.goto(f"{live_server.url}/")
    first = page.locator("#my-games li").first
    assert first.get_attribute("data-table") == str(table.pk)
    assert re.search(r"your turn|May I\? open", first.inner_text())


def _started(host: Any, other: Any, seed_prefix: str, want_host: bool) -> Table:
    """A started table of host, other and a bot where the game waits on the host or not."""
    for n in range(60):
        table = services.table_create(host=host, seats=3)
        services.table_join(user=other, table_id=table.pk)
        services.table_fill_with_bots(user=host, table_id=table.pk)
        services.table_start(user=host, table_id=table.pk, seed=f"{seed_prefix}-{n}")
        table.refresh_from_db()
        me = Seat.objects.get(table=table, user=host).position
        if (me in engine.seats_to_act(table.state)) == want_host:
            return table
        table.delete()
    raise AssertionError("no seed gave the wanted turn")


def test_my_games_waiting_on_me_come_first_and_are_marked(live_server, browser, alice, bob):
    try:
        waiting_other = _started(alice, bob, "other", want_host=False)
        waiting_me = _started(alice, bob, "me", want_host=True)
        Table.objects.filter(pk=waiting_other.pk).update(updated=waiting_me.updated)
        open_table = services.table_create(host=alice, seats=4)
    finally:
        connection.close()
    page = signed_in_page(browser, live_server.url, alice)
    page.goto(f"{live_server.url}/")
    rows = page.locator("#my-games li")
    order = [rows.nth(i).get_attribute("data-table") for i in range(rows.count())]
    assert order == [str(waiting_me.pk), str(waiting_other.pk), str(open_table.pk)]
    assert re.search(r"your turn|May I\? open", rows.nth(0).locator(".mark").inner_text())
    assert rows.nth(1).locator(".mark").count() == 0
    assert "last move" in rows.nth(1).inner_text() and "opened" in rows.nth(2).inner_text()
    # Each game being played names its round, and the one not waiting on me whom it waits on.
    assert "round 1 of 7" in rows.nth(0).inner_text() and "round 1 of 7" in rows.nth(1).inner_text()
    assert re.search(
        r"bob’s turn|May I\? open: .*bob", rows.nth(1).locator(".waiting-on").inner_text()
    )
    # The ruleset, the pace, the "May I?" window, the players and the age read as parts of one
    # line, set apart by "·" (they ran together with only a gap between them), each dot ending
    # its part but the last.
    parts = rows.nth(2).locator(".game-meta > span")
    marks = parts.evaluate_all("els => els.map((e) => getComputedStyle(e, '::after').content)")
    assert len(marks) == 5 and all("·" in m for m in marks[:-1]) and "·" not in marks[-1]
    assert "a turn" in parts.nth(1).inner_text() and "opened" in parts.nth(4).inner_text()
    page.set_viewport_size({"width": 375, "height": 812})
    no_sideways_scroll(page)
    shoot(page, "my-games")
    page.set_viewport_size({"width": 1280, "height": 800})
    # My open table's invite link, with a copy button that copies it.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    invite = rows.nth(2).locator("input.invite-link").input_value()
    assert invite.endswith(f"/join/{open_table.invite_code}/")
    rows.nth(2).locator("button.copy").click()
    wait_for_js(page, "document.querySelector('button.copy').textContent === 'Copied!'")
    assert page.evaluate("navigator.clipboard.readText()") == invite
    page.context.close()


def _others_play_until_it_waits_on(table_id: int, me: Any, other: Any) -> None:
    try:
        for _ in range(20):
            table = Table.objects.get(pk=table_id)
            mine = Seat.objects.get(table=table, user=me).position
            if mine in engine.seats_to_act(table.state):
                return
            theirs = Seat.objects.get(table=table, user=other).position
            services.table_submit_action(
                table_id=table_id,
                user=other,
                action=choose_action(table.state, theirs),
                expect_version=table.version,
            )
        raise AssertionError("the game never came to me")
    finally:
        connection.close()


def test_a_lobby_left_open_says_when_a_game_waits_on_me(live_server, browser, alice, bob):
    # The home page was drawn once: left open in a tab while bob played, it never said that a
    # game now waited on alice, neither in the list nor in the tab's title.
    try:
        table = _started(alice, bob, "lobby-live", want_host=False)
        services.table_create(host=alice, seats=4)  # its invite link has a copy button
    finally:
        connection.close()
    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/")
        row = page.locator(f"#my-games li[data-table='{table.pk}']")
        assert row.get_attribute("data-mark") is None
        assert not page.title().startswith("(")
        _others_play_until_it_waits_on(table.pk, alice, bob)
        # The tab comes back into view (as every half minute, without waiting for it).
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        page.wait_for_selector(f"#my-games li[data-table='{table.pk}'][data-mark]")
        # The header's count (static/js/waiting.js) leads the title.
        wait_for_js(page, "document.title.startsWith('(1) ')")
        assert re.search(r"your turn|May I\? open", row.locator(".mark").inner_text())
        # The copy button of the new lists is bound as the first one was.
        copy = page.locator("#lobby-lists button[data-copy]")
        assert copy.count() == 1 and copy.get_attribute("data-copy-bound") == "1"
    finally:
        page.context.close()


@pytest.mark.parametrize("way", ["signup", "login"])
def test_an_invite_link_survives_sign_up_and_login(live_server, page, alice, bob, way):
    table = services.table_create(host=alice, seats=3, public=False)
    invite = f"{live_server.url}/join/{table.invite_code}/"
    page.goto(invite)
    if way == "signup":
        page.click("#invite-signup")
        sign_up(page, "erin")
        user = "erin"
    else:
        page.click("#invite-login")
        page.fill("#id_username", "bob")
        page.fill("#id_password", PASSWORD)
        page.click("main form button[type=submit]")
        user = "bob"
    page.wait_for_url(invite)
    page.click("text=Take a seat")
    page.wait_for_url(f"{live_server.url}/tables/{table.pk}/")
    assert Seat.objects.filter(table=table, user__username=user).exists()


def test_an_invite_link_survives_going_from_login_to_sign_up(live_server, page, alice):
    table = services.table_create(host=alice, seats=3, public=False)
    invite = f"{live_server.url}/join/{table.invite_code}/"
    page.goto(invite)
    page.click("#invite-login")
    page.click("#signup-link")
    sign_up(page, "fay")
    page.wait_for_url(invite)


def test_the_create_form_folds_its_options_and_shows_a_rulesets_own(live_server, browser, alice):
    page = signed_in_page(browser, live_server.url, alice)
    page.goto(f"{live_server.url}/")
    assert not page.is_visible("#id_turn_seconds")  # folded
    assert page.is_visible("#id_ruleset") and page.is_visible("#id_seats")
    page.click("#advanced summary")
    assert page.is_visible("#id_turn_seconds") and page.is_visible("#id_window_seconds")
    assert not page.is_visible("#id_round7")  # bga has no round-7 option
    assert page.is_visible(".ruleset-desc[data-ruleset=bga]")
    page.select_option("#id_ruleset", "rook")
    assert page.is_visible("#id_round7")
    assert page.is_visible(".ruleset-desc[data-ruleset=rook]")
    assert not page.is_visible(".ruleset-desc[data-ruleset=bga]")
    page.select_option("#id_round7", "books")
    page.select_option("#id_seats", "2")
    page.click("#new-table button[type=submit]")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = Table.objects.get()
    assert table.ruleset == "rook" and table.options["engine"] == {"round7": "books"}
    page.context.close()


def _lobby_user(alice: Any, bob: Any) -> None:
    try:
        services.table_play_now(user=alice, seed="shots")
        table = services.table_create(host=alice, seats=4)
        services.table_join(user=bob, table_id=table.pk)
        services.table_create(host=bob, seats=3)
    finally:
        connection.close()


@pytest.mark.layout
def test_no_page_is_wider_than_its_viewport_nor_has_serious_axe_violations(
    live_server, browser, alice, bob
):
    _lobby_user(alice, bob)
    pages = {
        "home": "/",
        "rules-index": "/rules/",
        "rules": "/rules/bga/",
        "rules-petras": "/rules/petras/",
        "rules-rook": "/rules/rook/",
        "login": "/accounts/login/",
        "signup": "/accounts/signup/",
        "invite": f"/join/{Table.objects.filter(host=alice).last().invite_code}/",
    }
    signed_in = {"lobby": "/", "profile": "/accounts/profile/", "play-now": "/play/"}
    for width, height in SIZES:
        anon = browser.new_context(viewport={"width": width, "height": height})
        page = anon.new_page()
        for name, path in pages.items():
            page.goto(f"{live_server.url}{path}")
            assert width_of(page) <= width, (name, width, width_of(page))
            if name in ("home", "rules", "rules-index", "login"):
                assert serious_violations(page) == [], (name, width)
            if name in ("home", "rules"):
                shoot(page, name)
        anon.close()
        page = signed_in_page(browser, live_server.url, alice)
        page.set_viewport_size({"width": width, "height": height})
        for name, path in signed_in.items():
            page.goto(f"{live_server.url}{path}")
            assert width_of(page) <= width, (name, width, width_of(page))
            if name == "lobby":
                page.click("#advanced summary")
                assert width_of(page) <= width, ("lobby, options open", width)
                assert serious_violations(page) == [], (name, width)
                page.click("#advanced summary")
                shoot(page, name)
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_play_now_against_strong_bots(live_server, browser, alice, size):
    page = signed_in_page(browser, live_server.url, alice)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    try:
        page.goto(f"{live_server.url}/")
        level = page.locator("#play-now-level")
        assert level.is_visible() and "easy" in level.inner_text()
        assert page.is_checked("#play-now-level input[value=normal]")  # the default
        page.click("#play-now-level label:has-text('strong')")
        assert width_of(page) <= size[0]
        shoot(page, "play-now-level")
        page.click("#play-now button")
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        table = Table.objects.get()
        assert {s.bot_level for s in table.seats.filter(is_bot=True)} == {"strong"}
        # The table says how well its bots play.
        page.wait_for_selector("#players .seat")
        bot = page.locator("#players .seat", has=page.locator(".dot.bot")).first
        assert "a strong bot" in bot.get_attribute("aria-label")
        if size[0] > 640:
            assert bot.locator(".level-badge").inner_text() == "strong"
    finally:
        page.context.close()


def test_the_create_form_s_bot_level_fills_the_empty_seats(live_server, browser, alice):
    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/")
        page.select_option("#id_seats", "3")
        page.click("#new-table-level label:has-text('easy')")
        page.click("#new-table button[type=submit]")
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        table = Table.objects.get()
        # The table page's fill form starts at the level chosen; another may be picked there.
        assert page.is_checked("#fill-bots-level input[value=easy]")
        page.click("#fill-bots button[type=submit]")
        page.wait_for_selector("#start")
        seats = page.locator("ol.seats").inner_text()
        assert "Bot 2 (easy)" in seats and "Bot 3 (easy)" in seats
        assert {s.bot_level for s in table.seats.filter(is_bot=True)} == {"easy"}
        page.click("#start")
        page.wait_for_selector("#players .seat")
        bot = page.locator("#players .seat", has=page.locator(".dot.bot")).first
        assert "an easy bot" in bot.get_attribute("aria-label")
    finally:
        page.context.close()
