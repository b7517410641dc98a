"""The appeal form of the sign-in refusal page: a suspended or banned member cannot sign in,
so the page that refused them (after the right password) carries a signed token naming them
and the restriction; the appeal view accepts it for an hour instead of a session."""

from __future__ import annotations

from django.core import signing

SALT = "moderation.appeal"
MAX_AGE = 3600


def appeal_token(*, user_id: int, restriction_id: int) -> str:
    return signing.dumps({"u": user_id, "r": restriction_id}, salt=SALT)


def appeal_token_read(token: str) -> tuple[int, int] | None:
    """(user id, restriction id) of a good token of the last hour, or None."""
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not {"u", "r"} <= data.keys():
        return None
    return int(data["u"]), int(data["r"])
