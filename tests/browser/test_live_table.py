"""Two players' pages of one table, in two browser contexts: one acts, the other page follows
over the websocket without a reload. A page whose socket drops says "reconnecting…", comes back
by itself with backoff and shows the moves it missed; a frame several versions ahead is shown
and followed by a fresh read; a socket that closes late never leaves a second one open.

Every browser test is served by daphne in a thread of the test process (the SQLite test
database is shared between threads, and so is the in-memory channel layer; on pass 2 they are
PostgreSQL and Redis): tests/browser/conftest.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection

from games import engine, services
from games.engine.bots import choose_action
from games.models import Seat, Table
from tests.browser.pages import signed_in_page, wait_for_js
from tests.browser.tables import submit_as_a_client
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]


def _start_table(alice: Any, bob: Any) -> Table:
    try:
        table = services.table_create(host=alice, seats=3)
        services.table_join(user=bob, table_id=table.pk)
        services.table_fill_with_bots(user=alice, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="browser-live")
        table.refresh_from_db()
        return table
    finally:
        connection.close()


def test_one_player_acts_and_the_others_page_follows(asgi_server, browser, alice, bob):
    # In a thread of its own: this one runs Playwright's event loop, where the services'
    # on-commit broadcast (sync code that sends through the channel layer) cannot run.
    with ThreadPoolExecutor(1) as pool:
        table = pool.submit(_start_table, alice, bob).result()
    pages = {0: signed_in_page(browser, asgi_server, alice)}
    pages[1] = signed_in_page(browser, asgi_server, bob)
    try:
        for page in pages.values():
            page.goto(f"{asgi_server}/tables/{table.pk}/")
            page.wait_for_selector("#live-status.live")
            # Set on this document only: a reload would lose it.
            page.evaluate("window.__sameDocument = true")

        view = engine.view(table.state, None)
        active, window = view["active_seat"], view["buy_window"]
        if window and set(window["waiting"]) & {0, 1}:
            actor = min(set(window["waiting"]) & {0, 1})
            pages[actor].click("#window [data-action='no_thanks']")
        else:
            assert active in (0, 1) and view["phase"] == "draw", view
            actor = active
            pages[actor].click("#actions [data-action='draw'][data-source='stock']")
        watcher = pages[1 - actor]

        wait_for_js(
            watcher, f"Number(document.getElementById('table').dataset.version) > {table.version}"
        )
        assert watcher.evaluate("window.__sameDocument") is True
        table.refresh_from_db()
        # The watcher's page shows the committed state: the actor's card count, the log line.
        shown = watcher.inner_text(f"#players [data-seat='{actor}'] .hand-count")
        assert int(shown) == len(table.state["hands"][actor])
        assert watcher.locator("#log li").count() >= 1
        assert "reconnecting" not in watcher.inner_text("#live-status")
        assert Table.objects.get(pk=table.pk).version == int(
            watcher.evaluate("document.getElementById('table').dataset.version")
        )
    finally:
        for page in pages.values():
            page.context.close()


# Installed before table.js runs: keeps the page's sockets reachable from the test, and lets it
# make the server unreachable (__blockSockets: new sockets go to a closed port) or lose frames
# (__dropFrames: they arrive, are noted in __frames, and never reach table.js); what the page
# sends is noted in __sent.
SOCKET_HOOKS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.__frames = [];
  window.__sent = [];
  window.__blockSockets = false;
  window.__dropFrames = false;
  class Watched extends Native {
    constructor(url, protocols) {
      // Blocked: a path no route serves, on the page's own origin (connect-src allows no other).
      super(window.__blockSockets ? url.replace("/ws/tables/", "/ws/blocked/") : url, protocols);
      window.__sockets.push(this);
    }
    send(data) {
      window.__sent.push(data);
      super.send(data);
    }
    set onmessage(handler) {
      super.onmessage = (event) => {
        let version = null;
        try { version = JSON.parse(event.data).table.version; } catch (e) { /* not a frame */ }
        window.__frames.push(version);
        if (!window.__dropFrames) handler.call(this, event);
      };
    }
    get onmessage() { return super.onmessage; }
  }
  window.WebSocket = Watched;
})();
"""


def _three_players(alice: Any, bob: Any, carol: Any) -> tuple[Table, dict[int, Any]]:
    try:
        table = services.table_create(host=alice, seats=3)
        services.table_join(user=bob, table_id=table.pk)
        services.table_join(user=carol, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="browser-resync")
        table.refresh_from_db()
        users = {
            s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")
        }
        return table, users
    finally:
        connection.close()


def _play_one(table: Table, users: dict[int, Any], watcher: int) -> None:
    """One move through the API by a seat that must act (another than the watcher's when there
    is one), chosen by the bot policy."""
    to_act = engine.seats_to_act(table.state)
    seat = next((s for s in to_act if s != watcher), to_act[0])
    action = choose_action(table.state, seat)
    assert action is not None, (seat, table.state["phase"])
    submit_as_a_client(
        table_id=table.pk, user=users[seat], action=action, expect_version=table.version
    )


def _play_moves(table_id: int, users: dict[int, Any], watcher: int, count: int) -> Table:
    """``count`` moves (:func:`_play_one`)."""
    try:
        for _ in range(count):
            _play_one(Table.objects.get(pk=table_id), users, watcher)
        return Table.objects.get(pk=table_id)
    finally:
        connection.close()


def _shows_the_table(page: Any, table: Table, seat: int) -> None:
    """What the player sees is the committed state: version, piles, whose turn, hand size."""
    view = engine.view(table.state, seat)
    wait_for_js(page, f"document.getElementById('table').dataset.version === '{table.version}'")
    assert page.get_attribute("#stock-count", "data-count") == str(view["stock_size"])
    assert page.get_attribute("#discard-count", "data-count") == str(view["discard_size"])
    active = page.locator("#players .seat.active")
    if view["active_seat"] is None:
        assert active.count() == 0
    else:
        assert active.get_attribute("data-seat") == str(view["active_seat"])
    shown = page.inner_text(f"#players [data-seat='{seat}'] .hand-count")
    assert int(shown) == len(table.state["hands"][seat])
    assert page.inner_text("#live-status") == "live"


def _watch(browser: Any, url: str, user: Any, table: Table) -> Any:
    page = signed_in_page(browser, url, user)
    page.add_init_script(SOCKET_HOOKS)
    page.goto(f"{url}/tables/{table.pk}/")
    page.wait_for_selector("#live-status.live")
    page.evaluate("window.__sameDocument = true")
    return page


@dataclass
class Watched:
    """alice's live page of a started three-player table, and a thread for the other players'
    moves (the ORM must not run on the thread of the browser's event loop)."""

    pool: ThreadPoolExecutor
    table: Table
    users: dict[int, Any]
    watcher: int
    page: Any

    def play(self, count: int) -> Table:
        return self.pool.submit(
            _play_moves, self.table.pk, self.users, self.watcher, count
        ).result()


@pytest.fixture
def watched(asgi_server: str, browser: Any, alice: Any, bob: Any, carol: Any) -> Iterator[Watched]:
    with ThreadPoolExecutor(1) as pool:
        table, users = pool.submit(_three_players, alice, bob, carol).result()
        watcher = next(s for s, u in users.items() if u == alice)
        page = _watch(browser, asgi_server, alice, table)
        try:
            yield Watched(pool, table, users, watcher, page)
        finally:
            page.context.close()


def test_a_dropped_socket_reconnects_with_backoff_and_shows_the_moves_missed(
    watched: Watched,
) -> None:
    page, table, watcher = watched.page, watched.table, watched.watcher
    # The server goes away: the socket drops and new ones cannot connect.
    page.evaluate("window.__blockSockets = true; window.__sockets.at(-1).close()")
    page.wait_for_selector("#live-status.stale")
    assert page.inner_text("#live-status") == "reconnecting…"
    assert "stale" in page.get_attribute("#game", "class")

    moved = watched.play(4)
    assert moved.version >= table.version + 4
    # Retries fail (backoff: 0.25-0.5 s, then 0.5-1 s, ...) and the page still says so.
    wait_for_js(page, "window.__sockets.length >= 3", timeout=5000)
    assert page.inner_text("#live-status") == "reconnecting…"
    assert page.evaluate("document.getElementById('table').dataset.version") == str(table.version)

    # The server is back: the page reconnects by itself, without a reload.
    page.evaluate("window.__blockSockets = false")
    page.wait_for_selector("#live-status.live", timeout=15000)
    _shows_the_table(page, moved, watcher)
    assert "stale" not in page.get_attribute("#game", "class")
    assert page.evaluate("window.__sameDocument") is True


def test_a_frame_that_jumps_versions_is_followed_by_a_fresh_read(watched: Watched) -> None:
    page, table, watcher = watched.page, watched.table, watched.watcher
    # Frames are lost on the way (the socket stays up): the page never sees them.
    page.evaluate("window.__dropFrames = true")
    missed = watched.play(3)
    wait_for_js(page, f"window.__frames.includes({missed.version})")
    assert page.evaluate("document.getElementById('table').dataset.version") == str(table.version)

    # The next frame is several versions ahead: the page shows it and re-reads the table.
    page.evaluate("window.__dropFrames = false")
    api = f"/api/tables/{table.pk}"
    with page.expect_request(lambda r: r.method == "GET" and r.url.split("?")[0].endswith(api)):
        latest = watched.play(1)
    assert latest.version > table.version + 1
    _shows_the_table(page, latest, watcher)
    assert page.evaluate("window.__sameDocument") is True


def test_coming_back_while_the_socket_closes_keeps_one_live_socket(watched: Watched) -> None:
    page, watcher = watched.page, watched.watcher
    # The tab comes back to the foreground just as its socket is closing: the page
    # connects at once, and the old socket's close must not start yet another one.
    page.evaluate(
        "window.__sockets.at(-1).close();document.dispatchEvent(new Event('visibilitychange'))"
    )
    page.wait_for_selector("#live-status.live")
    page.wait_for_timeout(1500)  # longer than the first backoff step
    assert page.inner_text("#live-status") == "live"
    # One socket open: a second would be a connection the server keeps for nothing.
    assert page.evaluate("window.__sockets.filter((s) => s.readyState <= 1).length") == 1
    moved = watched.play(2)
    _shows_the_table(page, moved, watcher)


def _until_my_draw(table_id: int, users: dict[int, Any], me: int) -> Table:
    """The other seats' moves (and mine in a "May I?" window) until I must draw."""
    try:
        for _ in range(100):
            table = Table.objects.get(pk=table_id)
            view = engine.view(table.state, me)
            if view["active_seat"] == me and view["phase"] == "draw" and not view["buy_window"]:
                return table
            _play_one(table, users, me)
        raise AssertionError("my turn to draw never came")
    finally:
        connection.close()


def test_my_moves_go_over_the_socket_and_by_post_while_it_is_down(watched: Watched) -> None:
    page, watcher = watched.page, watched.watcher
    table = watched.pool.submit(_until_my_draw, watched.table.pk, watched.users, watcher).result()
    _shows_the_table(page, table, watcher)
    posts: list[str] = []
    page.on(
        "request",
        lambda r: r.method == "POST" and r.url.endswith("/actions") and posts.append(r.url),
    )
    page.click("#actions [data-action='draw'][data-source='stock']")
    drawn = table.version + 1
    wait_for_js(page, f"document.getElementById('table').dataset.version === '{drawn}'")
    # Over the socket, naming its answer: no request of its own.
    sent = [json.loads(m) for m in page.evaluate("window.__sent")]
    moves = [m for m in sent if m.get("type") == "action"]
    assert [m["action"] for m in moves] == [{"type": "draw", "source": "stock"}]
    assert moves[0]["expect_version"] == table.version and moves[0]["ref"]
    assert posts == []
    assert Table.objects.get(pk=table.pk).version == drawn

    # The socket is down: my discard goes by POST, and the page shows its answer.
    page.evaluate("window.__blockSockets = true; window.__sockets.at(-1).close()")
    page.wait_for_selector("#live-status.stale")
    page.click("#hand [data-card] >> nth=0")
    page.click("#actions [data-action='discard']")
    wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {drawn}")
    assert len(posts) == 1
    assert page.inner_text("#action-error") == ""
    shown = int(page.evaluate("document.getElementById('table').dataset.version"))
    assert Table.objects.get(pk=table.pk).version >= shown


def _two_players_and_a_bot(alice: Any, bob: Any) -> tuple[Table, dict[int, Any]]:
    try:
        table = services.table_create(host=alice, seats=3)
        services.table_join(user=bob, table_id=table.pk)
        services.table_fill_with_bots(user=alice, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="browser-log")
        table.refresh_from_db()
        users = {
            s.position: s.user
            for s in Seat.objects.filter(table=table, is_bot=False).select_related("user")
        }
        return table, users
    finally:
        connection.close()


def _play_humans(table_id: int, users: dict[int, Any], count: int) -> Table:
    """``count`` moves by the human seats (the bot policy chooses); the bot answers itself."""
    try:
        for _ in range(count):
            table = Table.objects.get(pk=table_id)
            seat = next(s for s in engine.seats_to_act(table.state) if s in users)
            action = choose_action(table.state, seat)
            submit_as_a_client(
                table_id=table_id, user=users[seat], action=action, expect_version=table.version
            )
        return Table.objects.get(pk=table_id)
    finally:
        connection.close()


def _moves(table_id: int) -> list[Any]:
    try:
        from games.models import Move

        return list(Move.objects.filter(table_id=table_id).order_by("seq"))
    finally:
        connection.close()


def test_two_players_see_each_others_moves_and_the_log_agrees_with_the_moves(
    asgi_server, browser, alice, bob
):
    with ThreadPoolExecutor(1) as pool:
        table, users = pool.submit(_two_players_and_a_bot, alice, bob).result()
        pages = {p: signed_in_page(browser, asgi_server, u) for p, u in users.items()}
        try:
            for page in pages.values():
                page.goto(f"{asgi_server}/tables/{table.pk}/")
                page.wait_for_selector("#live-status.live")
                page.evaluate("window.__sameDocument = true")
            if not page.evaluate(
                "'log' in JSON.parse(document.getElementById('table-payload').textContent)"
            ):
                pytest.skip("the server sends no deltalog yet (h11srv)")
            moved = pool.submit(_play_humans, table.pk, users, 12).result()
            moves = pool.submit(_moves, table.pk).result()
            assert any(m.by_bot for m in moves) and len(moves) >= 12
            names = {p: u.get_username() for p, u in users.items()}
            for seat, page in pages.items():
                wait_for_js(
                    page, f"document.getElementById('table').dataset.version === '{moved.version}'"
                )
                assert page.evaluate("window.__sameDocument") is True
                for m in moves:
                    line = page.locator(f"#log li[data-seq='{m.seq}']")
                    assert line.count() >= 1, (seat, m.seq, m.action)
                    text = " ".join(line.all_inner_texts())
                    if m.seat is not None:
                        who = "You" if m.seat == seat else names.get(m.seat, f"Bot {m.seat + 1}")
                        assert who in text, (seat, m.seq, m.action, text)
                    for e in m.events:
                        # Every discard shows its card, in the line of the move it landed in
                        # (a discard held while a "May I?" window was open lands later).
                        if e["type"] == "discarded":
                            face = e["card"][1:]
                            assert line.locator(f"[data-label='{face}']").count() >= 1, text
            # Each sees the other online (their socket is open), and the bot as a bot.
            for seat, page in pages.items():
                other = next(p for p in pages if p != seat)
                dot = page.locator(f"#players [data-seat='{other}'] .dot")
                assert "online" in dot.get_attribute("class").split(), (seat, other)
                assert page.locator("#players .dot.bot").count() == 1
            # A reload keeps the whole log (from the move log) and the hand's order.
            page = pages[min(pages)]
            order = page.eval_on_selector_all(
                "#hand [data-card]", "els => els.map((e) => e.dataset.card)"
            )
            count = page.locator("#log li").count()
            page.reload()
            page.wait_for_selector("#live-status.live")
            assert page.locator("#log li").count() == count
            assert (
                page.eval_on_selector_all(
                    "#hand [data-card]", "els => els.map((e) => e.dataset.card)"
                )
                == order
            )
        finally:
            for page in pages.values():
                page.context.close()


def test_a_frame_keeps_my_selection_focus_and_drag(watched: Watched) -> None:
    page = watched.page
    cards = page.eval_on_selector_all("#hand [data-card]", "els => els.map((e) => e.dataset.card)")
    first, second = cards[0], cards[1]
    # Mark the nodes: a frame must update them in place, never draw new ones.
    page.evaluate(
        "document.querySelectorAll('#hand [data-card]').forEach((e) => { e.__kept = true; })"
    )
    page.click(f"#hand [data-card='{first}']")
    page.focus(f"#hand [data-card='{first}']")
    moved = watched.play(1)  # another player moves: a frame arrives while my card has focus
    wait_for_js(page, f"document.getElementById('table').dataset.version === '{moved.version}'")
    assert page.evaluate("document.activeElement.dataset.card") == first
    box = page.locator(f"#hand [data-card='{second}']").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 30, box["y"] + 10, steps=4)
    assert "dragging" in page.get_attribute(f"#hand [data-card='{second}']", "class")

    moved = watched.play(2)  # the other players move: frames arrive mid-drag
    wait_for_js(page, f"document.getElementById('table').dataset.version === '{moved.version}'")
    assert page.evaluate(
        "Array.from(document.querySelectorAll('#hand [data-card]')).filter((e) => e.__kept).length"
    ) == len(cards)
    assert page.get_attribute(f"#hand [data-card='{first}']", "aria-pressed") == "true"
    assert "dragging" in page.get_attribute(f"#hand [data-card='{second}']", "class")
    # The drag ends where it was going: the card moves in my order.
    last = page.locator(f"#hand [data-card='{cards[-1]}']").bounding_box()
    page.mouse.move(last["x"] + last["width"] - 2, last["y"] + last["height"] / 2, steps=6)
    page.mouse.up()
    order = page.eval_on_selector_all("#hand [data-card]", "els => els.map((e) => e.dataset.card)")
    assert order.index(second) > order.index(cards[-1]) or order[-1] == second
