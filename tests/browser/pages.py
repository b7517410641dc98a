"""Helpers for the browser tests: a page signed in as a given user."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from tests.live.wsutil import session_for


def signed_in_page(browser: Any, url: str, user: Any) -> Any:
    """A new browser context and page carrying ``user``'s session cookie for ``url``."""
    context = browser.new_context()
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session_for(user), "url": url}]
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    return page
