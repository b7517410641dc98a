"""A standing order for "May I?", set on the table page, answers a later window by itself.

alice opens the table page (desktop and phone sizes), opens "“May I?” standing order", picks
"never buy" and saves. Then bob and carol play through the API: bob's discard is a card alice
may buy, and her "no thanks" shows up in her page's log, live over the socket, without a click
(the early answer [D], in the move of bob's discard); carol's stock draw opens the window on it
and it closes at once, since nobody may still answer. Screenshots of the order box and of the
log go to tests/browser/screenshots/ (git-ignored).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from games import engine
from games.models import Move, Seat, Table
from tests.browser.pages import signed_in_page, wait_for_js
from tests.browser.tables import arranged_table, no_sideways_scroll, shoot, submit_as_a_client
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 812}}

# alice (seat 0), bob (1), carol (2); bob is to draw, alice's 9Y on the pile (hers: she may not
# buy it). bob will discard his 4I, which alice may buy (carol, next, is to draw then).
BOBS_TURN: dict[str, Any] = {
    "hands": {0: "7M 7A 7Y 9M 9A 9I", 1: "2M 5A 8Y 11I 12M 4I", 2: "3M 6A 10Y 13I 1M 2A"},
    "discard": "9Y",
    "stock": "1Y 13M 6I 5M",
    "active": 1,
    "phase": "draw",
    "discarder": 0,
}


def _table(alice: Any, bob: Any, carol: Any) -> tuple[int, dict[int, Any]]:
    try:
        table_id, me = arranged_table(alice, seats=3, others=[bob, carol], **BOBS_TURN)
        assert me == 0
        users = {
            s.position: s.user
            for s in Seat.objects.filter(table_id=table_id).select_related("user")
        }
        return table_id, users
    finally:
        connection.close()


def _act(table_id: int, user: Any, action: dict[str, Any]) -> None:
    try:
        table = Table.objects.get(pk=table_id)
        submit_as_a_client(
            table_id=table_id, user=user, action=action, expect_version=table.version
        )
    finally:
        connection.close()


def _moves(table_id: int) -> list[tuple[int | None, dict[str, Any]]]:
    try:
        return list(
            Move.objects.filter(table_id=table_id).order_by("seq").values_list("seat", "action")
        )
    finally:
        connection.close()


def _order(table_id: int, user: Any) -> str:
    try:
        return str(Seat.objects.get(table_id=table_id, user=user).buy_order)
    finally:
        connection.close()


def _state(table_id: int) -> dict[str, Any]:
    try:
        state = Table.objects.get(pk=table_id).state
        assert state is not None
        return state
    finally:
        connection.close()


def _version(page: Any) -> int:
    return int(page.evaluate("document.getElementById('table').dataset.version"))


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_never_buy_order_set_on_the_page_answers_the_next_window(
    asgi_server, browser, alice, bob, carol, size
):
    pool = ThreadPoolExecutor(1)  # the services' on-commit broadcast cannot run in this thread
    table_id, users = pool.submit(_table, alice, bob, carol).result()
    page = signed_in_page(browser, asgi_server, alice)
    try:
        page.set_viewport_size(SIZES[size])
        page.goto(f"{asgi_server}/tables/{table_id}/")
        page.wait_for_selector("#live-status.live")

        # The order, on the page: "ask me" until I choose otherwise, said on the closed box.
        box = page.locator("details#orders")
        assert page.inner_text("#buy-order-now") == "ask me"
        box.locator("summary").click()
        choice = page.locator("#buy-order-choice")
        assert choice.input_value() == "ask"
        limit = page.locator("#buy-order .buy-limit")
        assert not limit.is_visible(), "a limit of buys means nothing to 'ask me'"
        choice.select_option("completes")
        assert limit.is_visible()
        choice.select_option("never")
        assert not limit.is_visible()
        box.scroll_into_view_if_needed()
        shoot(page, f"standing-order-box-{size}")
        page.click("#buy-order button[type=submit]")
        page.wait_for_selector("#live-status.live")
        # Back at the box, open, with the answer in it (not at the page's top, out of sight).
        page.wait_for_selector("details#orders[open] .order-saved")
        assert page.inner_text("#buy-order .order-saved") == "Standing order saved."
        assert page.locator(".messages li").count() == 0
        assert page.url.endswith("#orders")
        assert page.locator("#buy-order-choice").input_value() == "never"
        assert page.inner_text("#buy-order-now") == "never buy"
        top = page.evaluate("document.getElementById('orders').getBoundingClientRect().top")
        assert 0 <= top < SIZES[size]["height"], "the box is in sight after the save"
        shoot(page, f"standing-order-saved-{size}")
        no_sideways_scroll(page)
        assert pool.submit(_order, table_id, alice).result() == "never"
        assert len(pool.submit(_moves, table_id).result()) == 0, "nothing to answer yet"

        # bob draws from the stock: the window on alice's own 9Y is carol's alone.
        v = _version(page)
        pool.submit(_act, table_id, bob, {"type": "draw", "source": "stock"}).result()
        pool.submit(_act, table_id, carol, {"type": "no_thanks"}).result()
        wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {v + 1}")
        log = page.inner_text("#log")
        assert "You said" not in log and "Your standing order" not in log

        # bob discards the 4I: alice may buy it, and her order says no thanks at once.
        v = _version(page)
        pool.submit(_act, table_id, bob, {"type": "discard", "card": "w4I"}).result()
        wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {v}")
        page.wait_for_selector("#log li >> text=Your standing order said no thanks to")
        line = page.locator("#log li", has_text="Your standing order said no thanks to").first
        assert "4" in line.locator(".mini-cards").get_attribute("aria-label")
        moves = pool.submit(_moves, table_id).result()
        assert moves[-1] == (0, {"type": "no_thanks", "standing_order": True})
        # The "May I?" box says whose answer it was, as the log does.
        assert "Your standing order said no thanks for" in page.inner_text("#window")
        page.locator("#window").scroll_into_view_if_needed()
        shoot(page, f"standing-order-window-answer-{size}")
        page.locator("#log").scroll_into_view_if_needed()
        shoot(page, f"standing-order-answered-{size}")

        # carol draws from the stock: the window on the 4I has nobody left to ask.
        v = _version(page)
        pool.submit(_act, table_id, carol, {"type": "draw", "source": "stock"}).result()
        wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {v}")
        assert not engine.window_open(pool.submit(_state, table_id).result())
        assert page.locator("#window [data-action='no_thanks']").count() == 0
        page.wait_for_selector("#log li >> text=Nobody bought")
        shoot(page, f"standing-order-window-closed-{size}")
    finally:
        page.context.close()
        pool.shutdown()
