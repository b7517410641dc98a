"""The moderators' member page and the triaged queue in a browser, at 1280x800 and 375x812:
the file's sections are there and on screen, the queue sorted by priority and filtered by
room, axe-core finds no serious or critical violation. Screenshots go to
tests/browser/screenshots/ (git-ignored)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from chat import services as chat
from games import services
from moderation import services as moderation
from moderation.models import Report
from social import services as social
from tests.browser.tables import serious_violations, shoot
from tests.conftest import make_moderator, verified_client
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 812}}


def _case_file(alice: Any, bob: Any, carol: Any) -> tuple[Any, int]:
    """bob, reported twice in chat and once for stalling, muted, with a note and an appeal;
    carol reported once by the site; a senior moderator's browser session."""
    try:
        table = services.table_create(host=alice, seats=3, public=True)
        services.table_join(user=bob, table_id=table.pk)
        services.table_join(user=carol, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="browser-modteam")
        said = chat.chat_post(table_id=table.pk, user=bob, text="you all play like potatoes")
        moderation.report_create(
            reporter=alice, table_id=table.pk, reason="abuse", message_id=said.pk
        )
        moderation.report_create(
            reporter=carol, table_id=table.pk, reason="abuse", message_id=said.pk
        )
        moderation.report_create(
            reporter=alice, table_id=table.pk, reason="stalling", username="bob"
        )
        moderation.report_automatic(
            user=carol, table_id=table.pk, reason="spam", note="chat flood", room="chat"
        )
        boss = make_moderator("boss", "senior")
        mute = moderation.user_mute(
            actor=boss, user=bob, duration=timedelta(hours=6), reason="insults at table 1"
        )
        moderation.appeal_file(actor=bob, restriction_id=mute.pk, text="they started it")
        moderation.note_add(actor=boss, member=bob, text="second warning this month")
        social.block_add(user=bob, username="carol")
        judge = make_moderator("judge", "senior")
        cookie = verified_client(judge).cookies[settings.SESSION_COOKIE_NAME].value
        return cookie, bob.pk
    finally:
        connection.close()


def test_the_member_page_and_the_queue(live_server, browser, alice, bob, carol):
    cookie, bob_id = _case_file(alice, bob, carol)
    context = browser.new_context(viewport=SIZES["desktop"])
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        # The queue: bob's case (two chat reports, one for stalling) above carol's.
        page.goto(f"{live_server.url}/admin/moderation/report/queue/")
        rows = page.locator("#queue tbody tr").all_inner_texts()
        assert len(rows) == 2 and rows[0].split("\t")[1] == "bob" and "carol" in rows[1]
        assert "3 reporters" not in rows[0] and "2 reporters" in rows[0]
        for name, size in SIZES.items():
            page.set_viewport_size(size)
            shoot(page, f"admin-queue-{name}")
            assert serious_violations(page) == [], name
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size["width"] + 1, f"the queue is {width} px wide"
        page.set_viewport_size(SIZES["desktop"])
        page.click(".queue-rooms a:text('Play')")
        page.wait_for_url("**room=play")
        play = page.locator("#queue tbody tr").all_inner_texts()
        assert len(play) == 1 and "bob" in play[0] and "stalling" in play[0]
        # bob's page: the whole file.
        page.goto(f"{live_server.url}/admin/moderation/member/{bob_id}/change/")
        assert "second warning this month" in page.inner_text("#file-notes")
        assert "they started it" in page.inner_text("#file-appeals")
        assert page.inner_text("#file-blocks") == "1"
        assert page.inner_text("#file-reports-against").count("#") >= 3
        assert page.locator("button:text('Muted until')").count() == 1
        for name, size in SIZES.items():
            page.set_viewport_size(size)
            page.locator("#member-file").scroll_into_view_if_needed()
            shoot(page, f"admin-member-file-{name}")
            page.evaluate("window.scrollTo(0, 0)")
            shoot(page, f"admin-member-top-{name}")
            assert serious_violations(page) == [], name
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size["width"] + 1, f"the member page is {width} px wide"
        # A note through the page's form, back on the page.
        page.set_viewport_size(SIZES["desktop"])
        page.fill("#note-text", "asked about the linked account")
        page.click("#file-notes button:text('Save the note')")
        page.wait_for_selector("text=asked about the linked account")
        assert Report.objects.count() == 4
    finally:
        context.close()
