"""The tournaments' pages in a real browser at 1280x800 and 375x812: the standings (rank,
player, score, points, duplicate, games, the tie-break), each round's tables with links, the
list of tournaments and the same deal side by side; no serious axe-core fault, nothing wider
than the screen. Screenshots go to tests/browser/screenshots/ to be looked at."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.browser.tables import SCREENSHOTS, screenshot, serious_violations
from tournaments.models import Round, RoundTable
from tournaments.services import (
    tournament_create,
    tournament_join,
    tournament_start,
    tournaments_tick,
)

from .pages import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": (1280, 800), "phone": (375, 812)}
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan_the_long_name"]


def look(page: Any, name: str) -> None:
    for label, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        screenshot(page, SCREENSHOTS / f"{name}-{label}.png", full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{name} at {label} is {overflow}px too wide"
        bad = serious_violations(page)
        assert not bad, f"{name} at {label}: {bad}"


def two_rounds_in(django_user_model: Any) -> tuple[Any, list[Any]]:
    users = [django_user_model.objects.create_user(n, f"{n}@example.com", "pw") for n in NAMES]
    tournament = tournament_create(
        creator=users[0],
        name="Winter Duplicate Cup",
        table_size=3,
        rounds=3,
        turn_seconds=3600,
        window_seconds=600,
    )
    for user in users[1:]:
        tournament_join(user=user, tournament_id=tournament.pk)
    tournament_start(user=users[0], tournament_id=tournament.pk)
    first = Round.objects.get(tournament=tournament, number=1)
    tournaments_tick(now=first.deadline + timedelta(seconds=1))
    tournament.refresh_from_db()
    return tournament, users


def test_standings_page_at_both_sizes(live_server, browser, django_user_model):
    tournament, users = two_rounds_in(django_user_model)
    assert tournament.round == 2
    page = signed_in_page(browser, live_server.url, users[1])
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 9
    first = rows.nth(0).inner_text()
    assert first.split()[0] == "1"
    headers = page.locator("#standings thead th").all_inner_texts()
    assert headers[:6] == ["#", "Player", "Score", "Points", "Duplicate", "Games"]
    # Round 2's tables link to their games; round 1's show each seat's result.
    for rt in RoundTable.objects.filter(round__tournament=tournament):
        assert page.locator(f'a[href="/tables/{rt.table_id}/"]').count() == 1
    assert page.locator(".round").count() == 2
    assert "The same deal at other tables" in page.inner_text("body")
    assert page.locator(".round-table.mine").count() == 2  # bob's table of each round
    look(page, "tournament-standings")
    # The list of tournaments and the deal side by side, at both sizes too.
    page.goto(f"{live_server.url}/tournaments/")
    assert "Winter Duplicate Cup" in page.inner_text("#tournaments-playing")
    look(page, "tournaments-list")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/deal/3/?round=1&step=4")
    assert page.locator(".deal-pane").count() == 3
    assert page.locator(".deal-pane .refused").count() == 0
    look(page, "tournament-deal")
