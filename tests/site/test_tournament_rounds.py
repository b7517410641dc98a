"""Rounds driven by the tick: a whole tournament of 9 players over 3 rounds played by the
engine's bots through the services, a tick run twice pairs once, a tick interrupted mid-pairing
leaves nothing and the next completes it once, withdrawals, tournament games rated."""

from __future__ import annotations

import json

import pytest
from django.core import mail
from django.core.management import call_command

from accounts.mail import drain
from games import engine
from games import services as games
from games.models import Move, Seat, Table
from games.services import enqueue
from stats.models import GameResult
from tests.site.tournament_helpers import past_deadline, players, started
from tournaments import pairing
from tournaments import tasks as tournament_tasks
from tournaments.models import Result, Round, RoundTable, Tournament
from tournaments.scoring import SeatOutcome, duplicate_scores, place_points
from tournaments.services import tournaments_tick
from tournaments.tasks import push_tables_ready


def _round_tables(tournament: Tournament, number: int) -> list[RoundTable]:
    return list(
        RoundTable.objects.filter(
            round__tournament=tournament, round__number=number
        ).select_related("table")
    )


def _users_at(rt: RoundTable) -> list[int]:
    return list(
        Seat.objects.filter(table=rt.table, user__isnull=False).values_list("user_id", flat=True)
    )


def _diverge(table: Table) -> None:
    """The first player to act plays a legal move other than the one the bot would."""
    table.refresh_from_db()
    seat = engine.active_seat(table.state)
    bot = engine.choose_action(table.state, seat, "normal")
    other = next(
        a for a in engine.legal_actions(table.state, seat) if a["type"] == "draw" and a != bot
    )
    user = Seat.objects.get(table=table, position=seat).user
    games.table_submit_action(
        table_id=table.pk, user=user, action=other, expect_version=table.version
    )


def test_nine_players_three_rounds_played_by_the_bots(db, django_user_model, api_for):
    users = players(django_user_model, 9)
    tournament = started(api_for, users)
    met: set[frozenset[int]] = set()
    rounds_scored_apart = 0
    for number in (1, 2, 3):
        tables = _round_tables(tournament, number)
        assert [rt.seats for rt in tables] == [3, 3, 3]
        # Every table of the round plays the same deal.
        assert len({rt.table.seed_sha256 for rt in tables}) == 1
        assert len({rt.seed_hash for rt in tables}) == 1
        hands = {str(rt.table.state["hands"]) for rt in tables}
        assert len(hands) == 1
        seatings = [_users_at(rt) for rt in tables]
        # Nobody meets an opponent twice: 9 players at tables of 3 can avoid it for 3 rounds.
        assert pairing.repeats(seatings, met) == 0
        met |= pairing.pairs_met(seatings)
        # The bots would play the same deal the same way at every table: at the first table
        # its first player takes the discard instead (a move of a person, through the
        # service), so the games part and the duplicate scores mean something.
        _diverge(tables[0].table)
        tournament.refresh_from_db()
        done = tournaments_tick(now=past_deadline(tournament))
        assert done["finished_by_bots"] == 3 and done["scored"] == 1
        assert done["paired"] == (1 if number < 3 else 0)
        for rt in tables:
            rt.table.refresh_from_db()
            assert rt.table.status == Table.Status.FINISHED
            # The bots' moves are recorded as the timeouts' platform moves, as usual.
            assert Move.objects.filter(table=rt.table, action__type="timeout").exists()
        # The round's results are the scoring of the tables' final totals, seat by seat.
        outcomes = [
            [SeatOutcome(t) for t in engine.view(rt.table.state, None)["total_scores"]]
            for rt in tables
        ]
        expected = duplicate_scores(outcomes)
        for rt, row, table_outcomes in zip(tables, expected, outcomes, strict=True):
            got = Result.objects.filter(round_table=rt).order_by("position")
            assert [r.duplicate for r in got] == row
            assert [r.place_points for r in got] == place_points(table_outcomes)
        # The first table's game took another path; the two others played move for move alike.
        logs = [
            list(
                Move.objects.filter(table=rt.table).order_by("seq").values_list("action", flat=True)
            )
            for rt in tables
        ]
        assert logs[0] != logs[1] and logs[1] == logs[2]
        # One move in the first of seven game rounds can, on a rare deal, end that game round
        # with the same scores (the later rounds are dealt alike whatever happened): over three
        # rounds at least one must score the tables apart, or the duplicate scores said nothing.
        rounds_scored_apart += len({str(o) for o in outcomes}) > 1
    assert rounds_scored_apart >= 1, "the first table's other move never changed a score"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Result.objects.filter(round_table__round__tournament=tournament).count() == 27
    body = api_for(users[0]).get(f"/api/tournaments/{tournament.pk}").json()
    assert body["tournament"]["status"] == "finished" and body["tournament"]["round"] == 3
    standings = body["standings"]
    assert len(standings) == 9 and all(line["games"] == 3 for line in standings)
    # Each game hands out 3 place points when no two players tie (0 + 1 + 2).
    points = sum(line["points"] for line in standings)
    assert points <= 27
    # Three tables of one deal: each seat position's duplicate scores, summed, at most 3.
    assert 0 <= sum(line["duplicate"] for line in standings) <= 27
    ranks = [line["rank"] for line in standings]
    assert ranks == sorted(ranks) and ranks[0] == 1
    totals = [line["total"] for line in standings]
    assert totals == sorted(totals, reverse=True)
    assert tournament.final_standings == standings
    # Tournament games are rated like other games.
    rated = GameResult.objects.filter(
        table__tournament_table__round__tournament=tournament, user__isnull=False
    )
    assert rated.count() == 27 and all(r.rated for r in rated)
    # The standings page: every player ranked, each round's tables linked, scoring explained.
    client = api_for(users[0]).client
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert page.count("<tr") >= 9 + 1 + 9 * 3 // 3
    for rt in _round_tables(tournament, 2):
        assert f'href="/tables/{rt.table_id}/"' in page
    assert "How it is scored" in page and "rounds/3/deal/3/" in page
    # Each player's statistics page lists the tournament with their rank.
    winner = standings[0]["username"]
    stats = client.get(f"/players/{winner}/").content.decode()
    assert 'id="tournament-results"' in stats and "1 of 9" in stats
    # A later tick changes nothing of a finished tournament.
    assert tournaments_tick(now=past_deadline(tournament)) == {
        "started": 0,
        "finished_by_bots": 0,
        "scored": 0,
        "paired": 0,
        "failed": 0,
    }


def test_a_tick_run_twice_pairs_once(db, django_user_model, api_for):
    users = players(django_user_model, 6)
    tournament = started(api_for, users)
    now = past_deadline(tournament)
    first = tournaments_tick(now=now)
    second = tournaments_tick(now=now)
    assert first["paired"] == 1 and second["paired"] == 0 and second["scored"] == 0
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert len(_round_tables(tournament, 2)) == 2
    tournament.refresh_from_db()
    assert tournament.round == 2
    # The management command is the same tick.
    call_command("tournaments_tick")
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_a_tick_interrupted_mid_pairing_loses_nothing(db, django_user_model, api_for, monkeypatch):
    users = players(django_user_model, 9)
    tournament = started(api_for, users)
    tables_before = Table.objects.count()
    real_start = games.table_start
    calls = {"n": 0}

    def dies_on_the_second_table(**kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("worker killed mid-pairing")
        return real_start(**kwargs)

    monkeypatch.setattr(games, "table_start", dies_on_the_second_table)
    now = past_deadline(tournament)
    done = tournaments_tick(now=now)
    # Round 1 was scored (its own transaction); the pairing of round 2 rolled back whole.
    assert done["failed"] == 1 and done["paired"] == 0
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.FINISHED
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    assert Table.objects.count() == tables_before
    tournament.refresh_from_db()
    assert tournament.round == 1
    monkeypatch.setattr(games, "table_start", real_start)
    again = tournaments_tick(now=now)
    assert again["paired"] == 1 and again["scored"] == 0
    assert tournaments_tick(now=now)["paired"] == 0
    assert len(_round_tables(tournament, 2)) == 3
    assert Table.objects.count() == tables_before + 3
    seated = sorted(u for rt in _round_tables(tournament, 2) for u in _users_at(rt))
    assert seated == sorted(u.pk for u in users)


def test_a_round_starts_when_every_table_ended_before_the_deadline(db, django_user_model, api_for):
    users = players(django_user_model, 6)
    tournament = started(api_for, users)
    tables = _round_tables(tournament, 1)
    games.table_finish_by_bots(table_id=tables[0].table_id)
    assert tournaments_tick()["scored"] == 0  # one table still plays
    games.table_finish_by_bots(table_id=tables[1].table_id)
    done = tournaments_tick()
    assert done["scored"] == 1 and done["paired"] == 1 and done["finished_by_bots"] == 0


def test_withdrawal_mid_round_gives_the_seat_to_the_bot_and_keeps_points(
    db, django_user_model, api_for
):
    users = players(django_user_model, 6)
    tournament = started(api_for, users, rounds=2)
    quitter = users[4]
    table = next(rt for rt in _round_tables(tournament, 1) if quitter.pk in _users_at(rt))
    assert api_for(quitter).post(f"/api/tournaments/{tournament.pk}/withdraw").status_code == 200
    seat = Seat.objects.get(table=table.table, user=quitter)
    assert seat.expelled  # the bot plays it
    tournaments_tick(now=past_deadline(tournament))
    mine = Result.objects.get(round_table=table, entry__user=quitter)
    # That seat scores last, whatever the bot made of it.
    assert mine.forfeited and mine.place_points == 0 and mine.duplicate == 0
    others = Result.objects.filter(round_table=table).exclude(pk=mine.pk)
    assert all(r.place_points >= 1 for r in others)
    # Round 2 seats the five others: one table of 5 (3 + 2 would be a table of two).
    second = _round_tables(tournament, 2)
    seated = [u for rt in second for u in _users_at(rt)]
    assert quitter.pk not in seated and len(seated) == 5
    body = api_for(users[0]).get(f"/api/tournaments/{tournament.pk}").json()
    line = next(x for x in body["standings"] if x["username"] == quitter.username)
    assert line["games"] == 1 and line["withdrawn"] is True


def test_withdrawals_that_leave_too_few_fill_with_bots(db, django_user_model, api_for):
    users = players(django_user_model, 3)
    tournament = started(api_for, users, rounds=2)
    api_for(users[2]).post(f"/api/tournaments/{tournament.pk}/withdraw")
    tournaments_tick(now=past_deadline(tournament))
    (rt,) = _round_tables(tournament, 2)
    seats = list(Seat.objects.filter(table=rt.table))
    assert len(seats) == 3 and sum(s.is_bot for s in seats) == 1


@pytest.mark.django_db(transaction=False)
def test_players_are_told_by_email_their_next_table_is_ready(
    django_user_model, api_for, django_capture_on_commit_callbacks
):
    users = players(django_user_model, 3)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started(api_for, users)
    drain()
    ready = [m for m in mail.outbox if "table is ready" in m.subject]
    assert sorted(a for m in ready for a in m.to) == sorted(u.email for u in users)
    table_id = _round_tables(tournament, 1)[0].table_id
    assert f"/tables/{table_id}/" in ready[0].body
    # The lobby says it too.
    client = api_for(users[1]).client
    client.force_login(users[1])
    page = client.get("/").content.decode()
    assert "Your table is ready" in page and f"/tables/{table_id}/" in page


def test_players_get_a_push_when_their_next_table_is_ready(
    db, django_user_model, api_for, receiver, run_notify, django_capture_on_commit_callbacks
):
    users = players(django_user_model, 3)
    sub = receiver.subscriber()
    client = api_for(users[2]).client
    client.force_login(users[2])
    answer = client.post("/api/push/subscriptions", sub.to_json(), content_type="application/json")
    assert answer.status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        tournament = started(api_for, users)
    queued = [args for name, args in run_notify if name == "tournaments.tasks.push_tables_ready"]
    assert len(queued) == 1
    # The task, as a worker runs it (twice: it pushes once).
    push_tables_ready(*queued[0])
    push_tables_ready(*queued[0])
    (table,) = _round_tables(tournament, 1)
    # (The table's own "Your turn" push may come too, if the first turn is theirs.)
    got = [sub.decrypt(r.body) for r in receiver.for_endpoint(sub)]
    ready = [p for p in got if p["kind"] == "tournament"]
    assert len(ready) == 1
    payload = ready[0]
    assert payload["title"] == "Your tournament table is ready"
    assert payload["url"] == f"/tables/{table.table_id}/"
    assert "Spring Cup, round 1 of 3" in payload["body"]
    hands = [c for hand in table.table.state["hands"] for c in hand]
    assert not any(card in json.dumps(payload) for card in hands)


def test_the_last_table_ending_starts_the_next_round_at_once(
    db, django_user_model, api_for, monkeypatch, django_capture_on_commit_callbacks
):
    users = players(django_user_model, 6)
    tournament = started(api_for, users)
    ran: list[tuple[str, tuple]] = []

    def send_task(name: str, args: tuple, **options: object) -> None:
        # As a worker would, right after the commit that queued it.
        ran.append((name, args))
        if name == "tournaments.tasks.advance":
            tournament_tasks.advance(*args)

    monkeypatch.setattr(enqueue, "send_task", send_task)
    first, second = _round_tables(tournament, 1)
    with django_capture_on_commit_callbacks(execute=True):
        games.table_finish_by_bots(table_id=first.table_id)
    # One table of two ended: the step ran (games' game-ended hook) and found the round on.
    assert ("tournaments.tasks.advance", (tournament.pk,)) in ran
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    with django_capture_on_commit_callbacks(execute=True):
        games.table_finish_by_bots(table_id=second.table_id)
    # The last one: scored and round 2 seated with no tick.
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.FINISHED
    assert len(_round_tables(tournament, 2)) == 2
    # A table that is not a tournament's queues nothing.
    ran.clear()
    table = games.table_create(host=users[0], seats=3)
    games.table_fill_with_bots(user=users[0], table_id=table.pk)
    games.table_start(user=users[0], table_id=table.pk)
    with django_capture_on_commit_callbacks(execute=True):
        games.table_finish_by_bots(table_id=table.pk)
    assert not [n for n, _ in ran if n.startswith("tournaments.")]


def test_withdrawal_between_rounds_keeps_the_points(db, django_user_model, api_for):
    users = players(django_user_model, 7)
    tournament = started(api_for, users, rounds=2)
    done_first, *_ = _round_tables(tournament, 1)
    games.table_finish_by_bots(table_id=done_first.table_id)
    # A player whose game of this round is over leaves before the next round.
    leaver = next(u for u in users if u.pk in _users_at(done_first))
    assert api_for(leaver).post(f"/api/tournaments/{tournament.pk}/withdraw").status_code == 200
    tournaments_tick(now=past_deadline(tournament))
    mine = Result.objects.get(round_table=done_first, entry__user=leaver)
    assert not mine.forfeited  # they played their game out: it scores as it ended
    seated = [u for rt in _round_tables(tournament, 2) for u in _users_at(rt)]
    assert leaver.pk not in seated and len(seated) == 6
    body = api_for(users[0]).get(f"/api/tournaments/{tournament.pk}").json()
    line = next(x for x in body["standings"] if x["username"] == leaver.username)
    assert line["withdrawn"] and line["games"] == 1
    assert line["points"] == mine.place_points and line["duplicate"] == round(mine.duplicate, 3)
