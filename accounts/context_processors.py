"""What the header's "Log in" and "Sign up" links carry: the way back to the page they were
followed from (an invitation above all), as the page's own buttons do (issue 26 point 13)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

# Pages whose way back is the ``next`` they were given, not themselves: the account pages
# (login, sign-up, password reset) send a visitor on, never back to them.
ACCOUNT_PAGES = "/accounts/"


def header_next(request: HttpRequest) -> dict[str, str]:
    """``header_next``: the path the header's links bring a visitor back to after signing in
    or up; "" for the home page (where they land anyway) and for none that is ours."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return {}
    if request.path.startswith(ACCOUNT_PAGES):
        target = request.GET.get("next", "")
    else:
        target = request.get_full_path()
    if target in ("", "/") or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return {"header_next": ""}
    return {"header_next": target}
