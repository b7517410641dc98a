"""What happens when a member signs in, for moderation: the keyed traces of their address and
browser (linked accounts), and the moderators' messages they have not read yet, shown on the
page they land on (a chat mute's message: a suspended member cannot sign in, the refusal
page tells them: ``sign_in_refusal``, registered into accounts' sign-in form)."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.hooks import SignInRefusal
from mayi_site.timezones import DAY_TIME, zoned

from .appeal_tokens import appeal_token
from .models import Restriction
from .selectors import ACCOUNT_KINDS, in_force, lasting_longest, own_restrictions
from .services.linking import sign_in_record

BROWSER_COOKIE = "mayi_browser"
BROWSER_COOKIE_AGE = 2 * 365 * 24 * 3600


@receiver(user_logged_in, dispatch_uid="moderation.sign_in")
def on_sign_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    if request is None:
        return
    browser = request.COOKIES.get(BROWSER_COOKIE, "")
    if not (16 <= len(browser) <= 64):
        browser = secrets.token_urlsafe(24)
        # For BrowserCookieMiddleware below, on the way out: a per-request attribute, which
        # the stubs' HttpRequest does not declare.
        request.moderation_new_browser = browser  # type: ignore[attr-defined]
    sign_in_record(user=user, address=request.META.get("REMOTE_ADDR"), browser=browser)
    if not hasattr(request, "_messages"):
        return  # a sign-in outside a page (a test's force_login): nowhere to show them
    now = timezone.now()
    unread = Restriction.objects.filter(in_force(now), user=user, message_shown=None).exclude(
        message=""
    )
    for r in unread.order_by("created"):
        until = f" until {zoned(r.until, DAY_TIME)}" if r.until else ""
        messages.warning(
            request,
            f"A moderator decided that you are {r.get_kind_display()}{until}: {r.message} "
            "You may appeal it once from your profile page.",
        )
    unread.update(message_shown=now)


def sign_in_refusal(user: Any) -> SignInRefusal | None:
    """Why ``user`` (not active, and who gave the right password) may not sign in: the ban,
    or of suspensions the one ending last, with their restrictions and the appeal tokens the
    refusal page offers (``accounts.hooks.provide_sign_in_refusal``); None when no
    restriction of theirs is in force."""
    # A ban outlasts any suspension; of suspensions, the one ending last.
    restriction = lasting_longest(user, ACCOUNT_KINDS)
    if restriction is None:
        return None
    items = own_restrictions(restriction.user)
    return SignInRefusal(
        message=restriction_words(restriction),
        items=items,
        appeal_tokens={
            item.restriction.pk: appeal_token(
                user_id=restriction.user_id, restriction_id=item.restriction.pk
            )
            for item in items
            if item.can_appeal
        },
    )


def restriction_words(restriction: Restriction) -> str:
    """What a suspended or banned user is told at sign-in."""
    if restriction.until is None:
        head = "Your account is banned."
    else:
        until = zoned(restriction.until, "%d %b %Y, %H:%M")
        head = f"Your account is suspended until {until}."
    return f"{head} Reason given by the moderators: {restriction.reason}"


class BrowserCookieMiddleware:
    """Sets the long-lived browser cookie a sign-in chose (moderation.signin.on_sign_in)."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        value = getattr(request, "moderation_new_browser", None)
        if value:
            response.set_cookie(
                BROWSER_COOKIE,
                value,
                max_age=BROWSER_COOKIE_AGE,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
        return response
