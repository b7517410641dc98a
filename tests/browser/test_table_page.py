"""The game page as a player uses it: a whole round by clicking, then by the keyboard alone,
at a desktop's and a phone's size; a refused lay-down showing its reason; the hand's order kept
across a reload; the end of the round and of the game; no serious accessibility violation
(axe-core, vendored in tests/browser/vendor/); never wider than the viewport.

Each test arranges its table through the services and tests/engine/helpers.make_state
(tests/browser/tables.py); the page is served by daphne (tests/browser/conftest.py's
``live_server``), its socket live before the test looks at it, as a player's page is.
Screenshots go to tests/browser/screenshots/ (git-ignored).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection

from games import engine, services
from games.engine.bots import choose_action
from games.models import Move, Seat, Table
from tests.browser.pages import signed_in_page, wait_for_js, wait_live
from tests.browser.tables import (
    OFFER,
    arranged_table,
    no_sideways_scroll,
    serious_violations,
    shoot,
    submit_as_a_client,
)
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]

SIZES = {"desktop": (1280, 800), "phone": (375, 812)}

# The round of the tests below is tables.OFFER played out: I buy the 9Y (with the penalty card
# 7I), the bot ends its turn, I draw 3A, lay down the 7s and the 9s, lay off 9Y and 7I, discard
# 3A: out.


def _version(page: Any) -> int:
    return int(page.evaluate("document.getElementById('table').dataset.version"))


def _moved(page: Any, version: int) -> int:
    wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {version}")
    return _version(page)


def _card(face: str) -> str:
    return f"#hand [data-card='w{face}']"


def _hand(page: Any) -> list[str]:
    return page.eval_on_selector_all("#hand [data-card]", "els => els.map((e) => e.dataset.card)")


def _open(browser: Any, url: str, user: Any, table_id: int, size: str, before: Any = None) -> Any:
    page = signed_in_page(browser, url, user)
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    if before is not None:
        before(page)
    page.goto(f"{url}/tables/{table_id}/")
    page.wait_for_selector("#hand [data-card]")
    wait_live(page)
    return page


def _meld_with(page: Any, face: str) -> Any:
    return page.locator("#melds [data-meld]", has=page.locator(f"[data-label='{face}']"))


@pytest.mark.parametrize("size", SIZES)
def test_a_whole_round_by_clicking(live_server, browser, alice, pool, size):
    table_id, me = pool.submit(arranged_table, alice, **OFFER).result()
    page = _open(browser, live_server.url, alice, table_id, size)
    try:
        # The offer names the card and the penalty; my hand is on the first screen.
        offer = page.locator("#window")
        assert "9 Y" in offer.inner_text() and "penalty card" in offer.inner_text()
        assert "May I? 9Y + a penalty card" in page.inner_text("#status-bar")
        hand_box = page.locator("#hand").bounding_box()
        assert hand_box["y"] + hand_box["height"] <= SIZES[size][1]
        no_sideways_scroll(page)
        # The tab says it is my move.
        assert re.match(r"(\(\d+\) )?● Your turn", page.title())
        shoot(page, "offer")

        v = _version(page)
        page.click("#window [data-action='may_i']")
        v = _moved(page, v)
        # I bought 9Y and the penalty card; the bot finished its turn; now I draw.
        assert set(_hand(page)) >= {"w9Y", "w7I"}
        page.wait_for_selector("#stock.glow")
        assert page.inner_text("#turn-text").startswith("Draw from the stock")
        # The glow's halo breathes a few times, then holds still, and only its opacity moves:
        # a page left open on my turn for hours costs its player's machine nothing.
        pulses = page.evaluate(
            """document.getAnimations().filter((a) => a.animationName === "pulse").map((a) => ({
                 end: a.effect.getComputedTiming().endTime,
                 moves: [...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k)
                   .filter((p) => !["offset", "computedOffset", "easing", "composite"].includes(p))))],
               }))"""
        )
        assert pulses and all(p["end"] <= 10000 and p["moves"] == ["opacity"] for p in pulses)
        # Screen readers hear it (a polite live region).
        wait_for_js(page, "document.getElementById('announcer').textContent.includes('Your turn')")
        page.click("#stock")
        v = _moved(page, v)
        assert "last-drawn" in page.get_attribute(_card("3A"), "class")

        # A selection that is no contract: the server's check says so above the hand, and the
        # lay-down button waits (it no longer invites the engine's refusal); nothing moves.
        for face in ("7M", "7A", "3A"):
            page.click(_card(face))
        page.wait_for_selector("#contract-meter .meter-makes:not(.complete)")
        wait_for_js(page, "document.querySelector(\"#actions [data-action='lay_down']\").disabled")
        assert _version(page) == v
        # In the player's words: never a card id or a validator's text.
        meter = page.inner_text("#contract-meter")
        assert "w7M" not in meter and "validation" not in meter
        assert page.locator(_card("3A")).get_attribute("aria-pressed") == "true"
        shoot(page, "refusal")
        for face in ("7M", "7A", "3A"):
            page.click(_card(face))

        # Stage the 7s; unstage one by clicking it and stage it again; stage the 9s.
        for face in ("7M", "7A", "7Y"):
            page.click(_card(face))
        page.click("#actions [data-action='stage']")
        assert page.locator("#staging .staged [data-staged]").count() == 3
        assert page.locator(_card("7M")).count() == 0
        page.click("#staging [data-staged='w7Y']")
        assert page.locator("#staging [data-staged]").count() == 2
        assert page.locator(_card("7Y")).count() == 1
        page.click("#staging [data-staged='w7M']")
        page.click("#staging [data-staged='w7A']")
        assert page.locator("#staging .staged").count() == 0
        for face in ("7M", "7A", "7Y"):
            page.click(_card(face))
        page.click("#actions [data-action='stage']")
        # The contract meter: the server says what the staged cards make and what is missing.
        wait_for_js(
            page, "document.getElementById('contract-meter').textContent.includes('also needs')"
        )
        for face in ("9M", "9A", "9I"):
            page.click(_card(face))
        page.click("#actions [data-action='stage']")
        assert page.locator("#staging .staged").count() == 2
        page.wait_for_selector("#contract-meter .meter-makes.complete")
        page.click("#actions [data-action='lay_down']")
        v = _moved(page, v)
        assert page.locator("#melds .meld").count() >= 2
        assert sorted(_hand(page)) == ["w3A", "w7I", "w9Y"]

        # Lay off by clicking: 9Y on my 9s (the valid target is marked when the view says).
        page.click(_card("9Y"))
        nines = _meld_with(page, "9M")
        page.wait_for_timeout(100)
        nines.click()
        v = _moved(page, v)
        assert "9Y" in nines.locator("[data-label]").evaluate_all(
            "els => els.map((e) => e.dataset.label)"
        )

        # Lay off by dragging 7I onto my 7s (pointer events, as a mouse or a finger).
        sevens = _meld_with(page, "7M")
        page.locator(_card("7I")).hover()
        page.mouse.down()
        box = sevens.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
        page.mouse.up()
        v = _moved(page, v)
        assert _hand(page) == ["w3A"]
        # One card is "1 card", for the eye (a phone's seat says "1 card") and the ear.
        my_seat = page.locator("#players .seat.me")
        assert (my_seat.get_attribute("aria-label") or "").endswith(": 1 card, 0 points")
        count = my_seat.locator(".hand-count").evaluate(
            "e => e.textContent + getComputedStyle(e, '::after').content"
        )
        assert count == ('1" card"' if size == "phone" else "1none")
        assert page.inner_text("#hand-penalty") == "3 points"
        no_sideways_scroll(page)
        shoot(page, "mid-round")

        # The last card: discard it and go out; the end of the round is shown.
        page.click(_card("3A"))
        page.click("#actions [data-action='discard']")
        page.wait_for_selector("#round-end")
        text = page.inner_text("#round-end")
        assert "Round 1 is over" in text and "alice went out" in text
        # Each hand left, with its cards and points, the MAYI melds and the totals.
        rows = page.locator("#round-end tbody tr, #round-end tr:has(td)")
        assert rows.count() >= 3
        assert "MAYI" in text and "Total" in text
        # The two bots' hands, each once (a phone shows them on a line under the numbers).
        assert page.locator("#round-end .results .mini-cards:visible").count() == 2
        # The whole table fits the summary: no column (the totals) behind a sideways scroll.
        assert page.evaluate(
            "(() => { const d = document.getElementById('round-end');"
            " return d.scrollWidth <= d.clientWidth; })()"
        )
        table = Table.objects.get(pk=table_id)
        assert table.state["round"] == 2 and table.state["scores"][0][me] == 0
        no_sideways_scroll(page)
        shoot(page, "round-end")
        page.click("#round-end-close")
        assert page.locator("#round-end").count() == 0
    finally:
        page.context.close()


def _focus_card(page: Any, card: str) -> None:
    """Move the keyboard focus to a card of the hand with the arrow keys."""
    page.keyboard.press("h")
    for _ in range(30):
        now = page.evaluate("document.activeElement && document.activeElement.dataset.card")
        order = _hand(page)
        if now == card:
            return
        page.keyboard.press("ArrowRight" if order.index(card) > order.index(now) else "ArrowLeft")
    raise AssertionError(f"could not reach {card}")


def _key_select(page: Any, *faces: str) -> None:
    for face in faces:
        _focus_card(page, f"w{face}")
        page.keyboard.press("Space")


def _tab_to(page: Any, selector: str, backwards: bool = True) -> None:
    for _ in range(60):
        if page.evaluate(
            "(sel) => document.activeElement && document.activeElement.matches(sel)", selector
        ):
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_whole_round_with_the_keyboard_alone(live_server, browser, alice, pool):
    table_id, me = pool.submit(arranged_table, alice, **OFFER).result()
    page = _open(browser, live_server.url, alice, table_id, "phone")
    try:
        v = _version(page)
        page.keyboard.press("m")  # "May I?"
        v = _moved(page, v)
        page.wait_for_selector("#stock.glow")
        page.keyboard.press("d")  # draw from the stock
        v = _moved(page, v)

        _key_select(page, "7M", "7A", "3A")
        page.keyboard.press("l")  # lay down: refused, with the reason
        wait_for_js(page, "document.getElementById('action-error').textContent.length > 0")
        assert _version(page) == v
        _key_select(page, "7M", "7A", "3A")  # unselect

        _key_select(page, "7M", "7A", "7Y")
        page.keyboard.press("g")  # stage
        _key_select(page, "9M", "9A", "9I")
        page.keyboard.press("g")
        page.keyboard.press("l")
        v = _moved(page, v)

        for face, on in (("9Y", "9M"), ("7I", "7M")):
            _key_select(page, face)
            meld = _meld_with(page, on).get_attribute("data-meld")
            _tab_to(page, f"[data-meld='{meld}']")
            page.keyboard.press("Enter")
            v = _moved(page, v)
        assert _hand(page) == ["w3A"]

        _key_select(page, "3A")
        page.keyboard.press("x")  # discard: out
        page.wait_for_selector("#round-end")
        assert "alice went out" in page.inner_text("#round-end")
        page.keyboard.press("Escape")
        assert page.locator("#round-end").count() == 0
    finally:
        page.context.close()


def test_the_hand_order_survives_a_reload(live_server, browser, alice, pool):
    table_id, _ = pool.submit(arranged_table, alice, **OFFER).result()
    page = _open(browser, live_server.url, alice, table_id, "desktop")
    try:
        page.select_option("#sort", "number")
        assert _hand(page) == ["w7M", "w7A", "w7Y", "w9M", "w9A", "w9I"]
        # Shift + arrow moves a card (and the order becomes mine).
        _focus_card(page, "w7M")
        page.keyboard.press("Shift+ArrowRight")
        page.keyboard.press("Shift+ArrowRight")
        order = _hand(page)
        assert order == ["w7A", "w7Y", "w7M", "w9M", "w9A", "w9I"]
        assert page.evaluate("document.activeElement.dataset.card") == "w7M"
        log_before = page.locator("#log li").count()
        page.reload()
        page.wait_for_selector("#hand [data-card]")
        assert _hand(page) == order
        assert page.input_value("#sort") == "manual"
        assert page.locator("#log li").count() >= log_before
        # A new card joins at the end; the order of the others holds.
        v = _version(page)
        page.click("#window [data-action='may_i']")
        _moved(page, v)
        assert _hand(page)[:6] == order
    finally:
        page.context.close()


def _accessible(page: Any) -> None:
    found = serious_violations(page)
    assert not found, json.dumps(found, indent=1)


# Round 7 (3 runs, no final discard): I hold three runs and lay them all down: out, and the
# game is over.
LAST_ROUND = {
    "round": 7,
    "hands": {0: "1M 2M 3M 4M 5M 1A 2A 3A 4A 1Y 2Y 3Y 4Y"},
    "active": 0,
    "phase": "play",
    "hand_size": 12,
    "scores": [[0, 5, 10], [12, 0, 7], [3, 4, 0], [0, 9, 9], [20, 0, 1], [6, 6, 0]],
}


@pytest.mark.parametrize("size", SIZES)
def test_the_end_of_the_game_and_no_serious_accessibility_violation(
    live_server, browser, alice, pool, size
):
    table_id, me = pool.submit(arranged_table, alice, **LAST_ROUND).result()
    page = _open(browser, live_server.url, alice, table_id, size)
    try:
        _accessible(page)
        page.keyboard.press("?")
        page.wait_for_selector("#help")
        assert "3 runs" in page.inner_text("#help-contracts")
        # The penalty points of the table's ruleset, as the engine counts them (a wild: 15).
        penalties = page.inner_text("#help-penalties")
        assert re.search(r"Wild\s+15", penalties) and "MAYI meld" in penalties
        shoot(page, "help")
        _accessible(page)
        page.keyboard.press("?")

        for card in _hand(page):
            page.click(f"#hand [data-card='{card}']")
        page.click("#actions [data-action='lay_down']")
        page.wait_for_selector("#game-end")
        assert "alice wins" in page.inner_text("#game-end")
        assert "Bot 2 · 100 points · never out first" in page.inner_text("#game-end")
        # The heading said "playing" when the page loaded; the game is over now.
        wait_for_js(page, "document.getElementById('table-status').textContent === 'finished'")
        assert page.locator("#play-again").is_visible()
        page.wait_for_selector("#round-end")
        shoot(page, "game-end-round")
        page.click("#round-end-close")
        no_sideways_scroll(page)
        shoot(page, "game-end")
        _accessible(page)
        assert Table.objects.get(pk=table_id).state["game_over"] is True
        # "Play again": a new table with the same players.
        page.click("#play-again")
        page.wait_for_url(lambda url: f"/tables/{table_id}/" not in url)
        assert Table.objects.exclude(pk=table_id).count() == 1
    finally:
        page.context.close()


def _start_with_bob(alice: Any, bob: Any) -> tuple[int, dict[int, Any]]:
    try:
        table = services.table_create(host=alice, seats=3)
        services.table_join(user=bob, table_id=table.pk)
        services.table_fill_with_bots(user=alice, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="browser-since")
        users = {
            s.position: s.user
            for s in Seat.objects.filter(table=table, is_bot=False).select_related("user")
        }
        return table.pk, users
    finally:
        connection.close()


def _people_only(alice: Any, bob: Any, carol: Any) -> int:
    try:
        table = services.table_create(host=alice, seats=3)
        services.table_join(user=bob, table_id=table.pk)
        services.table_join(user=carol, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="browser-no-move")
        assert not Move.objects.filter(table=table).exists()
        return table.pk
    finally:
        connection.close()


def test_a_game_with_no_move_yet_offers_no_earlier_moves(
    live_server, browser, alice, bob, carol, pool
):
    # "Show earlier moves" sat under an empty log, and a click on it brought nothing.
    table_id = pool.submit(_people_only, alice, bob, carol).result()
    page = _open(browser, live_server.url, alice, table_id, "desktop")
    try:
        assert page.locator("#log-empty").is_visible()
        assert page.locator("#log-older").count() == 0
    finally:
        page.context.close()


def _others_move(table_id: int, users: dict[int, Any], me: Any, count: int) -> int:
    """Moves by the human seats (bot policy), until ``count`` of them were not ``me``'s."""
    try:
        theirs = 0
        while theirs < count:
            table = Table.objects.get(pk=table_id)
            seat = next(s for s in engine.seats_to_act(table.state) if s in users)
            submit_as_a_client(
                table_id=table_id,
                user=users[seat],
                action=choose_action(table.state, seat),
                expect_version=table.version,
            )
            theirs += users[seat] != me
        return Table.objects.get(pk=table_id).version
    finally:
        connection.close()


def test_since_you_last_looked(live_server, browser, alice, bob, pool):
    table_id, users = pool.submit(_start_with_bob, alice, bob).result()
    page = _open(browser, live_server.url, alice, table_id, "desktop")
    if not page.evaluate(
        "'log' in JSON.parse(document.getElementById('table-payload').textContent)"
    ):
        page.context.close()
        pytest.skip("the server sends no deltalog yet (h11srv)")
    assert page.locator("#since").count() == 0  # nothing happened since the start
    page.context.close()
    # The others move once alice's socket has closed, as when she has really left: a socket
    # still open would be sent their moves and record them as seen as it closes.
    live_server.wait_idle()

    pool.submit(_others_move, table_id, users, alice, 3).result()
    page = _open(browser, live_server.url, alice, table_id, "desktop")
    try:
        _since_names_bob_and_dismisses(page, "since")
    finally:
        page.context.close()


def _waiting_room_step(step: str, table_id: int | None, user: Any) -> int:
    try:
        if step == "open":
            return services.table_create(host=user, seats=3).pk
        assert table_id is not None
        if step == "join":
            services.table_join(user=user, table_id=table_id)
        else:
            services.table_start(user=user, table_id=table_id, seed="browser-waiting-room")
        return table_id
    finally:
        connection.close()


def test_the_waiting_room_follows_the_table_until_the_game_starts(
    live_server, browser, alice, bob, carol, pool
):
    # The page of a table waiting for players never opened its socket: it said "connecting…"
    # for ever, and who joined, or that the host had started the game, showed only on a reload.
    table_id = pool.submit(_waiting_room_step, "open", None, bob).result()
    pool.submit(_waiting_room_step, "join", table_id, alice).result()
    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        wait_live(page)
        assert page.inner_text("#live-status") == "live"
        assert "Waiting for players (2/3)" in page.inner_text("#table")
        pool.submit(_waiting_room_step, "join", table_id, carol).result()
        # Full, it says so, and whom it waits on now (the host, bob), not "for players".
        page.wait_for_selector("#table h2:has-text('The table is full (3/3)')")
        assert "waiting for bob to start the game" in page.inner_text("#room-state")
        assert "Waiting for players" not in page.inner_text("#table")
        assert "carol" in page.inner_text("#table")
        pool.submit(_waiting_room_step, "start", table_id, bob).result()
        page.wait_for_selector("#hand [data-card]")
        wait_live(page)
    finally:
        page.context.close()


def _bots_move_first(host: Any, guest: Any) -> int:
    """A table of ``host``, ``guest`` and two bots, started on a deal where a bot plays first:
    the bots have moved by the time anyone's page shows the game."""
    try:
        table = services.table_create(host=host, seats=4)
        services.table_join(user=guest, table_id=table.pk)
        services.table_fill_with_bots(user=host, table_id=table.pk)
        return table.pk
    finally:
        connection.close()


def _start_on_a_bots_lead(host: Any, table_id: int) -> int:
    try:
        table = Table.objects.get(pk=table_id)
        seed = next(
            f"bots-lead-{i}"
            for i in range(200)
            # The dealer's left plays first: seat 2, a bot.
            if engine.new_game(4, f"bots-lead-{i}", table.ruleset)["dealer"] == 1
        )
        services.table_start(user=host, table_id=table_id, seed=seed)
        return Move.objects.filter(table_id=table_id, by_bot=True).count()
    finally:
        connection.close()


def test_watching_the_waiting_room_leaves_nothing_to_catch_up_on(
    live_server, browser, alice, bob, pool
):
    # A player who watched the waiting room saw the game start: the page that follows listed
    # the bots' first moves under "Since you last looked", as if they had been away.
    table_id = pool.submit(_bots_move_first, bob, alice).result()
    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        wait_live(page)
        assert pool.submit(_start_on_a_bots_lead, bob, table_id).result() > 0
        page.wait_for_selector("#hand [data-card]")
        wait_live(page)
        assert "Bot" in page.inner_text("#log-root")  # the bots' moves are in the log
        assert page.locator("#since").count() == 0
        # Away from the table in the same tab, and back after bob moved: the panel is there as
        # before (what the waiting room left in the tab held for that one page load only).
        page.goto("about:blank")
        live_server.wait_idle()
        pool.submit(_others_move, table_id, {0: bob, 1: alice}, alice, 1).result()
        page.goto(f"{live_server.url}/tables/{table_id}/")
        _since_names_bob_and_dismisses(page, "since-after-watched-start")
    finally:
        page.context.close()


def _since_names_bob_and_dismisses(page: Any, shot: str) -> None:
    page.wait_for_selector("#since")
    text = page.inner_text("#since")
    assert "Since you last looked" in text and "bob" in text
    shoot(page, shot)
    page.click("#since button")
    assert page.locator("#since").count() == 0


_TAB = """([visible, awayMs]) => {
  if (!window.tabShown) {
    // The tab's visibility and the clock as the page reads them: shown or hidden at will, and
    // a while away without waiting for it.
    window.tabShown = true;
    window.skew = 0;
    Object.defineProperty(document, "visibilityState", { get: () => (window.tabShown ? "visible" : "hidden"), configurable: true });
    const now = Date.now;
    Date.now = () => now() + window.skew;
  }
  window.skew += awayMs;
  window.tabShown = visible;
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_back_to_the_tab_after_a_while_shows_what_the_others_did(
    live_server, browser, alice, bob, pool
):
    # The table's tab in the background for an hour: the moves were there when she came back,
    # with nothing to say which were new, and "Since you last looked" appeared only at a reload.
    table_id, users = pool.submit(_start_with_bob, alice, bob).result()
    page = _open(browser, live_server.url, alice, table_id, "desktop")
    try:
        # A glance at another tab: the moves are on the table, nothing more to say.
        v = _version(page)
        page.evaluate(_TAB, [False, 0])
        pool.submit(_others_move, table_id, users, alice, 1).result()
        _moved(page, v)
        page.evaluate(_TAB, [True, 3000])
        assert page.locator("#since").count() == 0
        # An hour away while bob plays.
        v = _version(page)
        page.evaluate(_TAB, [False, 0])
        pool.submit(_others_move, table_id, users, alice, 2).result()
        _moved(page, v)
        assert page.locator("#since").count() == 0
        page.evaluate(_TAB, [True, 3600_000])
        _since_names_bob_and_dismisses(page, "since-back-to-the-tab")
    finally:
        page.context.close()


# Round 5 (2 books + 1 run) at a table of four, late: the three others are down with three
# melds each and I hold eleven cards, my turn to draw. On a phone the table and my hand must
# both be on the screen: the melds are there to read and to lay off onto.
CROWDED = {
    "round": 5,
    "hands": {0: "3M 4M 6M 7M 9Y 9A 11M 11A 11Y 2I ?"},
    "melds": {
        1: "5M 5A 5Y | 8M 8I 8A | 2Y 3Y 4Y 5Y",
        2: "10M 10A 10I | 12Y 12I 12M | 6A 7A 8A 9A 10A",
        3: "1M 1A 1I | 13M 13Y 13I | 9I 10I 11I 12I",
    },
    "discard": "6Y",
    "active": 0,
    "phase": "draw",
    "hand_size": 3,
}


def test_since_you_last_looked_keeps_the_earlier_lines_of_a_long_absence(
    live_server, browser, alice, bob, pool
):
    # Back after many moves, the panel showed the last 8 lines and dropped the rest without a
    # word (a round's end among them); they now fold under "N earlier lines".
    table_id, users = pool.submit(_start_with_bob, alice, bob).result()
    page = _open(browser, live_server.url, alice, table_id, "desktop")
    page.context.close()
    live_server.wait_idle()  # her socket closed before they move (test_since_you_last_looked)
    pool.submit(_others_move, table_id, users, alice, 12).result()
    page = _open(browser, live_server.url, alice, table_id, "phone")
    try:
        page.wait_for_selector("#since")
        earlier = page.locator("#since details.since-earlier")
        assert earlier.count() == 1
        folded = int(earlier.locator("summary").inner_text().split()[0])
        assert folded == earlier.locator("li").count() > 0
        assert page.locator("#since > ul > li").count() == 8
        earlier.locator("summary").click()
        assert earlier.locator("li").first.is_visible()
        shoot(page, "since-long")
    finally:
        page.context.close()


def _on_screen_and_uncovered(page: Any, selector: str) -> bool:
    """The element is inside the viewport and what a finger touching its middle hits (not
    the hand or anything else drawn over it)."""
    return page.evaluate(
        """(sel) => {
          const el = document.querySelector(sel);
          const r = el.getBoundingClientRect();
          if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) return false;
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return Boolean(hit) && el.contains(hit);
        }""",
        selector,
    )


def _fully_shown(page: Any, selector: str) -> bool:
    """No box around the element clips it (an ellipsis or an overflow cut)."""
    return page.evaluate(
        """(sel) => {
          const el = document.querySelector(sel);
          const r = el.getBoundingClientRect();
          for (let p = el.parentElement; p; p = p.parentElement) {
            if (getComputedStyle(p).overflow === "visible") continue;
            const b = p.getBoundingClientRect();
            if (r.left < b.left - 0.5 || r.right > b.right + 0.5) return false;
          }
          return r.width > 0;
        }""",
        selector,
    )


def _meld_ids(page: Any) -> list[str]:
    return page.eval_on_selector_all("#melds [data-meld]", "els => els.map((e) => e.dataset.meld)")


def _melds_in_view(page: Any) -> list[str]:
    return [m for m in _meld_ids(page) if _on_screen_and_uncovered(page, f"[data-meld='{m}']")]


@pytest.mark.parametrize("size", SIZES)
def test_the_table_and_my_hand_share_the_screen(live_server, browser, alice, pool, size):
    table_id, _ = pool.submit(arranged_table, alice, seats=4, **CROWDED).result()
    page = _open(browser, live_server.url, alice, table_id, size)
    try:
        no_sideways_scroll(page)
        shoot(page, "crowded")
        # On the first screen: my whole hand, the piles to draw from, and melds to read.
        hand = page.locator("#my-hand").bounding_box()
        assert hand["y"] >= 0 and hand["y"] + hand["height"] <= SIZES[size][1]
        assert _on_screen_and_uncovered(page, "#stock")
        assert _melds_in_view(page), "no meld visible beside the hand"
        # Every meld can be brought into view (the table scrolls) and nothing covers it, while
        # the hand stays where it was, whole and usable.
        for m in _meld_ids(page):
            page.locator(f"[data-meld='{m}']").scroll_into_view_if_needed()
            assert _on_screen_and_uncovered(page, f"[data-meld='{m}']"), f"meld {m} is covered"
            now = page.locator("#my-hand").bounding_box()
            assert now["y"] + now["height"] <= SIZES[size][1] and now["y"] >= 0
            assert _on_screen_and_uncovered(page, "#hand [data-card]")
        shoot(page, "crowded-scrolled")
        no_sideways_scroll(page)
        _accessible(page)  # the table's own scroll box is reachable by keyboard, too
        page.click("#stock")
        page.wait_for_selector("#hand .last-drawn")
        assert _on_screen_and_uncovered(page, "#hand .last-drawn")
        # The hand's head says its penalty whole, not cut short beside the buttons.
        assert _fully_shown(page, "#hand-penalty")
        if size == "phone":
            # The hand folds to its head row and the table takes the screen; it unfolds again.
            board = page.locator("#board").bounding_box()["height"]
            page.click("#hand-fold")
            # The page re-renders after the click's handler: wait for it (a loaded CI machine).
            wait_for_js(page, "document.getElementById('hand-fold').ariaExpanded === 'false'")
            assert page.locator("#hand [data-card]").count() == 0
            assert page.get_attribute("#hand-fold", "aria-expanded") == "false"
            assert page.locator("#board").bounding_box()["height"] > board + 100
            assert page.locator("#actions [data-action='discard']").is_visible()
            shoot(page, "crowded-folded")
            # Folded it stays, across a reload, as the hand's order does.
            page.reload()
            page.wait_for_selector("#hand-fold")
            assert page.get_attribute("#hand-fold", "aria-expanded") == "false"
            assert page.locator("#hand [data-card]").count() == 0
            page.click("#hand-fold")
            wait_for_js(page, "document.getElementById('hand-fold').ariaExpanded === 'true'")
            assert page.locator("#hand [data-card]").count() == 12
            # The card I drew is still marked after the reload (from the game's log).
            assert _on_screen_and_uncovered(page, "#hand .last-drawn")
            # H (go to my hand) unfolds a folded hand and puts the focus on a card.
            page.click("#hand-fold")
            page.keyboard.press("h")
            wait_for_js(
                page,
                "document.activeElement && document.activeElement.matches('#hand [data-card]')",
            )
            assert page.get_attribute("#hand-fold", "aria-expanded") == "true"
    finally:
        page.context.close()


# Round 2 (a book and a run): four 5s, but 5I is the lowest card of the run 5I-8I. The face
# sorts put the four 5s together; the melds sort asks the engine (the view's hand_melds).
MELDS_SORT = {
    "round": 2,
    "hands": {0: "w12Y w5I w3M w7I w5A w8I w5M w6I w5Y"},
    "stock": "w4I",
    "active": 0,
    "phase": "draw",
}


def _gap_after(page: Any, card: str) -> float:
    """The room between a card of the hand and the next one, in pixels."""
    return page.evaluate(
        """(id) => {
          const el = document.querySelector(`#hand [data-card='${id}']`);
          const next = el.nextElementSibling;
          return next.getBoundingClientRect().left - el.getBoundingClientRect().right;
        }""",
        card,
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_melds_sort_groups_the_hand_as_the_engine_finds_the_contract(
    live_server, browser, alice, pool, size
):
    table_id, _ = pool.submit(arranged_table, alice, **MELDS_SORT).result()
    page = _open(browser, live_server.url, alice, table_id, size)
    try:
        # The sort menu of the BGA help, plus by number and my own order.
        options = page.eval_on_selector_all("#sort option", "els => els.map((e) => e.textContent)")
        assert set(options) >= {"By suit", "MAYI", "Book", "Run", "Book and run", "By number"}
        page.select_option("#sort", "book")
        assert _hand(page)[:4] == ["w5M", "w5A", "w5Y", "w5I"]  # faces only: all the 5s
        page.select_option("#sort", "melds")
        book, run, rest = ["w5M", "w5A", "w5Y"], ["w5I", "w6I", "w7I", "w8I"], ["w3M", "w12Y"]
        assert _hand(page) == book + run + rest
        # Each meld is set apart: a wider gap after its last card than between its cards.
        assert _gap_after(page, "w5Y") > _gap_after(page, "w5M") + 4
        assert _gap_after(page, "w8I") > _gap_after(page, "w6I") + 4
        assert page.get_attribute(_card("5I"), "aria-label").endswith("in a run")
        no_sideways_scroll(page)
        shoot(page, "melds-sort")
        # A drawn 4I joins the run it extends; the sort holds across a reload.
        v = _version(page)
        page.click("#stock")
        _moved(page, v)
        assert _hand(page) == book + ["w4I", *run] + rest
        page.reload()
        page.wait_for_selector("#hand [data-card]")
        assert page.input_value("#sort") == "melds"
        assert _hand(page) == book + ["w4I", *run] + rest
    finally:
        page.context.close()


# Round 1 at a table of four: bot 2 discarded the 9Y and bot 3 plays its turn; bob (seat 1)
# and I may both still answer for the 9Y.
TWO_ANSWER: dict[str, Any] = {
    "hands": {0: "7M 7A 7Y 9M 9A 9I"},
    "discard": "9Y",
    "stock": "7I 3A",
    "active": 3,
    "phase": "play",
    "discarder": 2,
    "window": {"eligible": [0, 1]},
    "hand_size": 7,
}


def _answer(table_id: int, user: Any, answer: str) -> None:
    try:
        table = Table.objects.get(pk=table_id)
        submit_as_a_client(
            table_id=table_id, user=user, action={"type": answer}, expect_version=table.version
        )
    finally:
        connection.close()


def test_my_answer_to_may_i_goes_through_when_another_answered_first(
    live_server, browser, alice, bob, pool
):
    table_id, me = pool.submit(arranged_table, alice, seats=4, others=[bob], **TWO_ANSWER).result()
    socket = _HeldSocket()
    page = _open(browser, live_server.url, alice, table_id, "desktop", before=socket.route)
    try:
        assert "Waiting for you and bob." in page.inner_text("#window")  # not "you, bob"
        v = _version(page)
        # Bob says no thanks a moment before I click, and its frame is still on its way to me:
        # my page shows the version before his answer, so my answer arrives stale (409). The
        # window still waits on me for the same card, so the page sends my answer again instead
        # of asking me to click again.
        socket.holding = True
        pool.submit(_answer, table_id, bob, "no_thanks").result()
        assert _version(page) == v
        page.click("#window [data-action='no_thanks']")
        # Bob's answer is one version, mine the next.
        wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {v + 1}")
        assert len(socket.stale) == 1
        socket.release()
        assert page.locator("#window [data-action]").count() == 0
        assert page.inner_text("#action-error") == ""
        answers = pool.submit(_answers_of, table_id).result()
        assert ("no_thanks", me) in answers and ("no_thanks", 1) in answers
    finally:
        page.context.close()


class _HeldSocket:
    """The table's socket through Playwright, holding the server's frames while ``holding``:
    a frame still on its way, as over a slow network, without waiting on the clock. The
    answers to the page's own moves (they name its ``ref``) pass: as a POST's answer may
    overtake a frame on its way. ``stale``: the page's moves refused as stale (a 409)."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[Any] = []
        self.stale: list[dict[str, Any]] = []
        self.to_page: Any = None

    def route(self, page: Any) -> None:
        page.route_web_socket(re.compile(r"/ws/tables/"), self._connect)

    def _connect(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self.to_page = ws
        server.on_message(self._from_server)

    def _from_server(self, message: Any) -> None:
        data = json.loads(message)
        if data.get("type") == "error" and data["error"]["code"] == "stale_version":
            self.stale.append(data)
        if self.holding and "ref" not in data:
            self.held.append(message)
        else:
            self.to_page.send(message)

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self.to_page.send(message)
        self.held.clear()


def _answers_of(table_id: int) -> list[tuple[str, int | None]]:
    try:
        return [
            (m.action["type"], m.seat)
            for m in Move.objects.filter(table_id=table_id).order_by("seq")
            if m.action["type"] in ("no_thanks", "may_i")
        ]
    finally:
        connection.close()


def test_a_card_in_flight_lets_clicks_through_and_is_clickable_once_landed(
    live_server, browser, alice, pool
):
    table_id, me = pool.submit(arranged_table, alice, **OFFER).result()
    page = _open(browser, live_server.url, alice, table_id, "desktop")
    try:
        # Every card's flight holds at its start, as on a slow machine just after a render.
        page.evaluate(
            """() => {
              const animate = Element.prototype.animate;
              window.land = () => {
                Element.prototype.animate = animate;
                window.flights.forEach((a) => a.finish());
              };
              Element.prototype.animate = function (...args) {
                const a = animate.apply(this, args);
                a.pause();
                (window.flights = window.flights || []).push(a);
                return a;
              };
            }"""
        )
        v = _version(page)
        page.click("#window [data-action='may_i']")
        _moved(page, v)
        # The cards I bought fly in from the piles, passing over the stock, the pile and the
        # seats: a click on what lies under a card in flight reaches that, not the card.
        on_top = """(face) => {
          const el = document.querySelector(`#hand [data-card-face='${face}']`);
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return Boolean(hit && el.contains(hit));
        }"""
        wait_for_js(page, "(window.flights || []).length > 0")
        assert not page.evaluate(on_top, "w7I")
        # Landed, it is a card of my hand like any other.
        page.evaluate("() => window.land()")
        page.click(_card("7I"))
        assert page.locator(_card("7I")).get_attribute("aria-pressed") == "true"
    finally:
        page.context.close()
