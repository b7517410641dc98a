"""Plays of the game page beyond the whole round of test_table_page.py: the melds a selected
card may go on marked (and the others not), a wild laid off at the end of a run where it is
dropped, a MAYI meld from the selection, and round 7's pass with a last card that fits nowhere."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from tests.browser.pages import signed_in_page, wait_for_js
from tests.browser.tables import arranged_table, shoot
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]

# Round 2 (a book and a run): I am down with 5s and 6I-9I, the next seat with 12s and 2A-5A;
# I drew and play.
DOWN = {
    "round": 2,
    "hands": {0: "6A 11Y ? 8M 8A 8Y 8I 3M"},
    "melds": {0: "5M 5A 5Y | 6I 7I 8I 9I", 1: "12M 12A 12Y | 2A 3A 4A 5A"},
    "active": 0,
    "phase": "play",
}


def _open(browser: Any, url: str, user: Any, table_id: int) -> Any:
    page = signed_in_page(browser, url, user)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{url}/tables/{table_id}/")
    page.wait_for_selector("#hand [data-card]")
    return page


def _version(page: Any) -> int:
    return int(page.get_attribute("#table", "data-version"))


def _moved(page: Any, version: int) -> None:
    wait_for_js(page, f"Number(document.getElementById('table').dataset.version) > {version}")


def _meld(page: Any, face: str) -> Any:
    return page.locator("#melds [data-meld]", has=page.locator(f"[data-label='{face}']"))


def _marks(page: Any) -> dict[str, str]:
    """Each meld's first card, and whether it is marked a target, not one, or neither."""
    return {
        m["first"]: m["mark"]
        for m in page.eval_on_selector_all(
            "#melds [data-meld]",
            """els => els.map((e) => ({ first: e.querySelector('[data-label]').dataset.label,
              mark: e.classList.contains('target') ? 'target'
                : e.classList.contains('not-target') ? 'not' : '' }))""",
        )
    }


def _labels(locator: Any) -> list[str]:
    return locator.locator("[data-label]").evaluate_all("els => els.map((e) => e.dataset.label)")


def test_targets_a_wild_at_the_end_dropped_on_and_a_mayi_meld(live_server, browser, alice, pool):
    table_id, _ = pool.submit(arranged_table, alice, **DOWN).result()
    page = _open(browser, live_server.url, alice, table_id)
    try:
        # 6A goes on the next seat's run only; 11Y on nothing.
        page.click("#hand [data-card='w6A']")
        wait_for_js(page, "document.querySelector('#melds .meld.target')")
        assert _marks(page) == {"5M": "not", "6I": "not", "12M": "not", "2A": "target"}
        # The valid target is green.
        green = page.eval_on_selector(
            "#melds .meld.target", "e => getComputedStyle(e).outlineColor"
        )
        assert green.startswith("rgb(") and green != "rgb(0, 0, 0)"
        page.click("#hand [data-card='w6A']")
        page.click("#hand [data-card='w11Y']")
        wait_for_js(page, "document.querySelectorAll('#melds .meld.not-target').length === 4")
        page.click("#hand [data-card='w11Y']")

        # The wild fits both ends of my run: a click on its left half lays it at the low end.
        page.click("#hand [data-card='w?']")
        run = _meld(page, "6I")
        page.wait_for_selector("#melds .meld-end.low")
        run.scroll_into_view_if_needed()
        box = run.bounding_box()
        version = _version(page)
        page.mouse.click(box["x"] + box["width"] * 0.2, box["y"] + box["height"] / 2)

        _moved(page, version)
        run = _meld(page, "6I")
        assert _labels(run) == ["?", "6I", "7I", "8I", "9I"]
        assert run.locator(".pc-stands").get_attribute("data-t") == "=5"

        # Four 8s, one of each letter: a MAYI meld.
        for face in ("8M", "8A", "8Y", "8I"):
            page.click(f"#hand [data-card='w{face}']")
        version = _version(page)
        page.click("#actions [data-action='mayi_meld']")
        _moved(page, version)
        mayi = page.locator("#melds .meld-mayi")
        assert mayi.count() == 1 and sorted(_labels(mayi)) == ["8A", "8I", "8M", "8Y"]
        assert "alice" in mayi.get_attribute("aria-label")
        hand = page.eval_on_selector_all(
            "#hand [data-card]", "els => els.map((e) => e.dataset.card)"
        )
        assert not {"w8M", "w8A", "w8Y", "w8I"} & set(hand)
        shoot(page, "plays-mayi")
    finally:
        page.context.close()


# Round 7 (3 runs, no final discard): I am down, and my last card fits no meld: I pass.
PASS = {
    "round": 7,
    "hands": {0: "13Y"},
    "melds": {0: "1M 2M 3M 4M | 1A 2A 3A 4A | 5I 6I 7I 8I"},
    "active": 0,
    "phase": "play",
    "hand_size": 12,
}


def test_round_seven_pass_with_a_last_card_that_fits_nowhere(live_server, browser, alice, pool):
    table_id, me = pool.submit(arranged_table, alice, **PASS).result()
    page = _open(browser, live_server.url, alice, table_id)
    try:
        assert page.inner_text("#turn-text") == "Lay off or pass"
        version = _version(page)
        page.click("#actions [data-action='pass']")
        _moved(page, version)
        table = Table.objects.get(pk=table_id)
        # My turn ended with the pass, the card kept (the bots may have played round to me since).
        mine = table.moves.filter(seat=me).order_by("seq").last()
        assert table.state["hands"][me] == ["w13Y"] and mine.action == {"type": "pass"}
        assert page.locator("#actions [data-action='pass']").count() == 0
        assert page.inner_text("#log").count("passed") >= 1
    finally:
        page.context.close()
