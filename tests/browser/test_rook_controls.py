"""The rook controls of the live table page: swapping a wild off the table for the natural card
it stands for, and choosing round 7's contract (three runs or four books) when the table lets
the player choose.

Each test starts a two-seat rook table through the services, then writes a prepared engine
state into the row (every card of the decks still in exactly one place), signs alice in and
clicks the control. The page is served by daphne (tests/browser/conftest.py's ``live_server``):
the socket is live, and what these tests look at is what the page shows after each POST.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games import engine, services
from games.engine.invariants import check_invariants
from games.models import Seat, Table
from tests.browser.pages import signed_in_page, wait_for_js
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]


def _arranged(
    alice: Any, bob: Any, *, hands: dict[str, list[str]], melds: list[dict], **fields: Any
) -> tuple[int, int]:
    """A started rook table whose state is rearranged: alice to play (phase "play"), the given
    hands ("alice", "bob") and melds, the rest of the cards in the stock but one discard.
    Returns (table id, alice's seat)."""
    try:
        table = services.table_create(host=alice, ruleset="rook", seats=2)
        services.table_join(user=bob, table_id=table.pk)
        services.table_start(user=alice, table_id=table.pk, seed="rook-controls")
        table.refresh_from_db()
        seats = {s.user_id: s.position for s in Seat.objects.filter(table=table)}
        me, other = seats[alice.pk], seats[bob.pk]
        st = table.state
        pool = [c for h in st["hands"] for c in h] + st["stock"] + st["discard"]
        pool += [c for m in st["melds"] for c in m["cards"]]
        hand_of = {me: hands["alice"], other: hands["bob"]}
        for card in [c for h in hand_of.values() for c in h] + [
            c for m in melds for c in m["cards"]
        ]:
            pool.remove(card)
        st.update(
            hands=[hand_of[0], hand_of[1]],
            melds=[dict(m, owner=me if m["owner"] == "alice" else other) for m in melds],
            next_meld=len(melds) + 1,
            discard=[pool.pop()],
            discard_from=[other],
            stock=pool,
            active=me,
            phase="play",
            window=None,
            held=None,
            early=[None, None],
            calls=[],
        )
        st.update({"laid_down_this_turn": False, **fields})
        st.pop("swapped", None)
        assert not check_invariants(st), check_invariants(st)
        Table.objects.filter(pk=table.pk).update(state=st, version=table.version + 1)
        return table.pk, me
    finally:
        connection.close()


def _labels(page: Any, selector: str) -> list[str]:
    """The faces the cards under ``selector`` show ("5G", "Rook"), as the engine writes them."""
    return page.eval_on_selector_all(
        f"{selector} [data-label]", "els => els.map((e) => e.dataset.label)"
    )


def _version(page: Any) -> int:
    return int(page.evaluate("document.getElementById('table').dataset.version"))


# Both down; bob's book of 5s holds the Rook, and alice holds the red 5 it stands for.
SWAP_TABLE: dict[str, Any] = {
    "hands": {"alice": ["y5R", "x3K", "x11G"], "bob": ["x2R", "x2G", "x13Y", "y13Y"]},
    "melds": [
        {"id": "m1", "kind": "book", "owner": "bob", "cards": ["x5G", "x5Y", "x*"], "rank": 5},
        {"id": "m2", "kind": "book", "owner": "bob", "cards": ["x9R", "x9G", "y9Y"], "rank": 9},
    ],
    "down": [True, True],
}


def test_swap_a_wild_off_a_meld_then_lay_it_off(live_server, browser, alice, bob, pool):
    table_id, me = pool.submit(
        _arranged,
        alice,
        bob,
        **SWAP_TABLE,
    ).result()
    before = Table.objects.get(pk=table_id)
    offered = engine.legal_actions(before.state, me)
    assert {"type": "swap_wild", "meld": "m1", "card": "y5R"} in offered

    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#hand [data-card='y5R']")
        swaps = page.locator("#swaps button")
        # One offer: the 5 is what the Rook on the book of 5s stands for; nothing else fits.
        assert swaps.count() == 1
        assert swaps.inner_text() == "Swap 5R for the Rook in bob's book"
        assert page.get_attribute("#melds [data-meld='m1'] .pc-wild", "data-label") == "Rook"

        swaps.click()
        wait_for_js(
            page, f"document.getElementById('table').dataset.version === '{before.version + 1}'"
        )
        # The Rook is back in the hand, the book shows the natural 5, the offer is gone.
        assert _labels(page, "#hand [data-card='x*']") == ["Rook"]
        assert page.locator("#hand [data-card='y5R']").count() == 0
        assert _labels(page, "#melds [data-meld='m1']") == ["5G", "5Y", "5R"]
        assert page.locator("#swaps").count() == 0
        assert page.inner_text("#action-error") == ""
        assert "Play the Rook you took off the table" in page.inner_text("#hint")
        after = Table.objects.get(pk=table_id)
        assert after.version == before.version + 1 == _version(page)
        assert "x*" in after.state["hands"][me]
        assert after.state["melds"][0]["cards"] == ["x5G", "x5Y", "y5R"]

        # The wild must be played this turn: lay it off on the book of 9s.
        page.click("#hand [data-card='x*']")
        page.click("#melds [data-meld='m2']")
        wait_for_js(
            page, f"document.getElementById('table').dataset.version === '{before.version + 2}'"
        )
        assert page.locator("#hand [data-card='x*']").count() == 0
        assert "Rook" in _labels(page, "#melds [data-meld='m2']")
        assert "Play the Rook" not in page.inner_text("#hint")
    finally:
        page.context.close()


def test_no_swap_is_offered_that_the_engine_would_refuse(live_server, browser, alice, bob, pool):
    # alice laid down this turn: in rook the Rook she would take could not be laid off before
    # her turn ends, so the engine refuses; the page, offering view.swaps, shows no button
    # (a shape check alone would offer 5R for the Rook in bob's book).
    table_id, me = pool.submit(
        _arranged,
        alice,
        bob,
        **SWAP_TABLE,
        laid_down_this_turn=True,
    ).result()
    before = Table.objects.get(pk=table_id)
    assert not [a for a in engine.legal_actions(before.state, me) if a["type"] == "swap_wild"]

    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#hand [data-card='y5R']")
        page.wait_for_selector("#actions button")  # her controls are drawn
        assert page.locator("#swaps button").count() == 0
        assert _version(page) == before.version == Table.objects.get(pk=table_id).version
    finally:
        page.context.close()


ROUND7_HAND = [
    *("x3R", "x3G", "x3Y"),
    *("x6R", "x6G", "x6K"),
    *("x8R", "x8Y", "y8R"),
    *("x12G", "x12K", "y12G"),
    "x2R",
]


def _round7(alice: Any, bob: Any, choice: str) -> tuple[int, int]:
    return _arranged(
        alice,
        bob,
        hands={"alice": ROUND7_HAND, "bob": ["x2G", "x13Y", "y13Y", "x1K"]},
        melds=[],
        down=[False, False],
        round=7,
        options={"round7": choice},
    )


def _shows_error(page: Any, text: str) -> None:
    wait_for_js(
        page, "text => document.getElementById('action-error').textContent.includes(text)", arg=text
    )


def test_round_seven_choose_four_books(live_server, browser, alice, bob, pool):
    table_id, me = pool.submit(_round7, alice, bob, "choice").result()
    before = Table.objects.get(pk=table_id)

    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#contract-choice")
        assert "Round 7: choose your contract" in page.inner_text("#contract-choice")
        choice = page.locator("#contract-choice button")
        assert choice.all_inner_texts() == [
            "Lay down as 3 runs",
            "Lay down as 4 books",
        ]
        assert page.locator("#actions button", has_text="Lay down as").count() == 2
        assert page.locator("#swaps").count() == 0

        # Two numbers are no four books: the engine says so and nothing changes.
        for card in ROUND7_HAND[:3] + ROUND7_HAND[-1:]:
            page.click(f"#hand [data-card='{card}']")
        page.click("text=Lay down as 4 books")
        _shows_error(page, "round 7 needs 4 books")
        assert "x3R" not in page.inner_text("#action-error")  # faces, never card ids
        assert _version(page) == before.version
        page.click(f"#hand [data-card='{ROUND7_HAND[-1]}']")  # unselect the 2

        for card in ROUND7_HAND[3:-1]:
            page.click(f"#hand [data-card='{card}']")
        # Four books are no three runs: the engine says so rather than lay down books.
        page.click("text=Lay down as 3 runs")
        _shows_error(page, "not 3 runs")
        assert _version(page) == before.version
        page.click("text=Lay down as 4 books")
        wait_for_js(
            page, f"document.getElementById('table').dataset.version === '{before.version + 1}'"
        )
        assert page.locator("#melds .meld").count() == 4
        assert page.locator("#melds .meld-label").all_inner_texts() == ["book · alice"] * 4
        assert _labels(page, "#hand") == ["2R"]
        assert page.locator("#contract-choice").count() == 0
        assert page.inner_text("#action-error") == ""
        after = Table.objects.get(pk=table_id)
        assert after.version == before.version + 1
        assert after.state["down"][me] is True
        assert sorted(m["rank"] for m in after.state["melds"]) == [3, 6, 8, 12]
    finally:
        page.context.close()


def test_round_seven_without_a_choice_shows_the_plain_lay_down(
    live_server, browser, alice, bob, pool
):
    table_id, _ = pool.submit(_round7, alice, bob, "books").result()
    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#actions button")
        assert page.locator("#contract-choice").count() == 0
        assert page.locator("#actions button", has_text="Lay down").all_inner_texts() == [
            "Lay down contract"
        ]
    finally:
        page.context.close()


def test_round_seven_choose_three_runs_with_a_wild(live_server, browser, alice, bob, pool):
    runs = ["x3R", "x4R", "x*", "x6R", "x9G", "x10G", "x11G", "x12G", "x1K", "x2K", "x3K", "x4K"]
    table_id, me = pool.submit(
        _arranged,
        alice,
        bob,
        hands={"alice": [*runs, "y13Y"], "bob": ["x2G", "x13Y", "y1K", "x1G"]},
        melds=[],
        down=[False, False],
        round=7,
        options={"round7": "choice"},
    ).result()
    before = Table.objects.get(pk=table_id)
    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#contract-choice")
        for card in runs:
            page.click(f"#hand [data-card='{card}']")
        page.click("text=Lay down as 4 books")
        _shows_error(page, "not 4 books")
        page.click("text=Lay down as 3 runs")
        wait_for_js(
            page, f"document.getElementById('table').dataset.version === '{before.version + 1}'"
        )
        assert page.locator("#melds .meld-label").all_inner_texts() == ["run · alice"] * 3
        assert _labels(page, "#hand") == ["13Y"]
        # The Rook stands for the red 5, between the 4 and the 6, and says so.
        red = page.locator("#melds .meld", has=page.locator("[data-label='3R']"))
        assert red.locator("[data-label]").evaluate_all(
            "els => els.map((e) => e.dataset.label)"
        ) == [
            "3R",
            "4R",
            "Rook",
            "6R",
        ]
        assert red.locator(".pc-stands").get_attribute("data-t") == "=5"
        assert page.inner_text("#action-error") == ""
        after = Table.objects.get(pk=table_id)
        assert after.version == before.version + 1 and after.state["down"][me] is True
    finally:
        page.context.close()
