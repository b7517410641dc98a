"""Two players chat at a table in two browsers (live over the table's socket, text shown as
text), one reports the other's message, and a moderator signs in to the admin with a TOTP code
and finds the report in the queue. Screenshots of the chat panel and the queue at desktop and
phone sizes go to tests/browser/screenshots/ (git-ignored)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from chat import services as chat
from games import services
from games.engine.cards import face_data
from games.models import Table
from moderation import services as moderation
from moderation.models import Report
from tests.browser.pages import signed_in_page
from tests.browser.tables import serious_violations, shoot
from tests.conftest import PASSWORD, verified_client
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 812}}


def _table(alice: Any, bob: Any) -> int:
    try:
        table = services.table_create(host=alice, seats=3)
        services.table_join(user=bob, table_id=table.pk)
        services.table_fill_with_bots(user=alice, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="browser-chat")
        return table.pk
    finally:
        connection.close()


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#live-status.live")
    # The panel has read the chat (the reactions come with the first page of it).
    page.wait_for_selector("#chat-reactions .chat-reaction")


def _chat_texts(page: Any) -> list[str]:
    return page.locator("#chat-messages .chat-text").all_inner_texts()


def test_two_players_chat_and_a_report_reaches_the_queue(
    asgi_server, browser, alice, bob, django_user_model
):
    with ThreadPoolExecutor(1) as pool:
        table_id = pool.submit(_table, alice, bob).result()
    url = f"{asgi_server}/tables/{table_id}/"
    pages = {"alice": signed_in_page(browser, asgi_server, alice)}
    pages["bob"] = signed_in_page(browser, asgi_server, bob)
    try:
        for page in pages.values():
            page.set_viewport_size(SIZES["desktop"])
            _open(page, url)
        a, b = pages["alice"], pages["bob"]
        assert "Table chat" in a.inner_text("#chat h2")

        # alice writes; bob's page shows it without a reload, as text (no element made).
        a.fill("#chat-text", "Hi bob! <b>good luck</b> <img src=x onerror=alert(1)>")
        a.click("#chat-form button[type=submit]")
        b.wait_for_selector("#chat-messages .chat-text >> text=Hi bob!")
        assert _chat_texts(b) == ["Hi bob! <b>good luck</b> <img src=x onerror=alert(1)>"]
        assert b.locator("#chat-messages b, #chat-messages img").count() == 0
        assert a.input_value("#chat-text") == ""
        # bob answers with a canned reaction; alice sees it.
        b.click("#chat-reactions >> text=Well played")
        a.wait_for_selector("#chat-messages .chat-text >> text=Well played")
        assert _chat_texts(a)[-1] == "Well played"
        # Kept across a reload.
        b.reload()
        _open(b, url)
        assert _chat_texts(b) == _chat_texts(a)

        # bob reports alice's message.
        b.click("#chat-messages .chat-message:first-child .chat-report")
        b.wait_for_selector("#chat-report-dialog[open]")
        assert "Hi bob!" in b.inner_text("#chat-report-quote")
        b.select_option("#chat-report-form select[name=reason]", "abuse")
        b.fill("#chat-report-form textarea[name=note]", "markup in chat")
        b.click("#chat-report-form button[type=submit]")
        b.wait_for_selector("#chat-report-done >> text=Thank you")
        assert not b.is_visible("#chat-report-dialog")

        for name, size in SIZES.items():
            b.set_viewport_size(size)
            b.locator("#chat").scroll_into_view_if_needed()
            shoot(b, f"chat-panel-{name}")
            width = b.evaluate("document.documentElement.scrollWidth")
            assert width <= size["width"], f"the table page is {width}px wide"
    finally:
        for page in pages.values():
            page.context.close()

    report = Report.objects.get()
    assert report.reporter == bob and report.reported_user == alice
    assert report.table_id == table_id and report.message.text.startswith("Hi bob!")
    # Alice (seat 1, first to play with this seed) draws after the report: a move to read.
    table = Table.objects.get(pk=table_id)
    services.table_submit_action(
        table_id=table_id,
        user=alice,
        action={"type": "draw", "source": "stock"},
        expect_version=table.version,
    )

    # A moderator signs in with a password and the authenticator's code.
    mod = django_user_model.objects.create_user("mod", "mod@example.com", PASSWORD)
    # The migration's group is gone with the flush of an earlier transactional test.
    moderation.moderator_grant(user=mod)
    device = TOTPDevice.objects.create(user=mod, name="authenticator", confirmed=True)
    context = browser.new_context(viewport=SIZES["desktop"])
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(f"{asgi_server}/admin/moderation/report/")
        # Name, password and the authenticator's code, all at once.
        page.fill("#id_username", "mod")
        page.fill("#id_password", PASSWORD)
        totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
        page.fill("#id_otp_token", f"{totp.token():06d}")
        shoot(page, "admin-sign-in-desktop")
        assert serious_violations(page) == []
        page.click("input[type=submit]")
        page.wait_for_selector("#result_list")
        queue = page.inner_text("#result_list")
        assert "bob" in queue and "alice" in queue and "Hi bob!" in queue
        assert "open" in queue
        link = page.get_attribute("#result_list a[href*='/inspect/?move=']", "href")
        assert link and f"/tablecase/{table_id}/inspect/?move=" in link
        for name, size in SIZES.items():
            page.set_viewport_size(size)
            shoot(page, f"admin-report-queue-{name}")
        # The front page counts the report, and leads to it; on a phone, above the models.
        page.goto(f"{asgi_server}/admin/")
        assert page.inner_text("#desk-open").startswith("1 open report")
        desk = page.locator("#desk").bounding_box()
        assert desk["y"] < page.locator("#content-main").bounding_box()["y"]
        shoot(page, "admin-front-page-phone")
        page.set_viewport_size(SIZES["desktop"])
        shoot(page, "admin-front-page-desktop")
        assert serious_violations(page) == []
        page.click("#desk-open a")
        page.wait_for_selector("#result_list")
        assert "Hi bob!" in page.inner_text("#result_list")
        page.goto(f"{asgi_server}/admin/moderation/report/")
        # The link opens the table at the reported move, every hand shown.
        page.set_viewport_size(SIZES["desktop"])
        page.click("#result_list a[href*='/inspect/?move=']")
        page.wait_for_selector("text=state and moves")
        table = Table.objects.get(pk=table_id)
        # Each card as the table names it, its id (which deck) on hover.
        card = str(table.state["hands"][0][0])
        assert page.inner_text(f".faces .face[title='{card}']") == face_data(card)["label"]
        # The move in words, not only as its stored action.
        assert "alice draws from the stock" in page.inner_text("#content")
        shoot(page, "admin-table-inspect-desktop")
        page.set_viewport_size(SIZES["phone"])
        shoot(page, "admin-table-inspect-phone")
    finally:
        context.close()


@pytest.mark.layout
def test_a_long_word_in_chat_keeps_the_moderators_pages_on_screen(
    live_server, browser, alice, bob, django_user_model
):
    # One 500-letter word: the table's state page was 4,159 px wide at 1280 (4,458 on a
    # phone) and the message's own page 721 px on a phone.
    table_id = _table(alice, bob)
    word = chat.chat_post(table_id=table_id, user=bob, text="W" * 500)
    mod = django_user_model.objects.create_user("mod", "mod@example.com", PASSWORD)
    moderation.moderator_grant(user=mod)
    cookie = verified_client(mod).cookies[settings.SESSION_COOKIE_NAME].value
    context = browser.new_context()
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    page = context.new_page()
    try:
        for path in (
            f"/admin/moderation/tablecase/{table_id}/inspect/",
            f"/admin/chat/chatmessage/{word.pk}/change/",
        ):
            for size in SIZES.values():
                page.set_viewport_size(size)
                page.goto(f"{live_server.url}{path}")
                assert "W" * 40 in page.inner_text("#content"), path
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= size["width"], f"{path} is {width} px wide at {size['width']}"
        shoot(page, "admin-long-chat-word")
    finally:
        context.close()


def test_reporting_a_player_asks_whom(live_server, browser, alice, bob, carol):
    # The player list came with its first name chosen: a report sent in haste went to
    # whoever sat first.
    try:
        table = services.table_create(host=alice, seats=3)
        services.table_join(user=bob, table_id=table.pk)
        services.table_join(user=carol, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="browser-report-whom")
    finally:
        connection.close()
    page = signed_in_page(browser, live_server.url, carol)
    try:
        _open(page, f"{live_server.url}/tables/{table.pk}/")
        page.click("#chat-report-player summary")
        form = page.locator("#chat-report-player-form")
        assert form.locator("select[name=user]").input_value() == ""
        assert form.locator("select[name=user] option").all_inner_texts() == [
            "Choose a player",
            "alice",
            "bob",
        ]
        form.locator("button[type=submit]").click()
        assert not page.evaluate(
            "document.querySelector('#chat-report-player-form select[name=user]').validity.valid"
        )
        form.locator("select[name=user]").select_option("bob")
        form.locator("select[name=reason]").select_option("stalling")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#chat-report-done >> text=Thank you")
    finally:
        page.context.close()
    report = Report.objects.get()
    assert report.reported_user == bob and report.reason == "stalling"
