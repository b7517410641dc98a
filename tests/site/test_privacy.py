"""My data: the download of everything the site holds about me, and deleting my account."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken
from chat import services as chat
from games import engine, services
from games.models import Seat, Table
from games.services import enqueue
from moderation.models import Report
from notify.models import PushSubscription
from privacy import tasks as privacy_tasks
from privacy.models import DataExport
from stats.models import Rating
from tests.site.conftest import error_of
from tests.site.stats_play import play_game


@pytest.fixture
def run_privacy(monkeypatch: Any, django_capture_on_commit_callbacks: Any) -> Any:
    """The privacy tasks run as soon as the commit queues them (as a worker would):
    ``with run_privacy(): ...`` around the request."""

    def send_task(name: str, args: tuple, **options: Any) -> None:
        if name.startswith("privacy."):
            getattr(privacy_tasks, name.rsplit(".", 1)[1])(*args)

    monkeypatch.setattr(enqueue, "send_task", send_task)
    return lambda: django_capture_on_commit_callbacks(execute=True)


def unzip(content: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def export_zip(
    client: Any, run: Any, *, token: str | None = None
) -> tuple[dict[str, Any], dict[str, bytes]]:
    with run():
        created = client.post("/api/me/export")
    assert created.status_code == 202, created.content
    body = created.json()
    assert set(body["export"]) == {"id", "status"}
    status = client.get(f"/api/me/export/{body['export']['id']}").json()
    assert status["status"] == "ready", status
    url = status["url"]
    path = url.split("testserver", 1)[1]
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    download = Client().get(path, **headers)
    assert download.status_code == 200
    assert download["Content-Type"] == "application/zip"
    return status, unzip(download.content)


def test_export_holds_profile_games_chat_reports_ratings_and_stats(
    run_privacy, alice, bob, carol, api_for
):
    finished = play_game(alice, [bob], bots=1, seed="export-finished")
    chat.chat_post(table_id=finished.pk, user=alice, text="good game, bob")
    Report.objects.create(reporter=alice, table=finished, reason="other", note="test note")
    client = api_for(alice)
    status, files = export_zip(client.client, run_privacy, token=client.token)
    assert {"profile.json", "games.json", "chat.json", "reports.json", "ratings.json"} <= set(files)
    assert {"statistics.json", "games.csv", "chat.csv"} <= set(files)
    profile = json.loads(files["profile.json"])
    assert profile["username"] == "alice" and profile["email"] == "alice@example.com"
    games = json.loads(files["games.json"])
    game = next(g for g in games if g["table"] == finished.pk)
    assert game["seed"] == finished.state["seed"] and game["status"] == "finished"
    assert len(game["moves"]) == finished.move_count
    assert [m["text"] for m in json.loads(files["chat.json"])] == ["good game, bob"]
    assert json.loads(files["reports.json"])[0]["note"] == "test note"
    assert b"good game, bob" in files["chat.csv"]
    assert status["expires"]


def test_an_unfinished_game_shows_only_what_my_seat_saw(run_privacy, alice, bob, carol, api_for):
    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_join(user=carol, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="export-unfinished")
    users = {s.position: s.user for s in Seat.objects.filter(table=table).select_related("user")}
    table.refresh_from_db()
    from games.engine.bots import choose_action

    for _ in range(25):
        seat = engine.seats_to_act(table.state)[0]
        table, _ = services.table_submit_action(
            table_id=table.pk,
            user=users[seat],
            action=choose_action(table.state, seat),
            expect_version=table.version,
        )
    mine = Seat.objects.get(table=table, user=alice).position
    mine_api = api_for(alice)
    _, files = export_zip(mine_api.client, run_privacy, token=mine_api.token)
    game = next(g for g in json.loads(files["games.json"]) if g["table"] == table.pk)
    assert game["seed"] is None and game["status"] == "playing"
    # Every stock draw of another seat is there, without its card; mine carry theirs.
    others_draws = [
        e
        for m in game["moves"]
        for e in m["events"]
        if e.get("source") == "stock" and "seat" in e and e["seat"] != mine
    ]
    my_draws = [
        e
        for m in game["moves"]
        for e in m["events"]
        if e.get("source") == "stock" and e.get("seat") == mine and "card" in e
    ]
    assert others_draws and my_draws
    assert all("card" not in e for e in others_draws)
    # Nor any card another seat holds now that it took from the stock.
    text = json.dumps(game)
    drawn_by_others = {
        e["card"]
        for m in table.moves.all()
        for e in m.events
        if e.get("source") == "stock" and e.get("seat") not in (mine, None) and "card" in e
    }
    held = {c for pos, hand in enumerate(table.state["hands"]) if pos != mine for c in hand}
    assert drawn_by_others & held
    assert not [c for c in drawn_by_others & held if f'"{c}"' in text]


def test_the_link_is_for_its_owner_and_24_hours(run_privacy, alice, bob, api_for):
    client = api_for(alice)
    status, _ = export_zip(client.client, run_privacy, token=client.token)
    export_id = status["id"]
    path = status["url"].split("testserver", 1)[1]
    # Another player: neither the status nor the file, with their session or their token.
    assert error_of(api_for(bob).get(f"/api/me/export/{export_id}")) == (404, "export_not_found")
    other = Client()
    other.force_login(bob)
    assert other.get(path).status_code == 404
    assert Client().get(path, HTTP_AUTHORIZATION=f"Bearer {api_for(bob).token}").status_code == 404
    assert Client().get(path).status_code == 404  # signed out
    mine = Client()
    mine.force_login(alice)
    assert mine.get(path).status_code == 200
    assert mine.get(path.replace(path.split("/")[-2], "wrong-token")).status_code == 404
    DataExport.objects.filter(pk=export_id).update(expires=timezone.now() - timedelta(seconds=1))
    assert mine.get(path).status_code == 404
    assert client.get(f"/api/me/export/{export_id}").json()["status"] == "expired"
    assert privacy_tasks.expire_exports() == 1
    assert DataExport.objects.get(pk=export_id).content is None


def test_an_export_waits_for_its_task(
    alice, api_for, monkeypatch, django_capture_on_commit_callbacks
):
    queued: list[tuple[str, tuple]] = []
    monkeypatch.setattr(enqueue, "send_task", lambda name, args, **kw: queued.append((name, args)))
    client = api_for(alice)
    with django_capture_on_commit_callbacks(execute=True):
        created = client.post("/api/me/export").json()["export"]
    assert created["status"] == "pending"
    assert queued == [("privacy.tasks.build_export", (created["id"],))]
    assert client.get(f"/api/me/export/{created['id']}").json() == {
        "id": created["id"],
        "status": "pending",
        "url": None,
        "expires": None,
        "size": None,
    }
    privacy_tasks.build_export(created["id"])
    assert client.get(f"/api/me/export/{created['id']}").json()["status"] == "ready"
    assert privacy_tasks.build_export(created["id"]) == "gone"  # a second run does nothing


def test_delete_my_account(run_privacy, alice, bob, carol, api_for):
    finished = play_game(alice, [bob], bots=1, seed="delete-finished")
    playing = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=playing.pk)
    services.table_join(user=carol, table_id=playing.pk)
    services.table_start(user=alice, table_id=playing.pk, seed="delete-playing")
    waiting = services.table_create(host=bob, seats=3)
    services.table_join(user=alice, table_id=waiting.pk)
    said = chat.chat_post(table_id=finished.pk, user=alice, text="my secret plan")
    PushSubscription.objects.create(
        user=alice, endpoint="https://push.example.net/x", p256dh="k", auth="a"
    )
    report = Report.objects.create(
        reporter=bob, reported_user=alice, table=finished, reason="abuse", note="rude"
    )
    session = Client()
    session.force_login(alice)
    client = api_for(alice)
    token = client.token
    assert Client().get("/players/alice/").status_code == 200
    assert Rating.objects.filter(user=alice).exists()

    assert error_of(client.post("/api/me/delete", {"password": "wrong"})) == (403, "wrong_password")
    assert User.objects.get(pk=alice.pk).username == "alice"
    answer = client.post("/api/me/delete", {"password": "a long enough password 42"})
    assert answer.status_code == 200, answer.content
    name = f"deleted-{alice.pk}"
    assert answer.json() == {"deleted": True, "username": name}

    gone = User.objects.get(pk=alice.pk)
    assert gone.username == name and gone.email == "" and not gone.has_usable_password()
    assert Client().get("/players/alice/").status_code == 404
    assert error_of(Client(HTTP_AUTHORIZATION=f"Bearer {token}").get("/api/tables"))[0] == 401
    assert not ApiToken.objects.filter(user=alice).exists()
    assert session.get("/accounts/profile/").status_code == 302  # signed out
    assert not PushSubscription.objects.filter(user=alice).exists()
    said.refresh_from_db()
    assert said.text == "" and said.author_id == alice.pk
    # Games kept, the seat under the new name; the one being played goes on with the bot.
    assert Seat.objects.get(table=finished, user=alice).user.username == name
    seat = Seat.objects.get(table=playing, user=alice)
    assert seat.expelled
    assert not Seat.objects.filter(table=waiting, user=alice).exists()
    replay = Client().get(f"/tables/{finished.pk}/replay/")
    assert replay.status_code == 200 and name in replay.content.decode()
    # Off the leaderboard; the moderation record stays.
    assert not Rating.objects.filter(user=alice).exists()
    assert "alice" not in Client().get("/leaderboard/").content.decode()
    assert Report.objects.filter(pk=report.pk, reported_user=alice).exists()
    # The name cannot be signed up for again as a look-alike of the deleted one either.
    assert Table.objects.filter(pk=finished.pk, status=Table.Status.FINISHED).exists()
