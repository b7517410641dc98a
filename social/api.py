"""Friends and blocks over the API: ``/api/friends[/<username>]``, ``/api/blocks[/<username>]``
and ``POST /api/tables/<id>/invite`` (a friend to my open table). Thin: a ninja router mounted
on the site's API, so authentication and the error shape are the API's own."""

from __future__ import annotations

from typing import Any

from ninja import Router, Schema
from pydantic import ConfigDict, StrictStr

from accounts.requests import ApiRequest
from games.api_schemas import ErrorOut

from . import selectors, services

router = Router(tags=["friends"])

ERRORS: dict[int, Any] = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut}


class FollowOut(Schema):
    following: bool
    friends: bool


class FriendsOut(Schema):
    following: list[str]
    followers: list[str]
    friends: list[str]


class BlocksOut(Schema):
    blocked: list[str]


class InviteFriendIn(Schema):
    model_config = ConfigDict(extra="forbid")

    username: StrictStr


class InvitedOut(Schema):
    invited: str
    table: int


@router.get("/friends", response={200: FriendsOut, **ERRORS})
def friends(request: ApiRequest) -> dict[str, Any]:
    """Whom I follow, who follows me, and my friends (both): usernames."""
    return selectors.relations(request.auth)


@router.post("/friends/{username}", response={200: FollowOut, **ERRORS})
def follow(request: ApiRequest, username: str) -> dict[str, Any]:
    """Follow a player; following each other makes friends."""
    state = services.follow_add(user=request.auth, username=username)
    return {"following": state.following, "friends": state.friends}


@router.delete("/friends/{username}", response={200: FollowOut, **ERRORS})
def unfollow(request: ApiRequest, username: str) -> dict[str, Any]:
    state = services.follow_remove(user=request.auth, username=username)
    return {"following": state.following, "friends": state.friends}


@router.get("/blocks", response={200: BlocksOut, **ERRORS})
def blocks(request: ApiRequest) -> dict[str, Any]:
    """The players I blocked."""
    return {"blocked": selectors.blocked_names(request.auth)}


@router.post("/blocks/{username}", response={200: BlocksOut, **ERRORS})
def block(request: ApiRequest, username: str) -> dict[str, Any]:
    """Block a player: they cannot join my tables or sit at one I wait at, I see neither their
    tables nor their chat, they cannot invite, nudge or follow me. They are not told."""
    services.block_add(user=request.auth, username=username)
    return {"blocked": selectors.blocked_names(request.auth)}


@router.delete("/blocks/{username}", response={200: BlocksOut, **ERRORS})
def unblock(request: ApiRequest, username: str) -> dict[str, Any]:
    services.block_remove(user=request.auth, username=username)
    return {"blocked": selectors.blocked_names(request.auth)}


@router.post("/tables/{int:table_id}/invite", response={200: InvitedOut, 409: ErrorOut, **ERRORS})
def invite(request: ApiRequest, table_id: int, payload: InviteFriendIn) -> dict[str, Any]:
    """Invite a friend to this open table (I sit at it): it shows on their lobby."""
    services.invitation_send(user=request.auth, table_id=table_id, username=payload.username)
    return {"invited": payload.username, "table": table_id}
