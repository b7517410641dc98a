"""A person's first visit, in a real browser: sign up, create a table, fill it, play."""

from __future__ import annotations

import re

import pytest

from games import engine
from games.models import Move, Table
from tests.browser.pages import wait_for_js
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_sign_up_create_a_table_and_draw(live_server, page):
    page.goto(f"{live_server.url}/accounts/signup/")
    page.fill("#id_username", "dora")
    page.fill("#id_email", "dora@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    assert "dora" in page.inner_text("header")

    page.select_option("#id_seats", "3")
    page.click("#new-table button[type=submit]")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    assert "Waiting for players (1/3)" in page.inner_text("main")
    page.click("text=Fill empty seats with bots")
    page.click("#start")
    page.wait_for_selector("#hand")
    table = Table.objects.get()
    assert table.status == Table.Status.PLAYING
    # Six cards in round 1; seven if a bot went out on its first turn (drew the up-card, laid
    # down, discarded its last card: about one start in 200) and round 2 is dealt.
    dealt = len(table.state["hands"][0])
    assert dealt == {1: 6, 2: 7}[table.state["round"]]
    assert page.locator("#hand [data-card]").count() == dealt

    # The script posts the action to the JSON API with the CSRF token, then reloads.
    version = table.version
    view = engine.view(table.state, 0)
    drawing = view["active_seat"] == 0 and view["phase"] == "draw" and not view["buy_window"]
    if drawing:
        page.click("#actions [data-action='draw'][data-source='stock']")
    else:
        assert 0 in view["buy_window"]["waiting"]
        # The offer's button (the log and "since you last looked" may say "no thanks" too).
        page.click("#window [data-action='no_thanks']")
    wait_for_js(page, f"document.getElementById('table').dataset.version != '{version}'")
    assert Move.objects.filter(table=table, by_bot=False, seat=0).count() == 1
    if drawing:
        assert page.locator("#hand [data-card]").count() == dealt + 1


def test_log_in_and_out(live_server, page, django_user_model):
    django_user_model.objects.create_user("erin", "erin@example.com", PASSWORD)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "erin")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    assert "erin" in page.inner_text("header")
    page.click("text=Log out")
    page.wait_for_selector("text=Log in")
    assert "erin" not in page.inner_text("header")
