"""What a table's pages show of trust (issue 29): each seated person's reliability, how I stand
towards each of them (follow, block), and my friends I could invite to it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from games import providers
from games.models import Seat, Table
from games.reliability import Figure


@dataclass
class TableTrust:
    # Seat position -> that person's reliability (bots have none).
    reliability: dict[int, Figure] = field(default_factory=dict)
    # Username -> the viewer's relation to them (not for the viewer): games.providers.Relations.
    relations: dict[str, dict[str, bool]] = field(default_factory=dict)
    # My friends not seated here, by name: whom I may invite (an open table I sit at).
    invitable: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """For the table page's players panel (static/js/table/)."""
        return {
            str(position): {"label": f.label, "detail": f.detail, "new": f.new, "share": f.share}
            for position, f in self.reliability.items()
        }


def table_trust(*, table: Table, seats: list[Seat], user: User | AnonymousUser) -> TableTrust:
    people = [s for s in seats if s.user_id is not None and not s.is_bot]
    figures = providers.trust().reliability_many(s.user_id for s in people)
    trust = TableTrust(
        reliability={s.position: figures[s.user_id] for s in people if s.user_id is not None}
    )
    if not user.is_authenticated:
        return trust
    for seat in people:
        if seat.user is not None and seat.user_id != user.pk:
            trust.relations[seat.user.get_username()] = providers.relations().relation(
                user, seat.user
            )
    seated = {s.user_id for s in people}
    if table.status == Table.Status.OPEN and user.pk in seated:
        friends = providers.relations().friend_ids(user) - seated
        trust.invitable = sorted(
            User.objects.filter(pk__in=friends, is_active=True).values_list("username", flat=True)
        )
    return trust
