"""My data in a browser: from the profile, prepare a download, download the zip, then delete
the account with the password (issue 30), at a laptop's and a phone's size."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from django.contrib.auth.models import User

from games.services import enqueue
from privacy import tasks as privacy_tasks
from tests.browser.pages import signed_in_page
from tests.browser.tables import no_sideways_scroll, serious_violations, shoot
from tests.conftest import PASSWORD
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]

SIZES = {"desktop": (1280, 800), "phone": (375, 812)}


@pytest.fixture
def worker_at_once(monkeypatch: Any) -> None:
    """The export's task runs as its commit queues it (in the server's thread), as a worker
    would a moment later."""

    def send_task(name: str, args: tuple, **options: Any) -> None:
        if name.startswith("privacy."):
            getattr(privacy_tasks, name.rsplit(".", 1)[1])(*args)

    monkeypatch.setattr(enqueue, "send_task", send_task)


@pytest.mark.parametrize("size", SIZES)
def test_download_my_data_then_delete_my_account(live_server, browser, alice, worker_at_once, size):
    width, height = SIZES[size]
    url = live_server.url
    page = signed_in_page(browser, url, alice)
    page.set_viewport_size({"width": width, "height": height})
    try:
        page.goto(f"{url}/accounts/profile/")
        page.click("#my-data-link")
        page.wait_for_selector("#export-button")
        assert "moderation record" in page.inner_text("#delete-account")
        no_sideways_scroll(page)
        # The page's own content (the header is every page's: tests/browser/test_site_tour.py).
        mine = [
            v
            for v in serious_violations(page)
            if any(page.locator(f"main {n}").count() for n in v["nodes"])
        ]
        assert not mine, mine
        shoot(page, f"my-data-{size}")

        page.click("#export-button")
        link = page.wait_for_selector("text=Download the zip")
        shoot(page, f"my-data-ready-{size}")
        with page.expect_download() as info:
            link.click()
        with zipfile.ZipFile(io.BytesIO(open(info.value.path(), "rb").read())) as archive:
            names = set(archive.namelist())
            assert {"profile.json", "games.json", "chat.json"} <= names
            assert b'"alice"' in archive.read("profile.json")

        page.fill("#delete-password", "not my password")
        page.click("#delete-button")
        page.wait_for_selector("text=nothing was deleted")
        assert User.objects.get(pk=alice.pk).username == "alice"

        page.fill("#delete-password", PASSWORD)
        page.click("#delete-button")
        page.wait_for_selector("h1:has-text('Your account is deleted')")
        no_sideways_scroll(page)
        shoot(page, f"my-data-deleted-{size}")
        assert User.objects.get(pk=alice.pk).username == f"deleted-{alice.pk}"
        page.goto(f"{url}/players/alice/")
        assert "Not here" in page.inner_text("h1") or page.title().startswith("Not")
        page.goto(f"{url}/accounts/profile/")
        assert "/accounts/login/" in page.url  # signed out
    finally:
        page.context.close()
