"""Issue 33, the site's side: a finished game's analysis (analysis/): the task and its budget,
the queue-length rule of the analysis by default, the API's shape and refusals, the rate limit
of asking, the statistics page's section.

The engine's rollouts are its own tests' (tests/engine/); here a stand-in with a known answer
weighs each decision (``fake_engine``) unless a test says otherwise, so that what the site does
with the answer is checked exactly and quickly. One test runs the real engine on a tiny budget.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
import uuid
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, TestCase
from django.utils import timezone

from accounts.models import Profile
from analysis import run, services
from analysis.models import Decision, GameAnalysis
from games import engine
from games.engine import ANALYSIS_VERSION
from games.models import Move, Seat, Table
from tests.site.conftest import error_of
from tests.site.stats_play import play_game

pytestmark = pytest.mark.django_db

LABELS = {"best", "inaccuracy", "mistake", "blunder"}


@pytest.fixture(autouse=True)
def own_queue(settings: Any) -> str:
    """A queue of this test's own: nothing else waits in it, and nothing of it stays."""
    settings.MAYI_ANALYSIS_QUEUE = f"mayi-test-{uuid.uuid4().hex[:8]}-analysis"
    settings.MAYI_ANALYSIS_SAMPLES = 3
    settings.MAYI_ANALYSIS_BUDGET_SECONDS = 600.0
    settings.MAYI_ANALYSIS_SLICE_SECONDS = 600.0
    settings.MAYI_ANALYSIS_AUTO_QUEUE = 5
    return str(settings.MAYI_ANALYSIS_QUEUE)


@pytest.fixture
def sent(monkeypatch: Any) -> list[int]:
    """The analysis tasks queued (their table ids), not sent to a broker."""
    queued: list[int] = []
    monkeypatch.setattr(services, "send_analysis", queued.append)
    return queued


@pytest.fixture
def waiting(monkeypatch: Any) -> dict[str, int]:
    """The analysis queue's length as the broker would say it: ``waiting["n"]``."""
    length = {"n": 0}
    monkeypatch.setattr(services, "queue_waiting", lambda name: length["n"])
    return length


def cost_of(seed: str) -> float:
    """A cost from 0 to 20 points, the same for the same decision."""
    return int(hashlib.sha256(seed.encode()).hexdigest()[:4], 16) % 41 / 2


@pytest.fixture
def fake_engine(monkeypatch: Any) -> dict[str, Any]:
    """The engine's analysis stood in for: the choice made is ``{"type": "made"}``, the best
    ``{"type": "best"}`` unless the made one cost 0; ``burn`` CPU seconds per sample."""
    calls: dict[str, Any] = {"n": 0, "burn": 0.0, "samples": []}

    def analysis(state: Any, seat: int, *, samples: int, seed: str) -> dict:
        calls["n"] += 1
        calls["samples"].append(samples)
        end = time.thread_time() + calls["burn"] * samples
        while time.thread_time() < end:
            pass
        cost = cost_of(seed)
        made = {"action": {"type": "made"}, "cost": cost, "low": cost / 2, "high": cost * 1.5}
        if cost == 0:
            return {"choices": [made], "best": {"type": "made"}, "samples": samples}
        best = {"action": {"type": "best"}, "cost": 0.0, "low": 0.0, "high": 0.0}
        return {
            "choices": [best, made],
            "best": {"type": "best"},
            "samples": samples,
            "expected": 40.0 - seat,
        }

    monkeypatch.setattr(run, "decision_analysis", analysis)
    monkeypatch.setattr(run, "analysis_choice", lambda state, seat, action: {"type": "made"})
    return calls


@pytest.fixture
def played(django_capture_on_commit_callbacks: Any) -> Any:
    """``played(host, others, bots=, seed=, public=)``: a whole game, played with what each
    commit queues run as it would be (the analysis queued after the game's last commit)."""

    def play(host: Any, others: list[Any], **kwargs: Any) -> Table:
        with django_capture_on_commit_callbacks(execute=True):
            return play_game(host, others, **kwargs)

    return play


@functools.cache
def engine_game(seed: str, seats: int) -> tuple[engine.State, tuple[tuple[int, dict], ...]]:
    """A whole bga game the normal bots play in the engine alone: its final state and log."""
    state = engine.new_game(seats, seed)
    log = []
    while not engine.is_over(state):
        seat = engine.seats_to_act(state)[0]
        action = engine.choose_action(state, seat)
        assert action is not None
        state, _ = engine.apply(state, seat, action)
        log.append((seat, action))
    return state, tuple(log)


def finished_table(people: list[Any], *, bots: int, seed: str, public: bool = True) -> Table:
    """A finished game's rows as the services leave them (the table, its seats, its move log:
    ``people`` in the first seats, whose moves are theirs, bots in the others), written at
    once from a game played in the engine: the analysis reads nothing else. (Through the
    services a game takes a second and a half; the test of the hook plays one so.)"""
    final, log = engine_game(seed, len(people) + bots)
    table = Table.objects.create(
        ruleset="bga",
        options={"seats": len(people) + bots},
        public=public,
        invite_code=uuid.uuid4().hex[:16],
        status=Table.Status.FINISHED,
        state=final,
        version=len(log),
        move_count=len(log),
        host=people[0],
    )
    Seat.objects.bulk_create(
        [Seat(table=table, position=p, user=u) for p, u in enumerate(people)]
        + [
            Seat(table=table, position=p, is_bot=True)
            for p in range(len(people), len(people) + bots)
        ]
    )
    Move.objects.bulk_create(
        Move(table=table, seq=n, seat=seat, by_bot=seat >= len(people), action=action)
        for n, (seat, action) in enumerate(log, start=1)
    )
    return table


def end_game(table: Table) -> None:
    """games' game-ended hook for ``table``, as the commit of its last move calls it (its
    on-commit work run as the commit would)."""
    seats = list(Seat.objects.filter(table=table))
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.analysis_game_ended(table=table, seats=seats, now=timezone.now())


@pytest.fixture
def game(alice: Any, sent: list[int], waiting: dict[str, int]) -> Table:
    """alice and two bots finished a game; its analysis pending (not queued)."""
    table = finished_table([alice], bots=2, seed="analysis-game")
    GameAnalysis.objects.create(table=table, version=ANALYSIS_VERSION, ended=timezone.now())
    return table


def person_moves(table: Table) -> list[Move]:
    return list(Move.objects.filter(table=table, by_bot=False, seat=0).order_by("seq"))


def analyse_all(table_id: int) -> list[str]:
    """Run the task's slices as a worker would, until it stops queueing the next."""
    done = [run.analysis_run_slice(table_id=table_id)]
    while done[-1] == "continues":
        done.append(run.analysis_run_slice(table_id=table_id))
    return done


# -- by default, after the game ------------------------------------------------------------------


def test_a_finished_game_is_queued_at_its_end_when_the_queue_is_short(alice, played, sent, waiting):
    table = played(alice, [], bots=2, seed="analysis-game")
    analysis = GameAnalysis.objects.get(pk=table.pk)
    assert analysis.status == "pending" and analysis.version == ANALYSIS_VERSION
    assert analysis.queued is not None
    assert sent == [table.pk]


def test_a_long_queue_leaves_the_game_waiting_until_the_sweep_finds_room(
    alice, sent, waiting, settings
):
    waiting["n"] = settings.MAYI_ANALYSIS_AUTO_QUEUE  # as many as the setting allows
    table = finished_table([alice], bots=2, seed="analysis-game")
    end_game(table)
    analysis = GameAnalysis.objects.get(pk=table.pk)
    assert analysis.status == "pending" and analysis.queued is None and sent == []
    assert services.analysis_sweep() == 0  # still no room
    waiting["n"] = settings.MAYI_ANALYSIS_AUTO_QUEUE - 1
    assert services.analysis_sweep() == 1
    assert sent == [table.pk]
    assert services.analysis_sweep() == 0  # queued once, not again


def test_the_sweep_queues_the_newest_games_first_up_to_the_room(game, sent, waiting, settings):
    now = timezone.now()
    tables = [game]
    for n in (1, 2):
        table = Table.objects.create(
            status=Table.Status.FINISHED, invite_code=f"sweep-{n}-{uuid.uuid4().hex[:16]}"
        )
        GameAnalysis.objects.create(
            table=table, version=ANALYSIS_VERSION, ended=now + timedelta(minutes=n)
        )
        tables.append(table)
    GameAnalysis.objects.update(queued=None)
    sent.clear()
    waiting["n"] = settings.MAYI_ANALYSIS_AUTO_QUEUE - 2
    assert services.analysis_sweep() == 2
    assert sent == [tables[2].pk, tables[1].pk]
    # A game queued long ago and still waiting (its task lost) is queued again.
    GameAnalysis.objects.filter(pk=tables[2].pk).update(queued=now - timedelta(hours=2))
    waiting["n"] = 0
    assert services.analysis_sweep() == 2
    assert sent[2:] == [tables[2].pk, game.pk]


def test_no_automatic_analysis_when_the_setting_is_zero(alice, sent, waiting, settings):
    settings.MAYI_ANALYSIS_AUTO_QUEUE = 0
    table = finished_table([alice], bots=2, seed="analysis-game")
    end_game(table)
    assert GameAnalysis.objects.get(pk=table.pk).queued is None
    assert services.analysis_sweep() == 0 and sent == []


def test_a_game_of_bots_only_is_not_analysed(game, sent):
    """Nobody's decisions to weigh: the hook makes no row (here called as games would, for a
    game whose seats all went to bots)."""
    GameAnalysis.objects.all().delete()
    sent.clear()
    bots = [Seat(table=game, position=p, is_bot=True) for p in range(4)]
    services.analysis_game_ended(table=game, seats=bots, now=timezone.now())
    assert not GameAnalysis.objects.exists() and sent == []


def test_a_broker_that_does_not_answer_queues_nothing_and_breaks_nothing(alice, sent, monkeypatch):
    def down(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("broker down")

    monkeypatch.setattr(services.current_app.pool, "acquire", down)
    assert services.queue_waiting("x") is None
    table = finished_table([alice], bots=2, seed="analysis-game")
    end_game(table)  # raises nothing
    assert GameAnalysis.objects.get(pk=table.pk).queued is None and sent == []


def test_the_queue_length_is_the_brokers_count(settings, own_queue):
    """Not stood in: tasks sent to the test's own queue are counted by the broker (the memory
    broker in the first pass, Redis in the second)."""
    assert services.queue_waiting(own_queue) == 0
    for table_id in (1, 2, 3):
        services.send_analysis(table_id)
    assert services.queue_waiting(own_queue) == 3
    settings.MAYI_ANALYSIS_AUTO_QUEUE = 3
    assert services.queue_room() == 0
    settings.MAYI_ANALYSIS_AUTO_QUEUE = 5
    assert services.queue_room() == 2
    with services.current_app.pool.acquire(block=True) as conn:
        conn.default_channel.queue_purge(own_queue)


# -- the task ------------------------------------------------------------------------------------


def test_the_task_weighs_each_decision_of_the_person_only(game, fake_engine):
    assert analyse_all(game.pk) == ["ready"]
    analysis = GameAnalysis.objects.get(pk=game.pk)
    assert analysis.status == "ready" and analysis.complete and analysis.lease is None
    decisions = list(Decision.objects.filter(analysis=analysis).order_by("seq"))
    assert decisions and analysis.decisions_total == len(decisions) == fake_engine["n"]
    # Every decision is a move of alice's (seat 0), never a bot's.
    alice_moves = {m.seq: m for m in person_moves(game)}
    assert {d.seq for d in decisions} <= set(alice_moves)
    assert {d.seat for d in decisions} == {0}
    assert {d.user_id for d in decisions} == {game.host_id}
    kinds = {d.kind for d in decisions}
    assert {"draw", "discard"} <= kinds <= {"draw", "buy", "discard", "lay_down", "lay_off"}
    for d in decisions:
        cost = cost_of(f"table-{game.pk}-move-{d.seq}")
        assert d.cost == cost and d.samples == 3 and d.ruleset == "bga"
        assert d.action == {"type": "made"}
        assert d.best == ({"type": "made"} if cost == 0 else {"type": "best"})
        assert d.label in LABELS and (d.label == "best") == (d.pattern == "")
        assert d.expected == (None if cost == 0 else 40.0)
    assert {d.label for d in decisions} == LABELS  # the costs spread over every label
    assert analyse_all(game.pk) == ["gone"]  # a copy of the task does nothing


def test_slices_hand_over_and_a_copy_of_the_task_leaves_a_held_game(
    game, fake_engine, sent, settings, django_capture_on_commit_callbacks
):
    settings.MAYI_ANALYSIS_SLICE_SECONDS = 0.05
    fake_engine["burn"] = 0.01  # 3 samples: 30 ms a decision, two decisions a slice
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert run.analysis_run_slice(table_id=game.pk) == "continues"
    assert sent == [game.pk]  # the next slice, behind whatever waits
    analysis = GameAnalysis.objects.get(pk=game.pk)
    first = Decision.objects.filter(analysis=analysis).count()
    assert 1 <= first < analysis.decisions_total
    assert analysis.next_seq > 0 and analysis.lease is None
    # Another copy holds it now: this one leaves it.
    GameAnalysis.objects.filter(pk=game.pk).update(lease=timezone.now() + timedelta(minutes=1))
    assert run.analysis_run_slice(table_id=game.pk) == "held"
    GameAnalysis.objects.filter(pk=game.pk).update(lease=None)
    settings.MAYI_ANALYSIS_SLICE_SECONDS = 600
    fake_engine["burn"] = 0
    assert analyse_all(game.pk) == ["ready"]
    analysis.refresh_from_db()
    assert analysis.complete and analysis.decisions.count() == analysis.decisions_total


def test_the_budget_stops_the_analysis_ready_but_not_complete(game, fake_engine, settings):
    settings.MAYI_ANALYSIS_SAMPLES = 8
    settings.MAYI_ANALYSIS_BUDGET_SECONDS = 0.6
    settings.MAYI_ANALYSIS_SLICE_SECONDS = 0.2
    fake_engine["burn"] = 0.005  # 40 ms a decision at 8 samples
    outcome = analyse_all(game.pk)
    assert outcome[-1] == "ready" and outcome[:-1] == ["continues"] * (len(outcome) - 1)
    analysis = GameAnalysis.objects.get(pk=game.pk)
    weighed = analysis.decisions.count()
    assert analysis.status == "ready" and not analysis.complete
    assert 0 < weighed < analysis.decisions_total
    # Within the budget, but for the replay and the last decision started before it ran out.
    assert analysis.cpu_seconds <= 0.6 + 0.2
    # As the budget ran short, decisions got fewer samples, never fewer than MIN_SAMPLES.
    samples = fake_engine["samples"]
    assert samples[0] == run.FIRST_SAMPLES == 8  # measured on a few first
    assert max(samples) == 8 and min(samples) >= run.MIN_SAMPLES and samples[-1] < 8


def test_a_new_analysis_version_makes_it_again(game, fake_engine, waiting, sent):
    analyse_all(game.pk)
    GameAnalysis.objects.filter(pk=game.pk).update(version=ANALYSIS_VERSION - 1)
    Decision.objects.filter(analysis_id=game.pk).update(cost=99)
    sent.clear()
    body = Client().get(f"/api/tables/{game.pk}/analysis").json()
    assert body["status"] == "pending" and body["decisions"] == [] and body["queued"]
    assert sent == [game.pk]
    analysis = GameAnalysis.objects.get(pk=game.pk)
    assert analysis.version == ANALYSIS_VERSION and not analysis.decisions.exists()
    assert analyse_all(game.pk) == ["ready"]
    assert not Decision.objects.filter(analysis_id=game.pk, cost=99).exists()


def test_the_sweep_makes_older_versions_again_with_the_room_left(
    game, fake_engine, waiting, sent, settings
):
    analyse_all(game.pk)
    GameAnalysis.objects.filter(pk=game.pk).update(version=ANALYSIS_VERSION - 1)
    sent.clear()
    waiting["n"] = settings.MAYI_ANALYSIS_AUTO_QUEUE  # no room: left as it is
    assert services.analysis_sweep() == 0
    assert GameAnalysis.objects.get(pk=game.pk).status == "ready"
    waiting["n"] = 0
    assert services.analysis_sweep() == 1 and sent == [game.pk]
    analysis = GameAnalysis.objects.get(pk=game.pk)
    assert analysis.status == "pending" and analysis.version == ANALYSIS_VERSION
    assert not analysis.decisions.exists()


def test_a_worker_of_older_code_leaves_a_newer_analysis(game, fake_engine):
    GameAnalysis.objects.filter(pk=game.pk).update(version=ANALYSIS_VERSION + 1)
    assert run.analysis_run_slice(table_id=game.pk) == "newer"
    assert fake_engine["n"] == 0


def test_an_engine_failure_ends_the_analysis_with_what_it_has(game, monkeypatch, caplog):
    def broken(*args: Any, **kwargs: Any) -> dict:
        raise RuntimeError("a bug in the rollouts")

    monkeypatch.setattr(run, "decision_analysis", broken)
    assert run.analysis_run_slice(table_id=game.pk) == "failed"
    analysis = GameAnalysis.objects.get(pk=game.pk)
    assert analysis.status == "failed" and not analysis.complete and analysis.lease is None
    assert "the analysis of table" in caplog.text
    body = Client().get(f"/api/tables/{game.pk}/analysis").json()
    assert body["status"] == "ready" and body["decisions"] == [] and not body["complete"]


def test_the_real_engine_on_a_tiny_budget(game, settings):
    """The engine's own rollouts, 2 samples a decision, for a fraction of a second: what the
    site keeps of its answer is sound."""
    settings.MAYI_ANALYSIS_SAMPLES = 2
    settings.MAYI_ANALYSIS_BUDGET_SECONDS = 0.5
    assert analyse_all(game.pk)[-1] == "ready"
    decisions = list(Decision.objects.filter(analysis_id=game.pk))
    assert decisions, "no decision weighed in half a second"
    state_of_move = {}
    moves = person_moves(game)
    for d in decisions:
        assert d.cost >= 0 and d.low <= d.cost <= d.high and d.label in LABELS
        assert d.samples in (2, run.MIN_SAMPLES) and d.choices >= 2
        assert (d.cost == 0) == (d.action == d.best) or d.label == "best"
        state_of_move[d.seq] = d
    assert set(state_of_move) <= {m.seq for m in moves}


# -- the API -------------------------------------------------------------------------------------


def test_no_analysis_before_the_games_end(alice, bob, carol, api_for, sent, waiting):
    from games import services as games

    table = games.table_create(host=alice, seats=3)
    assert error_of(api_for(alice).get(f"/api/tables/{table.pk}/analysis")) == (
        404,
        "analysis_not_found",
    )
    games.table_join(user=bob, table_id=table.pk)
    games.table_join(user=carol, table_id=table.pk)
    games.table_start(user=alice, table_id=table.pk, seed="analysis-not-over")
    assert error_of(Client().get(f"/api/tables/{table.pk}/analysis")) == (
        404,
        "analysis_not_found",
    )
    assert error_of(api_for(alice).post(f"/api/tables/{table.pk}/analysis")) == (
        404,
        "analysis_not_found",
    )
    assert error_of(Client().get("/api/tables/999999/analysis")) == (404, "table_not_found")
    assert not GameAnalysis.objects.exists() and sent == []


def test_the_answer_pending_then_ready_in_the_pinned_shape(game, fake_engine, sent):
    sent.clear()
    GameAnalysis.objects.filter(pk=game.pk).update(queued=None)
    body = Client().get(f"/api/tables/{game.pk}/analysis").json()
    assert body == {
        "status": "pending",
        "decisions": [],
        "complete": False,
        "version": ANALYSIS_VERSION,
        "queued": True,
    }
    assert sent == [game.pk]
    assert Client().get(f"/api/tables/{game.pk}/analysis").json()["queued"] is False
    analyse_all(game.pk)
    body = Client().get(f"/api/tables/{game.pk}/analysis").json()
    assert body["status"] == "ready" and body["complete"]
    seqs = [d["seq"] for d in body["decisions"]]
    assert seqs == sorted(seqs) and len(seqs) == Decision.objects.count()
    for d in body["decisions"]:
        assert {"seq", "seat", "action", "best", "cost", "label"} <= set(d)
        assert d["label"] in LABELS and d["seat"] == 0
        assert isinstance(d["cost"], float) and isinstance(d["action"], dict)


def test_a_private_games_analysis_is_for_its_players(
    alice, bob, carol, api_for, sent, waiting, played
):
    table = finished_table([alice, bob], bots=1, seed="analysis-private", public=False)
    assert api_for(bob).get(f"/api/tables/{table.pk}/analysis").status_code == 200
    assert error_of(api_for(carol).get(f"/api/tables/{table.pk}/analysis")) == (
        403,
        "not_seated",
    )
    assert error_of(Client().get(f"/api/tables/{table.pk}/analysis"))[0] == 403
    bad = Client().get(f"/api/tables/{table.pk}/analysis", HTTP_AUTHORIZATION="Bearer nonsense")
    assert error_of(bad) == (401, "bad_token")
    assert error_of(api_for(carol).post(f"/api/tables/{table.pk}/analysis"))[0] == 403


def test_a_player_asks_whatever_the_queue_and_others_may_not(
    game, bob, api_for, sent, waiting, settings
):
    waiting["n"] = 1000
    GameAnalysis.objects.filter(pk=game.pk).update(queued=None)
    sent.clear()
    # A reader's first look does not queue it while the queue is long...
    assert Client().get(f"/api/tables/{game.pk}/analysis").json()["queued"] is False
    # ...a stranger may not ask...
    assert error_of(api_for(bob).post(f"/api/tables/{game.pk}/analysis")) == (403, "not_seated")
    assert sent == []
    # ...its player may: queued at once, whatever the queue.
    response = api_for(game.host).post(f"/api/tables/{game.pk}/analysis")
    assert response.status_code == 202 and response.json()["queued"]
    assert sent == [game.pk]
    assert GameAnalysis.objects.get(pk=game.pk).requested_by_id == game.host_id


def test_asking_is_rate_limited(game, api_for, sent, settings):
    settings.MAYI_RATE_LIMITS = {**settings.MAYI_RATE_LIMITS, "analysis": "2/3600"}
    client = api_for(game.host)
    assert client.post(f"/api/tables/{game.pk}/analysis").status_code == 202
    assert client.post(f"/api/tables/{game.pk}/analysis").status_code == 202
    refused = client.post(f"/api/tables/{game.pk}/analysis")
    assert error_of(refused) == (429, "rate_limited") and int(refused["Retry-After"]) > 0
    # The page's button counts against the same limit.
    page = Client()
    page.force_login(game.host)
    assert page.post(f"/tables/{game.pk}/analysis/").status_code == 429


# -- the statistics page -------------------------------------------------------------------------


def test_the_stats_page_shows_the_decisions_and_a_button_to_ask(
    alice, bob, fake_engine, sent, waiting, played
):
    waiting["n"] = 1000  # nothing analysed by default here
    analysed = played(alice, [], bots=2, seed="analysis-page-1")
    other = played(alice, [], bots=2, seed="analysis-page-2")
    services.analysis_request(table_id=analysed.pk, user=alice)
    analyse_all(analysed.pk)
    mine = Decision.objects.filter(user=alice)
    page = Client()
    page.force_login(alice)
    html = page.get("/players/alice/").content.decode()
    assert 'id="decisions"' in html and 'id="decision-costs"' in html
    average = sum(d.cost for d in mine) / mine.count()
    assert f'<td class="cost">{average:.2f}</td>' in html
    wrong = mine.exclude(label="best")
    top = max({d.pattern for d in wrong}, key=lambda p: wrong.filter(pattern=p).count())
    assert top[0].upper() + top[1:] in html  # the most frequent mistake, listed
    assert 'id="chart-decision-cost"' in html
    # The game not analysed: its button, for alice only.
    assert f'action="/tables/{other.pk}/analysis/"' in html
    assert f'action="/tables/{analysed.pk}/analysis/"' not in html
    stranger = Client()
    stranger.force_login(bob)
    assert (
        f'action="/tables/{other.pk}/analysis/"'
        not in stranger.get("/players/alice/").content.decode()
    )
    # The button asks for it, whatever the queue, and says so.
    sent.clear()
    response = page.post(f"/tables/{other.pk}/analysis/", {"next": "/players/alice/"}, follow=True)
    assert sent == [other.pk]
    assert f"Game #{other.pk} will be analysed shortly" in response.content.decode()
    assert "being analysed" in page.get("/players/alice/").content.decode()


def test_the_stats_pages_decisions_as_json_with_the_pages_numbers(
    alice, bob, fake_engine, sent, waiting, played
):
    waiting["n"] = 1000
    analysed = played(alice, [], bots=2, seed="analysis-json-1")
    services.analysis_request(table_id=analysed.pk, user=alice)
    analyse_all(analysed.pk)
    mine = Decision.objects.filter(user=alice)
    reader = Client()
    reader.force_login(bob)
    body = reader.get("/api/players/alice/analysis").json()
    assert body["username"] == "alice" and body["scope"] == "all"
    (bga,) = body["rulesets"]
    assert bga["ruleset"] == "bga" and bga["decisions"] == mine.count()
    assert bga["cost"] == pytest.approx(sum(d.cost for d in mine) / mine.count())
    assert bga["wrong"] == mine.exclude(label="best").count()
    discards = next(k for k in bga["kinds"] if k["kind"] == "discard")
    assert discards["decisions"] == mine.filter(kind="discard").count()
    wrong = mine.exclude(label="best")
    counts = Counter((d.kind, d.pattern) for d in wrong)
    first = body["patterns"][0]
    assert first["times"] == max(counts.values())
    assert counts[(first["kind"], first["pattern"])] == first["times"]
    assert [g["table"] for g in body["games"]] == [analysed.pk]
    assert body["games"][0]["decisions"] == mine.count()
    # Another ruleset's scope has nothing; an unknown one is every ruleset, as on the page.
    assert reader.get("/api/players/alice/analysis?ruleset=rook").json()["rulesets"] == []
    assert reader.get("/api/players/alice/analysis?ruleset=nope").json()["scope"] == "all"
    # Whoever may not read her statistics may not read this either.
    Profile.objects.update_or_create(user=alice, defaults={"stats_hidden": True})
    refused = reader.get("/api/players/alice/analysis")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "stats_hidden"
    assert reader.get("/api/players/nobody/analysis").status_code == 404
    assert Client().get("/api/players/alice/analysis").status_code == 401  # as the stats JSON
    own = Client()
    own.force_login(alice)
    assert own.get("/api/players/alice/analysis").json()["rulesets"][0]["decisions"] == mine.count()


def test_a_player_with_no_analysed_game_is_told_how_they_come(alice, bob):
    page = Client()
    page.force_login(alice)
    html = page.get("/players/alice/").content.decode()
    assert 'id="decisions-none"' in html and "ask for one" in html
    assert "No analysed game yet." in html  # of every ruleset: none named


def test_the_labels_are_in_cards_of_the_ruleset():
    from analysis.labels import label

    # bga: a card is 7.1 points on average; rook: 1.
    assert [label(c, c / 2, c * 2, "bga") for c in (0.5, 4.9, 14.1, 14.2)] == [
        "best",
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    assert [label(c, c / 2, c * 2, "rook") for c in (0.05, 0.6, 1.9, 2)] == [
        "best",
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    assert label(9, -1, 19, "bga") == "best"  # the interval reaches 0: it may be the best


def test_engine_choices_play_in_the_engine(game):
    """The site's decision points are the engine's: each is a move of a person where
    ``decision_kind`` names a decision."""
    seats = list(Seat.objects.filter(table=game))
    points = list(run.decision_points(game, seats))
    assert points and all(engine.decision_kind(p.state, 0) == p.kind for p in points)


def test_a_players_download_holds_their_weighed_decisions(game, fake_engine):
    from privacy.services import export_files

    analyse_all(game.pk)
    rows = json.loads(export_files(game.host)["analysis.json"])
    assert [r["move"] for r in rows] == list(
        Decision.objects.filter(user=game.host).order_by("seq").values_list("seq", flat=True)
    )
    assert rows[0]["table"] == game.pk and rows[0]["label"] in LABELS


def test_the_samples_are_shared_from_what_is_left_of_the_budget(settings):
    settings.MAYI_ANALYSIS_SAMPLES = 32
    plan = run.plan_samples
    assert plan(left=100, decisions_left=10, sample_seconds=None) == run.FIRST_SAMPLES
    assert plan(left=100, decisions_left=10, sample_seconds=0.1) == 32  # 100 affordable
    assert plan(left=10, decisions_left=10, sample_seconds=0.1) == 10  # the even share
    # Under the even share but MIN_SAMPLES still fit: the next decision gets them.
    assert plan(left=1, decisions_left=10, sample_seconds=0.1) == run.MIN_SAMPLES
    assert plan(left=0.3, decisions_left=10, sample_seconds=0.1) == 0  # spent: stop
    assert plan(left=0, decisions_left=1, sample_seconds=None) == 0
