"""The table as a player reads it while others play: each player's facts (cards, buys used,
contract down, MAYI melds, score, a clock counting down live), a glow on whose turn it is and
the status bar naming them, the melds grouped by owner with runs in order and each wild showing
the number it stands for, the last discards at a hover or a tap, the "May I?" window counting
down inside the offer."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games.engine import hand_penalty
from games.models import Table
from games.services.vacation import vacation_start
from moderation.services.tables import table_abort
from tests.browser.pages import signed_in_page, wait_for_js
from tests.browser.tables import (
    OFFER,
    arranged_table,
    no_sideways_scroll,
    serious_violations,
    shoot,
)
from tests.conftest import make_moderator
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)
from tests.site.stats_play import play_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]

# Round 2 (a book and a run). Seat 1 is down with a book and a run holding a wild (for 4);
# seat 2 made a MAYI meld and plays now; three cards lie on the discard pile.
BOARD = {
    "round": 2,
    "hands": {0: "2M 3M 9Y 10Y 11Y 12A 13A"},
    "melds": {1: "5M 5A 5Y | 3I ? 5I 6I"},
    "mayi": {2: "8M 8A 8Y 8I"},
    "discard": "2Y 7I 7A",
    "active": 2,
    "phase": "play",
    "buys": [0, 2, 1],
    "scores": [[0, 15, 30]],
    "hand_size": 5,
}

# A phone's browser: its screen, touch, and the mobile viewport.
PHONE_TOUCH = {"viewport": {"width": 375, "height": 812}, "has_touch": True, "is_mobile": True}


def _with_deadline(host: Any, state: dict[str, Any], column: str) -> tuple[int, int]:
    """An arranged table whose turn (or "May I?" window) ends in five minutes."""
    try:
        table_id, me = arranged_table(host, **state)
        now = timezone.now()
        fields = {column: now + timedelta(minutes=5)}
        if column == "turn_deadline":
            fields["turn_started"] = now
        Table.objects.filter(pk=table_id).update(**fields)
        return table_id, me
    finally:
        connection.close()


def _seconds(text: str) -> int:
    m = re.search(r"(\d+):(\d\d)", text)
    assert m, text
    return int(m[1]) * 60 + int(m[2])


def _fact(page: Any, seat: int, name: str) -> str:
    return page.inner_text(
        f"#players [data-seat='{seat}'] .seat-facts div:has(dt:text-is('{name}')) dd"
    )


def test_the_players_their_melds_and_a_live_clock(live_server, browser, alice, pool):
    table_id, me = pool.submit(_with_deadline, alice, BOARD, "turn_deadline").result()
    assert me == 0  # the host sits first: the seats below are as BOARD gives them
    page = signed_in_page(browser, live_server.url, alice)
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#players .seat")
        # Whose turn: a glow on the seat, and the status bar says we wait for them.
        active = page.locator("#players .seat.active")
        assert active.count() == 1 and active.get_attribute("data-seat") == "2"
        name = active.locator(".seat-name strong").inner_text()
        assert page.inner_text("#turn-text") == f"Waiting for {name}"
        # Each player's facts.
        # (Seat 2's MAYI meld already counts its -10.)
        assert [_fact(page, p, "Score") for p in (0, 1, 2)] == ["0", "15", "20"]
        assert [_fact(page, p, "Buys") for p in (0, 1, 2)] == ["0/3", "2/3", "1/3"]
        assert [_fact(page, p, "Down") for p in (0, 1, 2)] == ["—", "✓", "—"]
        assert _fact(page, 2, "MAYI") == "1"
        assert page.inner_text("#players [data-seat='1'] .hand-count") == "5"
        # My hand's penalty, as the engine counts it.
        points = hand_penalty(BOARD["hands"][0].split())
        assert page.inner_text("#hand-penalty") == f"{points} points"
        # The clock of the player to move counts down, live.
        first = _seconds(_fact(page, 2, "Clock"))
        assert 280 <= first <= 300
        wait_for_js(
            page,
            "(s) => { const m = document.querySelector(\"[data-clock='2']\").textContent"
            ".match(/(\\d+):(\\d\\d)/); return m && Number(m[1]) * 60 + Number(m[2]) < s; }",
            arg=first,
            timeout=4000,
        )
        # The melds by owner; the run in order, its wild showing the 4 it stands for.
        groups = page.locator("#melds .meld-group")
        assert groups.count() == 2
        owner = page.locator("#players [data-seat='1'] .seat-name strong").inner_text()
        run = page.locator("#melds .meld-run")
        assert owner in run.get_attribute("aria-label")
        labels = run.locator("[data-label]").evaluate_all("els => els.map((e) => e.dataset.label)")
        assert labels == ["3I", "?", "5I", "6I"]
        assert run.locator(".pc-stands").get_attribute("data-t") == "=4"
        assert page.locator("#melds .meld-mayi").count() == 1
        # The last discards, at a hover over the pile.
        assert not page.is_visible("#piles .recent")
        page.hover("#discard")
        assert page.is_visible("#piles .recent")
        # Whole, inside the board (not cut at its edge).
        box, board = (
            page.locator("#piles .recent").bounding_box(),
            page.locator("#board").bounding_box(),
        )
        assert board["x"] <= box["x"] and box["x"] + box["width"] <= board["x"] + board["width"]
        recent = page.locator("#piles .recent [data-label]").evaluate_all(
            "els => els.map((e) => e.dataset.label)"
        )
        assert recent == ["2Y", "7I", "7A"]
        # And by the keyboard: the pile is not mine to take, yet the focus reaches it.
        page.mouse.move(0, 0)
        assert not page.is_visible("#piles .recent")
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.matches('.discard-wrap')"):
                break
        assert page.is_visible("#piles .recent")
        assert serious_violations(page) == []
        shoot(page, "board-facts")
    finally:
        page.context.close()


def test_a_tap_shows_the_last_discards_on_a_phone(live_server, browser, alice, pool):
    table_id, _ = pool.submit(_with_deadline, alice, BOARD, "turn_deadline").result()
    page = signed_in_page(browser, live_server.url, alice, **PHONE_TOUCH)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#players .seat")
        assert not page.is_visible("#piles .recent")
        # Not my turn: the pile cannot be taken, yet a tap shows what was thrown.
        page.tap("#discard", force=True)  # a finger needs no enabled button
        page.wait_for_selector("#piles .recent", state="visible", timeout=3000)
        shoot(page, "board-recent-tap")
    finally:
        page.context.close()


def test_the_offer_counts_its_window_down(live_server, browser, alice, pool):
    table_id, _ = pool.submit(_with_deadline, alice, OFFER, "window_deadline").result()
    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#window")
        countdown = page.locator("#window [data-countdown='window']")
        first = _seconds(countdown.inner_text())
        assert 280 <= first <= 300 and "left" in page.inner_text("#window")
        assert re.search(
            r"May I\? 9Y \+ a penalty card: \d+:\d\d left", page.inner_text("#status-bar")
        )
        wait_for_js(
            page,
            "(s) => { const m = document.querySelector(\"[data-countdown='window']\").textContent"
            ".match(/(\\d+):(\\d\\d)/); return m && Number(m[1]) * 60 + Number(m[2]) < s; }",
            arg=first,
            timeout=4000,
        )
    finally:
        page.context.close()


def test_an_early_answer_names_its_card(live_server, browser, alice, bob, carol, pool):
    # carol is to draw; bob's 9Y is on the pile. I may answer before she draws.
    early = {
        "hands": {0: "7M 7A 9M 9A 3I 4I"},
        "discard": "9Y",
        "active": 2,
        "phase": "draw",
        "discarder": 1,
    }
    table_id, me = pool.submit(arranged_table, alice, others=[bob, carol], **early).result()
    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#window")
        text = page.inner_text("#window")
        assert "Answer now for 9 Y" in text and "in case carol draws from the stock" in text
        version = int(page.get_attribute("#table", "data-version"))
        page.click("#window [data-action='may_i']")
        wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {version}")
        page.wait_for_selector("#window :text('You said “May I?” for 9 Y')")
        assert page.locator("#window [data-action]").count() == 0
        assert Table.objects.get(pk=table_id).state["early"][me] == "may_i"
    finally:
        page.context.close()


COUNT_ANIMATIONS = """() => {
  window.__flights = 0;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) { window.__flights += 1; return animate.apply(this, args); };
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_drawn_card_flies_to_my_hand_unless_motion_is_reduced(
    live_server, browser, alice, pool, motion
):
    drawing = {"hands": {0: "7M 7A 9M 9A 3I 4I"}, "stock": "5Y", "active": 0, "phase": "draw"}
    table_id, _ = pool.submit(arranged_table, alice, **drawing).result()
    page = signed_in_page(browser, live_server.url, alice)
    page.emulate_media(reduced_motion=motion)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#hand [data-card]")
        page.evaluate(COUNT_ANIMATIONS)
        page.click("#stock")
        page.wait_for_selector("#hand [data-card='w5Y']")
        page.wait_for_timeout(300)
        flights = page.evaluate("window.__flights")
        if motion == "reduce":
            assert flights == 0
        else:
            assert flights >= 1
    finally:
        page.context.close()


def _touch_drag(page: Any, start: dict[str, float], end: dict[str, float], steps: int = 10) -> None:
    """A finger on the screen: touch start, moves, end (the DevTools protocol's touch input)."""
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", start["x"], start["y"])
    for i in range(1, steps + 1):
        touch(
            "touchMove",
            start["x"] + (end["x"] - start["x"]) * i / steps,
            start["y"] + (end["y"] - start["y"]) * i / steps,
        )
        page.wait_for_timeout(16)
    touch("touchEnd", end["x"], end["y"])


def _centre(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    return {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}


def test_a_finger_reorders_my_hand_and_lays_off_on_a_phone(live_server, browser, alice, pool):
    # Round 1, I am down with my 7s; I drew and play: a card to move, a 7 to lay off.
    playing = {
        "hands": {0: "3I 7I 12A 9A"},
        "melds": {0: "7M 7A 7Y | 9M 9Y 9I"},
        "active": 0,
        "phase": "play",
    }
    table_id, _ = pool.submit(arranged_table, alice, **playing).result()
    page = signed_in_page(browser, live_server.url, alice, **PHONE_TOUCH)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#hand [data-card]")
        hand = lambda: page.eval_on_selector_all(  # noqa: E731
            "#hand [data-card]", "els => els.map((e) => e.dataset.card)"
        )
        before = hand()
        # Drag the first card past the right half of the last: it goes to the end.
        last = page.locator(f"#hand [data-card='{before[-1]}']").bounding_box()
        _touch_drag(
            page,
            _centre(page, f"#hand [data-card='{before[0]}']"),
            {"x": last["x"] + last["width"] - 3, "y": last["y"] + last["height"] / 2},
        )
        wait_for_js(
            page, f"document.querySelector('#hand [data-card]').dataset.card !== '{before[0]}'"
        )
        assert hand() == [*before[1:], before[0]]
        assert page.input_value("#sort") == "manual"
        # And 7I onto my 7s by finger: laid off.
        version = int(page.get_attribute("#table", "data-version"))
        meld = page.locator("#melds [data-meld]", has=page.locator("[data-label='7M']"))
        meld_id = meld.get_attribute("data-meld")
        _touch_drag(
            page,
            _centre(page, "#hand [data-card='w7I']"),
            _centre(page, f"[data-meld='{meld_id}']"),
        )
        wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {version}")
        assert "w7I" not in hand()
        shoot(page, "touch-layoff")
    finally:
        page.context.close()


def test_the_dealer_button_leaves_a_phone_seat_its_whole_name(live_server, browser, alice, pool):
    # Four seats side by side on a phone: the dealer's "D" sits on the card's corner, as a dealer
    # button on a real table, instead of taking room from a short name on its line.
    state = {**BOARD, "dealer": 1, "buys": [0, 2, 1, 0], "scores": [[0, 15, 30, 5]]}
    table_id, _ = pool.submit(arranged_table, alice, seats=4, **state).result()
    page = signed_in_page(browser, live_server.url, alice, **PHONE_TOUCH)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#players .seat .badge.dealer")
        dealer = page.locator("#players .seat:has(.badge.dealer)")
        name = dealer.locator(".seat-name strong")
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth")
        assert dealer.locator(".seat-name").evaluate("e => e.scrollWidth <= e.clientWidth")
        chip = page.locator("#players .badge.dealer").bounding_box()
        card = dealer.bounding_box()
        assert chip is not None and card is not None
        assert (
            chip["y"] < card["y"] + 4 and chip["x"] + chip["width"] > card["x"] + card["width"] - 4
        )
        # My own seat says "You" whole (it showed "ali…" of a longer name), and its label
        # still names me for a screen reader.
        me = page.locator("#players .seat.me")
        assert me.locator(".seat-name").inner_text().strip() == "You"
        assert me.locator(".seat-name").evaluate("e => e.scrollWidth <= e.clientWidth")
        assert me.get_attribute("aria-label").startswith(f"{alice.username} (you)")
        shoot(page, "board-dealer-button")
    finally:
        page.context.close()


def _on_vacation(host: Any, other: Any) -> tuple[int, int]:
    try:
        table_id, me = arranged_table(host, others=[other], **BOARD)
        vacation_start(user=other, days=2)
        return table_id, me
    finally:
        connection.close()


def test_a_clock_on_vacation_keeps_its_label_whole(live_server, browser, alice, bob, pool):
    # bob is on vacation: his clock reads "vacation until <date>", which squeezed the "Clock"
    # label of his seat card into "Clo" over "ck".
    table_id, _ = pool.submit(_on_vacation, alice, bob).result()
    page = signed_in_page(browser, live_server.url, alice)
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#players .seat")
        seat = page.locator("#players .seat:has(strong:text-is('bob'))")
        clock = seat.locator(".f-clock dd")
        assert clock.inner_text().startswith("vacation until")
        label = seat.locator(".f-clock dt")
        # One line: the label's text makes a single box, as wide as the word.
        assert label.evaluate(
            "e => { const r = document.createRange(); r.selectNodeContents(e);"
            " return r.getClientRects().length === 1 && e.scrollWidth <= e.clientWidth; }"
        )
        shoot(page, "board-vacation-clock")
    finally:
        page.context.close()


def _abort(table_id: int, moderator: Any) -> None:
    try:
        table_abort(moderator=moderator, table_id=table_id, reason="a test")
    finally:
        connection.close()


def test_an_aborted_table_offers_no_play(asgi_server, browser, alice, django_user_model, pool):
    # A moderator aborts the table while it is alice's turn: the page went on saying "Draw from
    # the stock or take 7A" with its Draw and Take buttons, the glow and a running clock on her
    # seat, and the replay link of a game that has none. (Daphne, so the abort comes live.)
    mod = make_moderator("mod", "game")
    state = {**BOARD, "active": 0, "phase": "draw"}
    table_id, _ = pool.submit(_with_deadline, alice, state, "turn_deadline").result()
    page = signed_in_page(browser, asgi_server, alice)
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        page.goto(f"{asgi_server}/tables/{table_id}/")
        page.wait_for_selector("#my-hand [data-action='draw']")
        pool.submit(_abort, table_id, mod).result()
        wait_for_js(
            page,
            "document.getElementById('turn-text').textContent === 'A moderator aborted this game.'",
        )
        for where in ("live", "after a reload"):
            assert page.locator("[data-action]").count() == 0, where
            assert page.locator("#players .seat.active").count() == 0, where
            assert page.locator("#players .f-clock").count() == 0, where
            assert not page.is_visible("#seed-replay"), where
            page.reload()
            page.wait_for_selector("#players .seat")
        assert page.inner_text("#turn-text") == "A moderator aborted this game."
        shoot(page, "board-aborted")
    finally:
        page.context.close()


def _finished_with(host: Any, other: Any) -> int:
    try:
        return play_game(host, [other], bots=1, seed="board-long-name").pk
    finally:
        connection.close()


@pytest.mark.layout
def test_the_final_scores_of_a_long_name_stay_on_a_phone_screen(
    live_server, browser, alice, django_user_model, pool
):
    # The game-end panel's scores have a column per player, headed by the name: a long name
    # (never broken inside, so the headings stay whole) made the page 427 px wide on a phone.
    long = django_user_model.objects.create_user("qahal_with_a_rather_long_username_x", "")
    table_id = pool.submit(_finished_with, alice, long).result()
    page = signed_in_page(browser, live_server.url, alice, **PHONE_TOUCH)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#game-end #scores")
        assert long.username in page.inner_text("#scores thead")
        no_sideways_scroll(page)
        assert serious_violations(page) == []
        shoot(page, "board-final-scores-long-name")
    finally:
        page.context.close()
