"""check_invariants' view check bites: a view that shows the seed, another seat's card or a
stock card is reported (the property tests and the simulator lean on it after every move)."""

from __future__ import annotations

import pytest

from games.engine import invariants, new_game
from games.engine.view import view

SEED = "0123456789abcdef"  # long enough for the seed check


def leaking(extra):
    def fake(state, seat):
        v = view(state, seat)
        return {**v, "log": [*v.get("log", []), {"note": extra(state, seat)}]}

    return fake


def test_an_honest_deal_has_no_problem():
    assert invariants.check_invariants(new_game(3, SEED)) == []


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (lambda s, seat: s["seed"], "shows the seed"),
        (lambda s, seat: {s["seed"]: 1}, "shows the seed"),  # a key counts too
        (lambda s, seat: [s["hands"][((seat or 0) + 1) % 3][0]], "'s cards"),
        (lambda s, seat: (s["stock"][0],), "shows stock cards"),
    ],
    ids=["seed", "seed-as-key", "other-hand", "stock-in-tuple"],
)
def test_a_leaking_view_is_reported(monkeypatch, extra, problem):
    monkeypatch.setattr(invariants, "view", leaking(extra))
    problems = invariants.check_invariants(new_game(3, SEED))
    assert any(problem in p for p in problems), problems
