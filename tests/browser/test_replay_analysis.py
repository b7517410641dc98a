"""A finished game's analysis in its replay (issue 33), in a real browser at both sizes: each
weighed decision marked under its move in the log (its sign and word, the best choice beside
when it was not), the summary per player, the chart of the round, the words read aloud as the
replay steps; and no serious axe-core fault."""

from __future__ import annotations

import pytest
from django.db import connection

from analysis import run
from analysis.models import Decision
from tests.browser.pages import signed_in_page, wait_for_js
from tests.browser.tables import no_sideways_scroll, serious_violations, shoot
from tests.site.stats_play import play_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": (1280, 800), "phone": (375, 812)}
READY = (
    "document.getElementById('replay-app').dataset.ready === '1'"
    " && document.getElementById('replay-app').dataset.analysisStatus === 'ready'"
)


def test_the_replay_marks_each_decision_and_draws_the_round(live_server, browser, alice, settings):
    # The engine's own rollouts, one sample a decision (the costs then vary: every label shows)
    # for the game's first rounds; nothing queued by default.
    settings.MAYI_ANALYSIS_AUTO_QUEUE = 0
    settings.MAYI_ANALYSIS_SAMPLES = 1
    settings.MAYI_ANALYSIS_BUDGET_SECONDS = 1.5
    settings.MAYI_ANALYSIS_SLICE_SECONDS = 60
    try:
        table = play_game(alice, [], bots=2, seed="browser-analysis")
        assert run.analysis_run_slice(table_id=table.pk) == "ready"
        decisions = list(Decision.objects.filter(analysis_id=table.pk).order_by("seq"))
    finally:
        connection.close()
    wrong = next(d for d in decisions if d.label != "best")
    right = next(d for d in decisions if d.label == "best")
    for width, height in SIZES.values():
        page = signed_in_page(
            browser, live_server.url, alice, viewport={"width": width, "height": height}
        )
        try:
            page.goto(f"{live_server.url}/tables/{table.pk}/replay/?move={wrong.seq}")
            wait_for_js(page, READY)
            # The move shown is a mistake of alice's: marked in the log, its best beside.
            mark = page.locator(f"#replay-log li[data-seq='{wrong.seq}'] .am-line")
            assert mark.count() == 1
            text = mark.inner_text()
            assert wrong.label in text and "best:" in text and f"{wrong.cost:.1f} point" in text
            assert f"Analysis: {wrong.label}" in page.inner_text("#replay-now")
            assert wrong.label in page.inner_text("#analysis-here")
            # Every weighed move in the log has its mark, and only those.
            shown = {
                int(s)
                for s in page.locator("#replay-log li:has(.am-line)").evaluate_all(
                    "els => els.map((e) => e.dataset.seq)"
                )
            }
            logged = {
                int(s)
                for s in page.locator("#replay-log li").evaluate_all(
                    "els => els.map((e) => e.dataset.seq)"
                )
            }
            assert shown == logged & {d.seq for d in decisions}
            # The summary counts alice's decisions; the chart draws her round.
            summary = page.inner_text("#analysis-summary")
            assert f"alice: {len(decisions)} decisions weighed" in summary
            assert page.locator("#analysis-chart circle").count() == sum(
                1 for d in decisions if d.round_no == wrong.round_no
            )
            assert serious_violations(page) == []
            no_sideways_scroll(page)
            page.locator("#replay-analysis").scroll_into_view_if_needed()
            shoot(page, "replay-analysis")
            page.goto(f"{live_server.url}/tables/{table.pk}/replay/?move={right.seq}")
            wait_for_js(page, READY)
            best = page.inner_text(f"#replay-log li[data-seq='{right.seq}'] .am-line")
            assert "best" in best and "best:" not in best
            shoot(page, "replay-analysis-log")
        finally:
            page.context.close()
