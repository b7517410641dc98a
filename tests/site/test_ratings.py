"""Ratings (issue 12): openskill Plackett-Luce per ruleset, updated when a game finishes."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from stats.models import GameResult, Rating
from stats.ratings import conservative, display, provisional

from .stats_helpers import finished_game, rounds

pytestmark = pytest.mark.django_db

MODEL = PlackettLuce()


def fresh(n: int) -> list[list]:
    return [[MODEL.rating()] for _ in range(n)]


def expected(ranks: list[int]) -> list[tuple[float, float]]:
    new = MODEL.rate(fresh(len(ranks)), ranks=ranks)
    return [(t[0].mu, t[0].sigma) for t in new]


def rating(user, ruleset="bga"):
    r = Rating.objects.get(user=user, ruleset=ruleset)
    return (r.mu, r.sigma)


def approx(pair):
    return pytest.approx(pair, rel=1e-12)


def test_a_three_person_game_moves_the_ratings_as_openskill_does(alice, bob, carol):
    table = finished_game(
        [alice, bob, carol], [rounds([10] * 7), rounds([20] * 7), rounds([30] * 7)]
    )
    want = expected([1, 2, 3])
    assert rating(alice) == approx(want[0])
    assert rating(bob) == approx(want[1])
    assert rating(carol) == approx(want[2])
    # Each result keeps the rating before and after, for the history.
    res = GameResult.objects.get(table=table, user=alice)
    assert (res.mu_before, res.sigma_before) == (25.0, pytest.approx(25 / 3))
    assert (res.mu_after, res.sigma_after) == approx(want[0])
    assert res.rated and res.place == 1
    assert Rating.objects.get(user=alice).games == 1


def test_tied_totals_share_a_place(alice, bob, carol):
    # bob and carol tie at 140 with no round out each: a shared second place.
    finished_game(
        [alice, bob, carol],
        [rounds([0, 10, 10, 10, 10, 10, 10]), rounds([20] * 7), rounds([20] * 7)],
    )
    want = expected([1, 2, 2])
    assert want[1] == approx(want[2])
    assert rating(bob) == approx(want[1])
    assert rating(carol) == rating(bob)


def test_bots_are_not_rated_and_people_are_ranked_among_themselves(alice, bob):
    # The bot wins; alice second, bob third: rated as a two-person game alice > bob.
    table = finished_game([alice, None, bob], [rounds([20] * 7), rounds([5] * 7), rounds([30] * 7)])
    want = expected([1, 2])
    assert rating(alice) == approx(want[0]) and rating(bob) == approx(want[1])
    bot = GameResult.objects.get(table=table, seat=1)
    assert not bot.rated and bot.user is None and bot.mu_after is None


def test_an_expelled_player_is_rated_last_among_the_people(alice, bob, carol):
    # alice has the lowest total but was expelled by the clock: rated below bob and carol.
    finished_game(
        [alice, bob, carol],
        [rounds([5] * 7), rounds([20] * 7), rounds([30] * 7)],
        expelled=(0,),
    )
    want = expected([3, 1, 2])
    assert rating(alice) == approx(want[0])
    assert rating(bob) == approx(want[1])
    assert rating(carol) == approx(want[2])


def test_a_game_with_one_person_is_not_rated(alice):
    table = finished_game([alice, None, None], [rounds([5] * 7), rounds([20] * 7), rounds([9] * 7)])
    assert not Rating.objects.filter(user=alice, games__gt=0).exists()
    assert not GameResult.objects.get(table=table, user=alice).rated


def test_an_aborted_game_is_neither_rated_nor_counted(alice, bob):
    from games.models import Seat, Table
    from stats.models import PlayerStats
    from stats.services import stats_game_finished

    table = finished_game([alice, bob, None], [rounds([5] * 7), rounds([20] * 7), rounds([9] * 7)])
    before = rating(alice)
    table.pk = None
    table.invite_code = "aborted-copy"
    table.status = Table.Status.ABORTED
    table.save()
    seats = [
        Seat.objects.create(table=table, position=i, user=u, is_bot=u is None)
        for i, u in enumerate([alice, bob, None])
    ]
    stats_game_finished(table=table, seats=seats, now=table.created)
    assert rating(alice) == before
    assert not GameResult.objects.filter(table=table).exists()
    assert PlayerStats.objects.get(user=alice).data["games"] == 1


def test_ratings_are_per_ruleset_and_accumulate(alice, bob):
    finished_game([alice, bob, None], [rounds([5] * 7), rounds([20] * 7), rounds([9] * 7)])
    finished_game(
        [alice, bob, None],
        [rounds([25] * 7), rounds([20] * 7), rounds([9] * 7)],
        ruleset="petras",
    )
    first = MODEL.rate(fresh(2), ranks=[1, 2])
    second = MODEL.rate([first[0], first[1]], ranks=[1, 2])
    finished_game([alice, bob, None], [rounds([5] * 7), rounds([20] * 7), rounds([9] * 7)])
    assert rating(alice) == approx((second[0][0].mu, second[0][0].sigma))
    assert rating(bob, "petras") == approx(expected([1, 2])[0])
    assert Rating.objects.get(user=alice, ruleset="bga").games == 2


def test_the_number_shown_and_provisional():
    # μ on the 1500 scale, whatever σ (issue 29): a newcomer shows 1500.
    assert display(25.0) == 1500
    assert display(30.0) == 1500 + 40 * 5
    # The leaderboard's order: μ − 3σ on the same scale.
    assert conservative(25.0, 25 / 3) == 500
    assert conservative(30.0, 2.0) == 1500 + 40 * (30 - 6 - 25)
    assert provisional(25 / 3) and not provisional(4.0)
