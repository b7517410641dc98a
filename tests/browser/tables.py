"""Tables in an exact situation for the browser tests: a started table made through the
services, whose state is then replaced by one built with tests/engine/helpers.make_state
(every card of the decks in exactly one place, the invariants checked)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from django.db import OperationalError, connection

from games import services
from games.models import Seat, Table
from tests.browser.pages import wait_for_js, wait_live
from tests.engine.helpers import make_state

SCREENSHOTS = Path(__file__).parent / "screenshots"


def screenshot(target: Any, path: Path, **options: Any) -> None:
    """``target.screenshot`` (a page or a locator) to ``path``, unless the run takes none
    (``MAYI_TEST_SCREENSHOTS=off``: ./scripts/test's second pass, whose pictures would be the
    first's again)."""
    if os.environ.get("MAYI_TEST_SCREENSHOTS", "").lower() == "off":
        return
    path.parent.mkdir(exist_ok=True)
    target.screenshot(path=str(path), **options)


def submit_as_a_client(**kwargs: Any) -> Any:
    """``services.table_submit_action`` from a test's thread while the page's server reads the
    same table. On the shared in-memory SQLite of the tests a write that meets another thread's
    read fails at once with "database table is locked" (no busy wait there); the site answers
    that 503 ``unavailable`` and a client tries again, as this does."""
    for attempt in range(50):
        try:
            return services.table_submit_action(**kwargs)
        except OperationalError as exc:
            if "locked" not in str(exc) or attempt == 49:
                raise
            connection.close()
            time.sleep(0.05)
    raise AssertionError("unreachable")


AXE = Path(__file__).parent / "vendor" / "axe.min.js"


# Round 1 (2 books), as arranged_table takes it: seat 2 (a bot) drew from the stock and plays;
# the 9Y that seat 1 (a bot) discarded is on offer and only I (seat 0) may still answer. Once I
# say "May I?" the bot ends its turn and it is my turn to draw (the 3A, the 7I is the penalty).
OFFER: dict[str, Any] = {
    "hands": {0: "7M 7A 7Y 9M 9A 9I"},
    "discard": "9Y",
    "stock": "7I 3A",
    "active": 2,
    "phase": "play",
    "discarder": 1,
    "window": {"eligible": [0]},
    "hand_size": 7,
}


# For arranged_table: round 3 at a table of four, two others are down, my turn to draw.
MID_GAME: dict[str, Any] = {
    "round": 3,
    "hands": {0: "3M 4M 5M 6M 9Y 9A 11M 11A 11Y 2I ?"},
    "melds": {1: "2Y 3Y 4Y 5Y | 8M 9M 10M 11M", 2: "6A 7A 8A 9A 10A | 10I 11I 12I 13I"},
    "discard": "6Y",
    "active": 0,
    "phase": "draw",
    "hand_size": 4,
}


def arranged_table(
    host: Any,
    *,
    seats: int = 3,
    others: list[Any] | None = None,
    ruleset: str = "bga",
    **state: Any,
) -> tuple[int, int]:
    """A started table (bga unless ``ruleset`` says) of ``host``, ``others`` and bots, its
    state replaced by ``make_state(**state)`` where hands and seats are given relative to the
    host: ``me`` in the keyword values is replaced by the host's position. Returns (table id,
    host's seat)."""
    try:
        table = services.table_create(host=host, seats=seats, ruleset=ruleset)
        for user in others or []:
            services.table_join(user=user, table_id=table.pk)
        if len(others or []) + 1 < seats:
            services.table_fill_with_bots(user=host, table_id=table.pk)
        services.table_start(user=host, table_id=table.pk, seed="browser-arranged")
        table.refresh_from_db()
        me = Seat.objects.get(table=table, user=host).position
        st = make_state(players=seats, ruleset=ruleset, **_relative(state, me, seats))
        Table.objects.filter(pk=table.pk).update(state=st, version=table.version + 1)
        return table.pk, me
    finally:
        connection.close()


def _relative(state: dict[str, Any], me: int, n: int) -> dict[str, Any]:
    """Seat numbers in ``state`` are counted from the host (0 = the host, 1 = the next seat)."""
    out = dict(state)
    seat = lambda k: (me + k) % n  # noqa: E731
    if "hands" in out:
        out["hands"] = {seat(k): v for k, v in out["hands"].items()}
    for key in ("active", "discarder", "dealer"):
        if key in out and out[key] is not None:
            out[key] = seat(out[key])
    if "window" in out:
        out["window"] = {**out["window"], "eligible": [seat(k) for k in out["window"]["eligible"]]}
    if "melds" in out and isinstance(out["melds"], dict):
        out["melds"] = {seat(k): v for k, v in out["melds"].items()}
    return out


# Every animation of a card (a flight, a ghost to a seat) has ended; the halo breathing on a
# pile I may draw from (table.css, "pulse") does not count.
_LANDED = """document.getAnimations().every(
    (a) => a.playState !== "running" || a.animationName === "pulse")"""


def shoot(page: Any, name: str) -> Path:
    """A screenshot in tests/browser/screenshots/ (git-ignored), named by the viewport width,
    once the cards in flight have landed: the picture shows the table as a player reads it, not
    a laid-off card halfway between the hand and its meld; and, on a table's page, once its
    socket is up (the page says "live"), as a player sees it whose connection works."""
    wait_for_js(page, _LANDED, timeout=5000)
    wait_live(page)
    width = page.viewport_size["width"] if page.viewport_size else 0
    path = SCREENSHOTS / f"{name}-{width}.png"
    screenshot(page, path, full_page=False)
    return path


def serious_violations(page: Any) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now."""
    # Evaluated over the DevTools protocol: the page's Content-Security-Policy refuses a script
    # tag with inline content, as it should.
    page.evaluate(AXE.read_text())
    found = page.evaluate(
        """async () => {
          const r = await axe.run(document, { resultTypes: ["violations"] });
          return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
        }"""
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"


def open_reliability_tip(page: Any, badge: Any, tip: Any, size: str) -> str:
    """A reliability badge's counts, opened as a player would (a tap on a phone, hover
    elsewhere): hidden before, shown after, wholly on the screen. Returns the tip's text."""
    assert not tip.is_visible()
    if size == "phone":
        badge.tap()
    else:
        badge.hover()
    assert tip.is_visible()
    box, view = tip.bounding_box(), page.viewport_size
    assert box is not None and view is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"]
    return str(tip.inner_text())
