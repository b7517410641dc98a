"""The statistics page, the leaderboard and a replay in a real browser, on a desktop and a
phone screen; screenshots go to tests/browser/screenshots/ (git-ignored) to be looked at."""

from __future__ import annotations

import pytest

from tests.browser.pages import wait_for_js
from tests.browser.tables import SCREENSHOTS, screenshot
from tests.site.stats_helpers import finished_game, rounds
from tests.site.stats_play import play_game

from .pages import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": (1280, 800), "phone": (375, 812)}


def shoot(page, name: str, parts: tuple[str, ...] = ()) -> None:
    """Whole-page screenshots at both sizes, and on the phone each of ``parts`` on its own
    (a whole long page shrinks too much to be looked at)."""
    for label, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        screenshot(page, SCREENSHOTS / f"{name}-{label}.png", full_page=True)
        if label == "phone":
            for part in parts:
                screenshot(
                    page.locator(part), SCREENSHOTS / f"{name}-{label}-{part.lstrip('#')}.png"
                )
        # Nothing wider than the screen: the page scrolls down, never sideways.
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{name} at {label} is {overflow}px too wide"


def some_games(alice, bob, carol) -> None:
    for k in range(8):
        third = carol if k % 3 else None
        scores = [(k * 7 + r * 3) % 40 for r in range(7)]
        finished_game(
            [alice, bob, third],
            [
                rounds(
                    scores,
                    down_turn=[1 + (k + r) % 4 if (k + r) % 5 else None for r in range(7)],
                    windows=3,
                    calls=1,
                    buys=[1 if r == k % 7 else 0 for r in range(7)],
                    bought_used=[1 if r == k % 7 and k % 2 else 0 for r in range(7)],
                    draws_pile=1,
                    draws_stock=3,
                    turns=4,
                    lay_offs=1,
                    clock_seconds=300.0,
                    think_seconds=[[20.0 + k], [], [], [], [], [], []],
                ),
                rounds([(k * 5 + r * 11) % 45 for r in range(7)]),
                rounds([(k * 3 + r * 13) % 50 for r in range(7)]),
            ],
            ruleset="petras" if k == 5 else "bga",
            # One game alice's clock ran out on: its line says so, and still fits a phone.
            expelled=(0,) if k == 6 else (),
        )


def test_statistics_page_and_leaderboard(live_server, browser, alice, bob, carol, settings):
    settings.MAYI_LEADERBOARD_MIN_GAMES = 2
    some_games(alice, bob, carol)
    page = signed_in_page(browser, live_server.url, bob)
    page.goto(f"{live_server.url}/players/alice/")
    assert page.inner_text("#games-finished") == "8"
    assert page.locator("svg.chart").count() >= 4
    shoot(
        page, "stats", ("header", "#ratings", "#summary", "#places", "#rounds", "#mayi", "#history")
    )
    # On a phone the finished games fit their box: no sideways scrolling to see a game's rating.
    page.set_viewport_size({"width": 375, "height": 812})
    inner = page.evaluate(
        "(() => { const box = document.querySelector('#history .scroll');"
        " return box.scrollWidth - box.clientWidth; })()"
    )
    assert inner <= 1, f"the finished games scroll {inner}px sideways on a phone"
    page.goto(f"{live_server.url}/leaderboard/")
    assert page.locator("#leaderboard tr").count() == 4  # the header, alice, bob, carol
    shoot(page, "leaderboard")


@pytest.mark.layout
def test_a_long_name_keeps_the_leaderboard_on_a_phone_screen(
    live_server, browser, alice, django_user_model, settings
):
    # A 40-letter name stayed on one line: the leaderboard was 528 px wide on a 375 px phone.
    settings.MAYI_LEADERBOARD_MIN_GAMES = 1
    long = django_user_model.objects.create_user("a_rather_long_username_of_forty_letters", "")
    finished_game([alice, long], [rounds([5] * 7), rounds([9] * 7)])
    page = signed_in_page(browser, live_server.url, alice)
    page.goto(f"{live_server.url}/leaderboard/")
    assert page.locator("#leaderboard tr").count() == 3
    shoot(page, "leaderboard-long-name")


def test_a_replay_steps_with_the_keyboard(live_server, browser, alice, bob):
    table = play_game(alice, [bob], bots=1, seed="browser-replay")
    page = signed_in_page(browser, live_server.url, alice)
    page.goto(f"{live_server.url}/tables/{table.pk}/replay/?move=5")
    assert "move 5 of" in page.inner_text("#replay-position")
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**move=6")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**move=5")
    page.keyboard.press("PageDown")
    wait_for_js(page, "document.getElementById('replay-position').textContent.includes('Round 2')")
    wait_for_js(page, "document.getElementById('browser-check').className === 'ok'")
    shoot(page, "replay", ("#replay-nav", "#replay-hands", "#replay-table", "#replay-verify"))
