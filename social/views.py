"""Pages: my friends (who is online, their games to watch, who follows me, whom I blocked), and
the one form that follows, unfollows, blocks or unblocks a player from their page or a table."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from accounts.requests import SignedInRequest
from games import services as games

from . import selectors, services

ACTIONS = {
    "follow": services.follow_add,
    "unfollow": services.follow_remove,
    "block": services.block_add,
    "unblock": services.block_remove,
}
DONE = {
    "follow": "You follow {name}.",
    "unfollow": "You no longer follow {name}.",
    "block": "You blocked {name}. They are not told.",
    "unblock": "You unblocked {name}.",
}


@login_required
@require_POST
def relation_change(request: SignedInRequest, username: str) -> HttpResponse:
    """POST ``action`` (follow, unfollow, block, unblock), then back to ``next`` (their page,
    a table, my friends)."""
    action = request.POST.get("action", "")
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = f"/players/{username}/"
    change = ACTIONS.get(action)
    if change is None:
        messages.error(request, "Choose follow, unfollow, block or unblock.")
        return redirect(target)
    try:
        change(user=request.user, username=username)
    except games.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, DONE[action].format(name=username))
    return redirect(target)


@login_required
def friends_page(request: SignedInRequest) -> HttpResponse:
    """My friends first, online ones on top, each with the public games they are playing that I
    could watch; then whom I follow, who follows me, and whom I blocked (each unblockable)."""
    return render(request, "social/friends.html", selectors.friends_page(request.user))


@login_required
@require_POST
def table_invite(request: SignedInRequest, table_id: int) -> HttpResponse:
    """Invite a friend (``username``) to this open table, from its waiting room."""
    name = request.POST.get("username", "")
    try:
        services.invitation_send(user=request.user, table_id=table_id, username=name)
    except games.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{name} is invited: the invitation shows in their lobby.")
    return redirect("table", table_id=table_id)
