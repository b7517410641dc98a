"""What the apps built on accounts add to its pages, without accounts importing them (accounts
sits below games, stats and moderation: they use its users and profiles, never the other way).

Each app registers from its ``AppConfig.ready``:

- ``provide_profile(func)``: ``func(user=, profile=, now=)`` returns the names it adds to the
  profile page's template (games: the seats, the clocks' forms; stats: the rounds' sums;
  moderation: the member's reports and restrictions). Two apps never give the same name.
- ``provide_sign_in_refusal(func)``: ``func(user)`` says why a member who gave the right
  password but is not active may not sign in (moderation: the suspension or ban, with the
  restrictions and appeal tokens the page shows), or None.

Without an app installed its part of the profile is absent and an inactive member is refused
as Django refuses them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    # Only for the types: the apps import this module from their apps.py.
    from django.contrib.auth.models import User

    from accounts.models import Profile


class ProfilePart(Protocol):
    def __call__(self, *, user: User, profile: Profile, now: datetime) -> Mapping[str, object]: ...


@dataclass(frozen=True)
class SignInRefusal:
    """Why an inactive member may not sign in, said once they gave the right password."""

    message: str
    # What the refusal page lists below the form (the template of the app that refused) and
    # the appeal token of each item that may be appealed, by its id.
    items: Sequence[object] = ()
    appeal_tokens: Mapping[int, str] = field(default_factory=dict)


SignInRefusalOf = Callable[["User"], SignInRefusal | None]

_profile_parts: list[ProfilePart] = []
_refusals: list[SignInRefusalOf] = []


def provide_profile(func: ProfilePart) -> ProfilePart:
    """Register ``func``: its names go into the profile page's template. Registering twice
    does nothing."""
    if func not in _profile_parts:
        _profile_parts.append(func)
    return func


def provide_sign_in_refusal(func: SignInRefusalOf) -> SignInRefusalOf:
    """Register ``func(user)``: the refusal of an inactive member, or None."""
    if func not in _refusals:
        _refusals.append(func)
    return func


def profile_context(*, user: User, profile: Profile, now: datetime) -> dict[str, object]:
    """Every registered app's names for the profile page, in the order they registered."""
    out: dict[str, object] = {}
    for func in _profile_parts:
        part = func(user=user, profile=profile, now=now)
        clash = out.keys() & part.keys()
        if clash:
            raise ValueError(f"two apps give the profile page {sorted(clash)}")
        out.update(part)
    return out


def sign_in_refusal(user: User) -> SignInRefusal | None:
    """The first registered app's refusal of ``user``, or None."""
    for func in _refusals:
        refusal = func(user)
        if refusal is not None:
            return refusal
    return None
