"""Refusals of the social services (codes registered in games/errors.py)."""

from __future__ import annotations

from games.services import ServiceError


class PlayerNotFound(ServiceError):
    status = 404
    code = "player_not_found"


class SocialRefused(ServiceError):
    """Following or blocking oneself, inviting someone who is not a friend..."""

    status = 400
    code = "bad_request"
