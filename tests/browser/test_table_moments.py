"""The moments that decide a game of "May I?", as a player meets them (issue 26): an offer that
waits on me is never covered (the rules panel lives beside the board and Escape closes it from
anywhere), told to me by a browser notification when I asked for them, and answered late it
says what happened; the log reads newest first inside a move too; the lay-down button waits
for a selection that makes the contract. At a desktop's and a phone's size, screenshots in
tests/browser/screenshots/ (git-ignored)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games import engine, services
from games.engine.bots import choose_action
from games.models import Seat, Table
from tests.browser.pages import signed_in_page, wait_for_js, wait_live
from tests.browser.tables import (
    OFFER,
    arranged_table,
    no_sideways_scroll,
    serious_violations,
    shoot,
    submit_as_a_client,
)
from tests.browser.test_table_page import _HeldSocket
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]

SIZES = {"desktop": (1280, 800), "phone": (375, 812)}
# A phone's browser: its screen, touch, and the mobile viewport.
PHONE_TOUCH = {"viewport": {"width": 375, "height": 812}, "has_touch": True, "is_mobile": True}


def _open(
    browser: Any,
    url: str,
    user: Any,
    table_id: int,
    size: str,
    script: str = "",
    before: Any = None,
) -> Any:
    page = signed_in_page(browser, url, user)
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    if script:
        page.add_init_script(script)
    if before is not None:
        before(page)
    page.goto(f"{url}/tables/{table_id}/")
    page.wait_for_selector("#status-bar")
    wait_live(page)
    return page


def _version(page: Any) -> int:
    return int(page.evaluate("document.getElementById('table').dataset.version"))


def _moved(page: Any, version: int) -> int:
    wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {version}")
    return _version(page)


def uncovered(page: Any, selector: str) -> bool:
    """Every element ``selector`` matches is inside the viewport and is what a finger touching
    its middle hits (no panel, dialog or hand drawn over it)."""
    return bool(
        page.evaluate(
            """(sel) => {
              const els = [...document.querySelectorAll(sel)];
              return els.length > 0 && els.every((el) => {
                const r = el.getBoundingClientRect();
                if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return Boolean(hit) && el.contains(hit);
              });
            }""",
            selector,
        )
    )


def _log_lines(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#log li").all_inner_texts()]


@pytest.mark.parametrize("size", SIZES)
def test_a_moves_events_read_newest_first_like_the_moves(live_server, browser, alice, pool, size):
    # My "no thanks" closes the window: "Nobody bought 9Y" happened after my answer, so it
    # reads above it, as the newer move reads above the older one.
    table_id, _ = pool.submit(arranged_table, alice, **OFFER).result()
    page = _open(browser, live_server.url, alice, table_id, size)
    try:
        v = _version(page)
        page.click("#window [data-action='no_thanks']")
        _moved(page, v)
        page.wait_for_selector("#log li >> text=Nobody bought")
        lines = _log_lines(page)
        nobody = next(i for i, t in enumerate(lines) if t.startswith("Nobody bought"))
        mine = next(i for i, t in enumerate(lines) if t.startswith("You said no thanks"))
        assert nobody < mine, lines
        # Newest move first: the seqs never go up down the list.
        seqs = page.eval_on_selector_all(
            "#log li[data-seq]", "els => els.map((e) => Number(e.dataset.seq))"
        )
        assert seqs == sorted(seqs, reverse=True)
        page.locator("#log").scroll_into_view_if_needed()
        shoot(page, "log-newest-first")
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_rules_panel_never_covers_the_offer_and_escape_closes_it(
    live_server, browser, alice, pool, size
):
    table_id, _ = pool.submit(arranged_table, alice, **OFFER).result()
    page = _open(browser, live_server.url, alice, table_id, size)
    try:
        assert uncovered(page, "#window [data-action]")
        page.keyboard.press("?")
        page.wait_for_selector("#help")
        if size == "desktop":
            # Beside the board: the panel and the offer's buttons both in sight.
            assert uncovered(page, "#window [data-action]")
            assert uncovered(page, "#help h2")
        shoot(page, "help-with-offer")
        assert serious_violations(page) == []
        # Escape closes it from its own "Notify me" checkbox.
        page.focus("#notify")
        page.keyboard.press("Escape")
        page.wait_for_selector("#help", state="detached")
        assert page.evaluate("document.activeElement.id") == "help-button"
        assert uncovered(page, "#window [data-action]")
        v = _version(page)
        page.click("#window [data-action='no_thanks']")
        _moved(page, v)
        assert page.locator("#window [data-action]").count() == 0
        no_sideways_scroll(page)
    finally:
        page.context.close()


# Bob's 9Y is on the pile and carol is to draw: when she draws from the stock the "May I?"
# window opens on it, and only I may still answer.
CAROL_DRAWS = {
    "hands": {0: "7M 7A 9M 9A 3I 4I"},
    "discard": "9Y",
    "active": 2,
    "phase": "draw",
    "discarder": 1,
}

# A tab out of sight, with notifications allowed, and a Notification that records its calls.
NOTIFICATIONS = """
  window.__notes = [];
  class RecordedNotification {
    constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
    static requestPermission() { return Promise.resolve("granted"); }
  }
  RecordedNotification.permission = "granted";
  window.Notification = RecordedNotification;
  Object.defineProperty(document, "visibilityState", { get: () => "hidden", configurable: true });
  localStorage.setItem("mayi:notify", "true");
"""


def _draw_as(table_id: int, user: Any, source: str = "stock") -> None:
    try:
        table = Table.objects.get(pk=table_id)
        submit_as_a_client(
            table_id=table_id,
            user=user,
            action={"type": "draw", "source": source},
            expect_version=table.version,
        )
    finally:
        connection.close()


def test_a_may_i_offer_that_waits_on_me_is_notified(live_server, browser, alice, bob, carol, pool):
    table_id, _ = pool.submit(arranged_table, alice, others=[bob, carol], **CAROL_DRAWS).result()
    page = _open(browser, live_server.url, alice, table_id, "desktop", NOTIFICATIONS)
    try:
        v = _version(page)
        assert page.evaluate("window.__notes.length") == 0
        pool.submit(_draw_as, table_id, carol).result()
        _moved(page, v)
        wait_for_js(page, "window.__notes.length > 0")
        note = page.evaluate("window.__notes[0]")
        assert "offered to you" in note["title"] and "9Y" in note["body"], note
    finally:
        page.context.close()


# Round 1, my turn to play after a draw: three 7s and three 9s make the two books.
NOT_YET = {
    "hands": {0: "7M 7A 7Y 9M 9A 9I 3A"},
    "discard": "2Y",
    "active": 0,
    "phase": "play",
}


@pytest.mark.parametrize("size", SIZES)
def test_lay_down_waits_for_a_selection_that_makes_the_contract(
    live_server, browser, alice, pool, size
):
    table_id, _ = pool.submit(arranged_table, alice, **NOT_YET).result()
    page = _open(browser, live_server.url, alice, table_id, size)
    button = page.locator("#actions [data-action='lay_down']")
    try:
        for face in ("7M", "7A", "7Y", "9M", "9A"):
            page.click(f"#hand [data-card='w{face}']")
        page.wait_for_selector("#contract-meter .meter-makes:not(.complete)")
        wait_for_js(page, "document.querySelector(\"#actions [data-action='lay_down']\").disabled")
        assert button.get_attribute("aria-describedby") == "contract-meter"
        shoot(page, "lay-down-not-yet")
        page.keyboard.press("l")  # the shortcut waits too: nothing is sent, nothing refused
        assert page.inner_text("#action-error") == ""
        # The third 9 makes the contract: the button is there to press.
        page.click("#hand [data-card='w9I']")
        page.wait_for_selector("#contract-meter .meter-makes.complete")
        wait_for_js(page, "!document.querySelector(\"#actions [data-action='lay_down']\").disabled")
        v = _version(page)
        button.click()
        _moved(page, v)
        assert page.locator("#melds .meld").count() == 2
        assert serious_violations(page) == []
    finally:
        page.context.close()


# Round 1: my books are down and my last card is the 3A; bob (next) and carol play too. The
# discard takes me out; bob plays first in round 2.
GOING_OUT = {
    "hands": {0: "3A"},
    "melds": {0: "7M 7A 7Y | 9M 9A 9I"},
    "discard": "2Y",
    "active": 0,
    "phase": "play",
    "dealer": 2,
}


@pytest.mark.parametrize("size", SIZES)
def test_a_rounds_end_shows_how_it_ended_beside_the_next_offer(
    live_server, browser, alice, bob, carol, pool, size
):
    table_id, _ = pool.submit(arranged_table, alice, others=[bob, carol], **GOING_OUT).result()
    page = _open(browser, live_server.url, alice, table_id, size)
    try:
        v = _version(page)
        page.click("#hand [data-card='w3A']")
        page.click("#actions [data-action='discard']")
        v = _moved(page, v)
        summary = page.locator("#round-end")
        summary.wait_for()
        text = summary.inner_text()
        assert "Round 1 is over" in text and "alice went out" in text
        # The winner's melds as the table showed them, and the last card played.
        melds = summary.locator(".ended-melds[data-owner] .ended-meld")
        assert melds.count() == 2
        assert melds.first.get_attribute("aria-label") == "book: 7M, 7A, 7Y"
        assert summary.locator(".last-cards [data-label='3A']").count() == 1
        # The board itself already shows round 2's empty table.
        assert "No melds on the table yet" in page.inner_text("#melds")
        # Bob draws from the stock: round 2's "May I?" offer opens on the turned-up card, its
        # buttons in sight and uncovered, the summary still there beside it.
        pool.submit(_draw_as, table_id, bob).result()
        v = _moved(page, v)
        page.wait_for_selector("#window [data-countdown='window']")
        assert uncovered(page, "#window [data-action]")
        assert uncovered(page, "#round-end h2")
        assert summary.is_visible()
        shoot(page, "round-end-beside-offer")
        assert serious_violations(page) == []
        no_sideways_scroll(page)
        page.click("#window [data-action='no_thanks']")
        _moved(page, v)
        # Closed, it stays reachable from the log: "Round 1 ended" opens the same summary.
        page.click("#round-end-close")
        assert summary.count() == 0
        line = page.locator("#log [data-round-end='1']")
        line.scroll_into_view_if_needed()
        line.click()
        again = page.locator("#round-log-summary")
        again.wait_for()
        assert again.locator(".ended-meld").count() == 2
        assert "alice went out" in again.inner_text()
        shoot(page, "round-end-from-log")
        assert serious_violations(page) == []
        page.keyboard.press("Escape")
        again.wait_for(state="detached")
    finally:
        page.context.close()


# bob drew from the stock; the 9Y is offered to carol, then to me (carol comes first).
CAROL_FIRST = {
    "hands": {0: "7M 7A 7Y 9M 9A 9I"},
    "discard": "9Y",
    "active": 1,
    "phase": "play",
    "discarder": None,
    "window": {"eligible": [2, 0]},
    "hand_size": 8,
}


def _answer(table_id: int, user: Any, answer: str) -> None:
    try:
        table = Table.objects.get(pk=table_id)
        submit_as_a_client(
            table_id=table_id, user=user, action={"type": answer}, expect_version=table.version
        )
    finally:
        connection.close()


def _window_runs_out(table_id: int) -> None:
    try:
        past = timezone.now() - timedelta(seconds=1)
        Table.objects.filter(pk=table_id).update(window_deadline=past)
        assert services.table_close_buy_window(table_id=table_id)
    finally:
        connection.close()


@pytest.mark.parametrize("size", SIZES)
def test_an_answer_that_comes_too_late_says_who_bought_first(
    live_server, browser, alice, bob, carol, pool, size
):
    table_id, _ = pool.submit(arranged_table, alice, others=[bob, carol], **CAROL_FIRST).result()
    socket = _HeldSocket()
    page = _open(browser, live_server.url, alice, table_id, size, before=socket.route)
    try:
        # carol's "May I?" wins the card while her frame is still on its way to me.
        socket.holding = True
        pool.submit(_answer, table_id, carol, "may_i").result()
        page.click("#window [data-action='no_thanks']")
        wait_for_js(page, "document.getElementById('action-error').textContent.length > 0")
        assert socket.stale
        assert page.inner_text("#action-error") == "carol bought 9Y first."
        socket.release()
        assert page.locator("#window [data-action]").count() == 0
        shoot(page, "too-late-bought")
    finally:
        page.context.close()


def test_an_answer_after_the_window_ran_out_says_nobody_bought(live_server, browser, alice, pool):
    table_id, _ = pool.submit(arranged_table, alice, **OFFER).result()
    socket = _HeldSocket()
    page = _open(browser, live_server.url, alice, table_id, "desktop", before=socket.route)
    try:
        socket.holding = True
        pool.submit(_window_runs_out, table_id).result()
        page.click("#window [data-action='may_i']")
        wait_for_js(page, "document.getElementById('action-error').textContent.length > 0")
        assert page.inner_text("#action-error") == "The window's time ran out: nobody bought 9Y."
        socket.release()
    finally:
        page.context.close()


def test_an_early_answer_after_the_card_was_taken_says_who_took_it(
    live_server, browser, alice, bob, carol, pool
):
    table_id, _ = pool.submit(arranged_table, alice, others=[bob, carol], **CAROL_DRAWS).result()
    socket = _HeldSocket()
    page = _open(browser, live_server.url, alice, table_id, "phone", before=socket.route)
    try:
        socket.holding = True
        pool.submit(_draw_as, table_id, carol, "discard").result()
        page.click("#window [data-action='may_i']")
        wait_for_js(page, "document.getElementById('action-error').textContent.length > 0")
        assert page.inner_text("#action-error") == "carol took 9Y from the discard pile first."
        socket.release()
    finally:
        page.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_play_now_lets_me_choose_the_may_i_window_and_keeps_it(live_server, browser, alice, size):
    page = signed_in_page(browser, live_server.url, alice)
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    try:
        page.goto(f"{live_server.url}/")
        choice = page.locator("#play-now-window")
        assert choice.locator("input:checked").get_attribute("value") == "20"
        shoot(page, "play-now-window")
        assert serious_violations(page) == []
        no_sideways_scroll(page)
        choice.get_by_label("30 s").check()
        page.click("#play-now button[type=submit]")
        page.wait_for_selector("#hand [data-card]")
        assert Table.objects.get().options["window_seconds"] == 30
        # Another device (a new browser context) finds the choice again.
        other = signed_in_page(browser, live_server.url, alice)
        other.goto(f"{live_server.url}/play/")
        assert other.locator("#play-now-window input:checked").get_attribute("value") == "30"
        other.context.close()
    finally:
        page.context.close()


def _start_with_bob(alice: Any, bob: Any) -> tuple[int, dict[int, Any]]:
    try:
        table = services.table_create(host=alice, seats=3)
        services.table_join(user=bob, table_id=table.pk)
        services.table_fill_with_bots(user=alice, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="browser-since")
        people = {
            s.position: s.user
            for s in Seat.objects.filter(table=table, is_bot=False).select_related("user")
        }
        return table.pk, people
    finally:
        connection.close()


def _others_play_until_my_turn(table_id: int, people: dict[int, Any], me: Any) -> int:
    """bob (the bot policy for him) plays, the bot too, until alice is to draw, after at least
    one move of theirs; the version then."""
    try:
        moved = 0
        for _ in range(200):
            table = Table.objects.get(pk=table_id)
            acting = engine.seats_to_act(table.state)
            mine = next(p for p, u in people.items() if u == me)
            if moved and acting == [mine] and table.state["phase"] == "draw":
                return table.version
            seat = next((p for p in acting if p in people and people[p] != me), None)
            if seat is None:  # a window waits on alice too: she passes, as the bots would
                seat = mine
            submit_as_a_client(
                table_id=table_id,
                user=people[seat],
                action=choose_action(table.state, seat),
                expect_version=table.version,
            )
            moved += people[seat] != me
        raise AssertionError("never alice's turn")
    finally:
        connection.close()


def _seen_by(table_id: int, user: Any) -> int | None:
    try:
        return Seat.objects.get(table_id=table_id, user=user).last_seen_version
    finally:
        connection.close()


def test_moves_watched_on_my_phone_are_not_news_on_my_laptop(
    live_server, browser, alice, bob, pool
):
    table_id, people = pool.submit(_start_with_bob, alice, bob).result()
    phone = _open(browser, live_server.url, alice, table_id, "phone")
    try:
        # The phone stays open on the table while the others play: it shows every move.
        version = pool.submit(_others_play_until_my_turn, table_id, people, alice).result()
        wait_for_js(phone, f"Number(document.getElementById('table').dataset.version) >= {version}")
        for _ in range(100):  # the socket records what it showed within a few seconds
            if pool.submit(_seen_by, table_id, alice).result() == version:
                break
            phone.wait_for_timeout(100)
        laptop = _open(browser, live_server.url, alice, table_id, "desktop")
        try:
            assert laptop.locator("#since").count() == 0
            assert laptop.locator("#since-line").count() == 0
        finally:
            laptop.context.close()
    finally:
        phone.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_since_you_last_looked_leaves_the_board_its_room_and_folds_once_i_act(
    live_server, browser, alice, bob, pool, size
):
    table_id, people = pool.submit(_start_with_bob, alice, bob).result()
    page = _open(browser, live_server.url, alice, table_id, size)
    page.context.close()
    live_server.wait_idle()  # her socket closed (and recorded what it showed) before they play
    pool.submit(_others_play_until_my_turn, table_id, people, alice).result()
    page = _open(browser, live_server.url, alice, table_id, size)
    try:
        page.wait_for_selector("#since")
        assert "bob" in page.inner_text("#since")
        # Not in the game's column: over the log, beside the board (a phone: under the game).
        assert page.evaluate(
            "!document.getElementById('game').contains(document.getElementById('since'))"
        )
        assert page.evaluate(
            "document.getElementById('table-side').contains(document.getElementById('since'))"
        )
        # The piles whole and in sight.
        assert uncovered(page, "#stock")
        if size == "phone":
            line = page.locator("#since-line")
            assert line.is_visible() and line.bounding_box()["height"] < 40
            shoot(page, "since-one-line")
            line.locator("button.link").click()
            wait_for_js(
                page, "document.getElementById('since').getBoundingClientRect().top < innerHeight"
            )
            shoot(page, "since-list-on-a-phone")
            page.evaluate("window.scrollTo(0, 0)")
        else:
            assert page.locator("#since-line").is_hidden()
            assert uncovered(page, "#since")
            shoot(page, "since-over-the-log")
        assert serious_violations(page) == []
        # I draw: it folds away by itself.
        v = _version(page)
        page.click("#actions [data-action='draw'][data-source='stock']")
        _moved(page, v)
        page.wait_for_selector("#since", state="detached")
        assert page.locator("#since-line").count() == 0
    finally:
        page.context.close()


# Round 3, four seats: I (a long name) deal and draw; the stock's top is a 12M, and I hold
# 10s to 13s. bob and two bots sit in the other seats.
LONG_NAMES = {
    "round": 3,
    "hands": {0: "10M 11A 13Y 12A 3I 4I 5I 6I"},
    "discard": "2Y",
    "stock": "12M",
    "active": 0,
    "phase": "draw",
    "dealer": 0,
}


@pytest.mark.parametrize("size", SIZES)
def test_long_names_the_dealer_badge_and_the_new_tag_are_whole(
    live_server, browser, django_user_model, bob, pool, size
):
    ana = django_user_model.objects.create_user("ana_plays", password="x")
    bob.username = "bob_the_builder"
    bob.save()
    table_id, me = pool.submit(arranged_table, ana, seats=4, others=[bob], **LONG_NAMES).result()
    page = _open(browser, live_server.url, ana, table_id, size)
    try:
        # My dealer badge whole and uncovered, my name whole beside it ("(you)" on a desktop;
        # a phone's seat says "You"), and the others' names whole.
        mine = f"#players [data-seat='{me}']"
        assert uncovered(page, f"{mine} .badge.dealer")
        if size == "desktop":
            assert _whole(page, f"{mine} .seat-name strong")
            assert _whole(page, f"{mine} .you")
        for other in range(1, 4):
            assert _whole(page, f"#players [data-seat='{(me + other) % 4}'] .seat-name strong")
        # The card just drawn: its "new" tag sits clear of its number (12: two digits).
        v = _version(page)
        page.click("#stock")
        _moved(page, v)
        tag = page.locator("#hand [data-card='w12M'] .new-tag")
        tag.wait_for()
        assert not _overlap(
            page, "#hand [data-card='w12M'] .new-tag", "#hand [data-card='w12M'] .pc-corner b"
        )
        shoot(page, "long-names")
        assert serious_violations(page) == []
        no_sideways_scroll(page)
    finally:
        page.context.close()


def _overlap(page: Any, a: str, b: str) -> bool:
    return bool(
        page.evaluate(
            """([a, b]) => {
              const r = document.querySelector(a).getBoundingClientRect();
              const s = document.querySelector(b).getBoundingClientRect();
              return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
            }""",
            [a, b],
        )
    )


def _whole(page: Any, selector: str) -> bool:
    """The element is drawn whole: nothing around it clips it, no ellipsis cuts it."""
    return bool(
        page.evaluate(
            """(sel) => {
              const el = document.querySelector(sel);
              if (!el) return false;
              if (el.scrollWidth > el.clientWidth + 0.5) return false;
              const r = el.getBoundingClientRect();
              if (r.width === 0) return false;
              for (let p = el.parentElement; p; p = p.parentElement) {
                if (getComputedStyle(p).overflow === "visible") continue;
                const b = p.getBoundingClientRect();
                if (r.left < b.left - 0.5 || r.right > b.right + 0.5) return false;
              }
              return true;
            }""",
            selector,
        )
    )


def test_the_last_discards_open_beside_the_piles_not_over_the_offer(
    live_server, browser, alice, pool
):
    offer = {**OFFER, "discard": "2Y 7I 9Y"}
    table_id, _ = pool.submit(arranged_table, alice, **offer).result()
    page = signed_in_page(browser, live_server.url, alice, **PHONE_TOUCH)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#window [data-action]")
        wait_live(page)
        page.tap("#discard", force=True)
        page.wait_for_selector("#piles .recent", state="visible", timeout=3000)
        assert uncovered(page, "#window [data-action]")
        assert uncovered(page, "#piles .recent .mini-cards")
        shoot(page, "recent-beside-offer")
        no_sideways_scroll(page)
    finally:
        page.context.close()
