"""The tournaments' API: create, join, withdraw, start, the detail's pinned shape, refusals in
the one error shape with registered codes."""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from games.models import Seat, Table
from social.services import block_add
from stats.models import Reliability
from tests.site.tournament_helpers import create, players, started
from tournaments.models import Entry, RoundTable, Tournament
from tournaments.services import tournaments_tick


def test_create_answers_201_with_the_tournament(alice, api_for):
    body = create(api_for(alice), name="  Spring   Cup ")
    t = body["tournament"]
    assert t["name"] == "Spring Cup" and t["status"] == "registering"
    assert t["round"] == 0 and t["rounds"] == 3 and t["table_size"] == 3
    assert t["registered"] is True  # the creator plays
    assert body["standings"][0]["username"] == "alice"
    assert body["rounds"] == []


def test_create_refuses_a_table_size_out_of_range(alice, api_for):
    for size in (2, 7):
        response = api_for(alice).post(
            "/api/tournaments",
            {"name": "x", "table_size": size, "turn_seconds": 3600, "window_seconds": 600},
        )
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "bad_options"


def test_join_withdraw_and_start(db, django_user_model, api_for):
    users = players(django_user_model, 4)
    tid = create(api_for(users[0]))["tournament"]["id"]
    bob = api_for(users[1])
    assert bob.post(f"/api/tournaments/{tid}/join").status_code == 200
    # Joining twice is harmless.
    assert bob.post(f"/api/tournaments/{tid}/join").json()["tournament"]["players"] == 2
    # Not the creator: refused.
    refused = bob.post(f"/api/tournaments/{tid}/start")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_creator"
    # Too few players.
    few = api_for(users[0]).post(f"/api/tournaments/{tid}/start")
    assert few.status_code == 409 and few.json()["error"]["code"] == "too_few_players"
    assert bob.post(f"/api/tournaments/{tid}/withdraw").status_code == 200
    gone = bob.post(f"/api/tournaments/{tid}/withdraw")
    assert gone.status_code == 409 and gone.json()["error"]["code"] == "not_registered"
    for user in users[1:]:
        assert api_for(user).post(f"/api/tournaments/{tid}/join").status_code == 200
    response = api_for(users[0]).post(f"/api/tournaments/{tid}/start")
    assert response.status_code == 200
    body = response.json()
    assert body["tournament"]["status"] == "playing" and body["tournament"]["round"] == 1
    (first,) = body["rounds"]
    assert first["number"] == 1 and first["status"] == "playing"
    # 4 players at tables of 3: one table of 4.
    assert [len(t["seats"]) for t in first["tables"]] == [4]
    assert sorted(first["tables"][0]["seats"]) == ["alice", "bob", "carol", "dave"]
    late = api_for(django_user_model.objects.create_user("zed", "", "pw"))
    closed = late.post(f"/api/tournaments/{tid}/join")
    assert closed.status_code == 409 and closed.json()["error"]["code"] == "tournament_started"


def test_detail_has_the_pinned_shape_and_shared_seed_hashes(db, django_user_model, api_for):
    users = players(django_user_model, 6)
    tournament = started(api_for, users)
    body = api_for(users[3]).get(f"/api/tournaments/{tournament.pk}").json()
    assert set(body) >= {"tournament", "standings", "rounds"}
    assert set(body["tournament"]) >= {"id", "name", "status", "round", "rounds"}
    assert body["tournament"]["status"] == "playing"
    for line in body["standings"]:
        assert set(line) >= {"username", "points", "duplicate", "games"}
    (first,) = body["rounds"]
    assert set(first) >= {"number", "status", "tables"}
    tables = first["tables"]
    assert len(tables) == 2
    for t in tables:
        assert set(t) >= {"id", "seed_hash", "seats"} and len(t["seats"]) == 3
    # The same deal at both tables: the same seed hash, never the seed itself.
    assert tables[0]["seed_hash"] == tables[1]["seed_hash"]
    rows = {t.pk: t for t in Table.objects.filter(pk__in=[t["id"] for t in tables])}
    seed = rows[tables[0]["id"]].state["seed"]
    assert seed not in str(body)
    assert rows[tables[0]["id"]].state["hands"] == rows[tables[1]["id"]].state["hands"]
    seated = sorted(u for t in tables for u in t["seats"])
    assert seated == sorted(u.username for u in users)


def test_a_private_tournament_needs_its_invite_code(db, django_user_model, api_for):
    alice, bob = players(django_user_model, 2)
    body = create(api_for(alice), public=False)
    tid, code = body["tournament"]["id"], body["tournament"]["invite_code"]
    assert code
    hidden = api_for(bob).get(f"/api/tournaments/{tid}")
    assert hidden.status_code == 403 and hidden.json()["error"]["code"] == "invite_required"
    refused = api_for(bob).post(f"/api/tournaments/{tid}/join")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "invite_required"
    joined = api_for(bob).post(f"/api/tournaments/{tid}/join", {"invite_code": code})
    assert joined.status_code == 200 and joined.json()["tournament"]["registered"]


def test_cap_of_players(db, django_user_model, api_for):
    users = players(django_user_model, 4)
    tid = create(api_for(users[0]), max_players=3)["tournament"]["id"]
    for user in users[1:3]:
        assert api_for(user).post(f"/api/tournaments/{tid}/join").status_code == 200
    full = api_for(users[3]).post(f"/api/tournaments/{tid}/join")
    assert full.status_code == 409 and full.json()["error"]["code"] == "tournament_full"


def test_unknown_tournament_is_404(alice, api_for):
    response = api_for(alice).get("/api/tournaments/999")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "tournament_not_found"
    assert Tournament.objects.count() == 0


def test_a_minimum_reliability_refuses_players_below_it(db, django_user_model, api_for):
    alice, bob, carol, dave = players(django_user_model, 4)
    tid = create(api_for(alice), min_reliability=0.8)["tournament"]["id"]
    # bob finished 9 of his last 10 games, carol 5 of 10, dave is new (too few to show).
    Reliability.objects.create(user=bob, games=10, finished=9)
    Reliability.objects.create(user=carol, games=10, finished=5)
    assert api_for(bob).post(f"/api/tournaments/{tid}/join").status_code == 200
    for user in (carol, dave):
        refused = api_for(user).post(f"/api/tournaments/{tid}/join")
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "below_tournament_reliability"
    assert api_for(alice).get(f"/api/tournaments/{tid}").json()["tournament"]["players"] == 2


def test_players_who_blocked_each_other_are_seated_apart(db, django_user_model, api_for):
    users = players(django_user_model, 6)
    erin, frank = users[4], users[5]
    block_add(user=erin, username=frank.username)
    tid = create(api_for(users[0]))["tournament"]["id"]
    for user in users[1:]:
        assert api_for(user).post(f"/api/tournaments/{tid}/join").status_code == 200
    # A seed whose drawn order of round 1 would seat erin and frank at the first table.
    entries = sorted(Entry.objects.filter(tournament_id=tid), key=lambda e: e.pk)
    for n in range(1000):
        order = list(entries)
        random.Random(f"s{n}").shuffle(order)
        if {erin.pk, frank.pk} <= {e.user_id for e in order[:3]}:
            Tournament.objects.filter(pk=tid).update(seed=f"s{n}")
            break
    assert api_for(users[0]).post(f"/api/tournaments/{tid}/start").status_code == 200
    # The pairing keeps them apart as it keeps repeat opponents apart; the block refuses no seat.
    tables = RoundTable.objects.filter(round__tournament_id=tid)
    assert tables.count() == 2
    for rt in tables:
        seated = set(Seat.objects.filter(table=rt.table).values_list("user_id", flat=True))
        assert not {erin.pk, frank.pk} <= seated


def test_registration_closing_starts_the_tournament_or_ends_it_unplayed(
    db, django_user_model, api_for
):
    users = players(django_user_model, 3)
    soon = timezone.now() + timedelta(hours=1)
    full = create(api_for(users[0]), registration_closes=soon.isoformat())["tournament"]["id"]
    empty = create(api_for(users[0]), registration_closes=soon.isoformat())["tournament"]["id"]
    for user in users[1:]:
        api_for(user).post(f"/api/tournaments/{full}/join")
    assert tournaments_tick()["started"] == 0  # not yet
    done = tournaments_tick(now=soon + timedelta(seconds=1))
    assert done["started"] == 2
    started_one = Tournament.objects.get(pk=full)
    assert started_one.status == "playing" and started_one.round == 1
    unplayed = Tournament.objects.get(pk=empty)
    assert unplayed.status == "finished" and unplayed.cancelled


def test_the_pages_create_join_and_start(db, django_user_model, client):
    alice, bob, carol = players(django_user_model, 3)
    client.force_login(alice)
    form = {
        "name": "Form Cup",
        "ruleset": "bga",
        "table_size": 3,
        "rounds": 2,
        "turn_hours": 24,
        "window_minutes": 60,
        "round_days": 7,
        "max_players": 8,
        "public": "on",
    }
    made = client.post("/tournaments/new/", form)
    tournament = Tournament.objects.get(name="Form Cup")
    assert made.status_code == 302 and made["Location"] == f"/tournaments/{tournament.pk}/"
    assert tournament.turn_seconds == 24 * 3600 and tournament.round_seconds == 7 * 86400
    for user in (bob, carol):
        client.force_login(user)
        client.post(f"/tournaments/{tournament.pk}/join/")
    client.force_login(alice)
    client.post(f"/tournaments/{tournament.pk}/start/")
    tournament.refresh_from_db()
    assert tournament.status == "playing"
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Round 1" in page and "your table" in page
    listing = client.get("/tournaments/").content.decode()
    assert "Form Cup" in listing and 'id="tournaments-playing"' in listing


def test_staff_organise_a_tournament_they_do_not_play(db, django_user_model, api_for):
    staff = django_user_model.objects.create_user("organiser", "", "pw", is_staff=True)
    users = players(django_user_model, 3)
    body = create(api_for(staff), play=False)
    tid = body["tournament"]["id"]
    assert body["standings"] == [] and body["tournament"]["registered"] is False
    # A player may not make one they do not play in.
    refused = api_for(users[0]).post(
        "/api/tournaments",
        {"name": "x", "turn_seconds": 3600, "window_seconds": 600, "play": False},
    )
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_options"
    for user in users:
        assert api_for(user).post(f"/api/tournaments/{tid}/join").status_code == 200
    started_body = api_for(staff).post(f"/api/tournaments/{tid}/start").json()
    assert started_body["tournament"]["status"] == "playing"
    (table,) = started_body["rounds"][0]["tables"]
    assert sorted(table["seats"]) == sorted(u.username for u in users)
