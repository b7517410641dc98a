"""Ratings players believe (issue 29): an expelled seat ranks last, a game no person finished in
their seat is not rated, the shown number never rises after a last place nor falls after a
first, and the stored ratings were recomputed under these rules."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from stats import ratings
from stats.models import GameResult, Rating
from stats.ratings import Entrant, display, finished_first_last, rate

from .stats_helpers import finished_game, rounds


@st.composite
def games(draw):
    """A finished game: 2-8 seats, people and bots, places from 1 (ties), some expelled, each
    person with any rating they could have."""
    n = draw(st.integers(2, 8))
    entrants = []
    for key in range(n):
        human = draw(st.booleans())
        entrants.append(
            Entrant(
                key=key,
                human=human,
                expelled=human and draw(st.booleans()),
                place=draw(st.integers(1, n)),
                mu=draw(st.floats(5, 45)),
                sigma=draw(st.floats(0.5, 25 / 3)),
            )
        )
    return entrants


@settings(max_examples=400, deadline=None)
@given(games())
def test_the_shown_rating_never_rises_after_last_nor_falls_after_first(entrants):
    new = rate(entrants)
    for e in entrants:
        if e.key not in new:
            continue
        first, last = finished_first_last(entrants, e.key)
        before, after = display(e.mu), display(new[e.key][0])
        if last:
            assert after <= before, (e, new[e.key])
        if first:
            assert after >= before, (e, new[e.key])


@settings(max_examples=200, deadline=None)
@given(games())
def test_an_expelled_person_ranks_below_every_person_who_finished(entrants):
    ranks = ratings.human_ranks(entrants)
    people = [e for e in entrants if e.human]
    if len(people) < 2 or all(e.expelled for e in people):
        assert ranks == {}
        return
    for e in people:
        for other in people:
            if e.expelled and not other.expelled:
                assert ranks[e.key] > ranks[other.key]


def test_the_case_of_the_issue_an_expelled_last_of_four_gains_nothing():
    # A seasoned player (σ small) expelled and last of 4: μ − 3σ rose by 116 before.
    me = Entrant(0, True, True, 4, mu=27.0, sigma=3.0)
    others = [Entrant(k, True, False, k, mu=25.0, sigma=25 / 3) for k in (1, 2, 3)]
    new = rate([me, *others])
    assert display(new[0][0]) <= display(27.0)


pytestmark_db = pytest.mark.django_db


@pytestmark_db
def test_a_game_where_every_person_was_expelled_is_not_rated(alice, bob):
    table = finished_game(
        [alice, bob, None],
        [rounds([5] * 7), rounds([20] * 7), rounds([9] * 7)],
        expelled=(0, 1),
    )
    assert not GameResult.objects.filter(table=table, rated=True).exists()
    assert not Rating.objects.filter(games__gt=0).exists()


@pytestmark_db
def test_recompute_follows_the_rules_for_ratings_stored_before(alice, bob, carol):
    # Three games, then the stored numbers are tampered to the old rule's (as a database from
    # before would have them): every person rated, even where all were expelled.
    finished_game([alice, bob, carol], [rounds([10] * 7), rounds([20] * 7), rounds([30] * 7)])
    all_out = finished_game(
        [alice, bob, None], [rounds([5] * 7), rounds([20] * 7), rounds([9] * 7)], expelled=(0, 1)
    )
    finished_game([alice, bob, carol], [rounds([30] * 7), rounds([20] * 7), rounds([10] * 7)])
    want = {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    GameResult.objects.filter(table=all_out, user__isnull=False).update(
        rated=True, mu_before=25.0, sigma_before=8.0, mu_after=30.0, sigma_after=7.0
    )
    Rating.objects.update(mu=40.0, sigma=1.0, games=9)

    call_command("recompute_ratings")
    assert {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()} == want
    assert not GameResult.objects.filter(table=all_out, rated=True).exists()

    # The data migration runs the same on its own models.
    Rating.objects.update(mu=40.0, sigma=1.0, games=9)
    migration = importlib.import_module("stats.migrations.0004_ratings_recompute")
    migration.recompute(apps, None)
    assert {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()} == want
