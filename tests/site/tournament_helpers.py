"""Helpers of the tournament tests: players, a tournament made and started through the API,
and time moved past a round's deadline."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User

from tournaments.models import Round, Tournament

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"]


def players(django_user_model: Any, count: int) -> list[User]:
    return [
        django_user_model.objects.create_user(name, f"{name}@example.com", "pw")
        for name in NAMES[:count]
    ]


def create(api: Any, **body: Any) -> dict[str, Any]:
    data = {
        "name": "Spring Cup",
        "ruleset": "bga",
        "table_size": 3,
        "rounds": 3,
        "turn_seconds": 3600,
        "window_seconds": 600,
        "public": True,
        "max_players": 16,
        **body,
    }
    response = api.post("/api/tournaments", data)
    assert response.status_code == 201, response.content
    return response.json()


def started(api_for: Any, users: list[User], **body: Any) -> Tournament:
    """A tournament made by ``users[0]``, joined by the others and started (round 1 paired)."""
    made = create(api_for(users[0]), **body)
    tid = made["tournament"]["id"]
    for user in users[1:]:
        assert api_for(user).post(f"/api/tournaments/{tid}/join").status_code == 200
    response = api_for(users[0]).post(f"/api/tournaments/{tid}/start")
    assert response.status_code == 200, response.content
    return Tournament.objects.get(pk=tid)


def past_deadline(tournament: Tournament) -> Any:
    current = Round.objects.get(tournament=tournament, number=tournament.round)
    return current.deadline + timedelta(seconds=1)
