"""Helpers for the browser tests: a page signed in as a given user."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings

from tests.live.wsutil import session_for


def signed_in_page(browser: Any, url: str, user: Any, **context_options: Any) -> Any:
    """A new browser context and page carrying ``user``'s session cookie for ``url``
    (``context_options``: Playwright's, e.g. a phone's viewport, touch and is_mobile)."""
    context = browser.new_context(**context_options)
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session_for(user), "url": url}]
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def _what_the_page_shows(page: Any) -> str:
    """The table page's error line, turn text and version, for a failed wait's message."""
    try:
        return str(
            page.evaluate(
                """() => ["action-error", "turn-text", "status-bar", "live-status"]
                  .map((id) => `${id}: ${(document.getElementById(id) || {}).textContent}`)
                  .concat([`version: ${(document.getElementById("table") || {dataset: {}})
                    .dataset.version}`]).join(" | ")"""
            )
        )
    except Exception as exc:  # a diagnostic only: never hide the timeout behind it
        return f"(unreadable: {exc})"


def wait_for_js(
    page: Any, expression: str, *, arg: Any = None, timeout: float = 15000, poll: float = 50
) -> Any:
    """Wait until ``expression`` (a JS expression, or a function of ``arg``) is truthy.

    Playwright's ``wait_for_function`` polls with ``eval`` inside the page, which the site's
    Content-Security-Policy (no 'unsafe-eval') refuses; ``page.evaluate`` goes through the
    DevTools protocol, which the policy does not cover, so the tests keep the real policy on.
    """
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            value = page.evaluate(expression) if arg is None else page.evaluate(expression, arg)
        except PlaywrightError as exc:
            # A navigation under way destroys the page's context: ask again on the new page.
            if "context was destroyed" not in str(exc) or time.monotonic() > deadline:
                raise
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out after {timeout} ms waiting for: {expression}; "
                f"the page shows: {_what_the_page_shows(page)}"
            )
        page.wait_for_timeout(poll)


def wait_live(page: Any, timeout: float = 15000) -> None:
    """On a table's page, wait until its socket is up and its first frame applied (the status
    says "live"): the socket's opening records the version the player has seen, and what the
    page shows is then pushed to it. Other pages, and a table page whose socket the server
    refused (the status says why), return at once."""
    wait_for_js(
        page,
        """() => { const s = document.getElementById("live-status");
                   return !s || s.classList.contains("live")
                     || (s.classList.contains("stale") && !/reconnecting/.test(s.textContent)); }""",
        timeout=timeout,
    )
