"""GET /metrics: Prometheus exposition of this process, to loopback or the bearer token."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.engine.bots import choose_action
from games.models import Seat, Table

from .conftest import error_of


def scrape(client: Client | None = None, **extra: Any) -> str:
    response = (client or Client()).get("/metrics", **extra)
    assert response.status_code == 200, response.content[:200]
    return response.content.decode()


def sample(text: str, name: str, **labels: str) -> float:
    """The value of the sample ``name{labels}`` (0 when absent)."""
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        match = re.match(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)", line)
        if not match or match.group(1) != name:
            continue
        got = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', match.group(3) or ""))
        if all(got.get(k) == v for k, v in labels.items()):
            return float(match.group(4))
    return 0.0


@pytest.mark.django_db
def test_metrics_from_loopback_are_prometheus_text():
    response = Client().get("/metrics")  # the test client's REMOTE_ADDR is 127.0.0.1
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    text = response.content.decode()
    assert "# TYPE mayi_actions_total counter" in text
    assert "# TYPE mayi_action_seconds histogram" in text
    for name in (
        "mayi_http_requests_total", "mayi_http_request_seconds", "mayi_websockets_open",
        "mayi_ws_frames_sent_total", "mayi_deadline_lateness_seconds", "mayi_sweeps_total",
        "mayi_emails_total", "mayi_pushes_total", "mayi_rate_limited_total",
        "mayi_unavailable_total",
    ):  # fmt: skip
        assert f"# TYPE {name.removesuffix('_total')}" in text, name


@pytest.mark.django_db
def test_prometheus_on_the_host_scrapes_by_address_whatever_the_allowed_hosts(settings):
    settings.ALLOWED_HOSTS = ["mayi.example.com"]
    response = Client().get("/metrics", HTTP_HOST="127.0.0.1:8001")
    assert response.status_code == 200 and b"mayi_actions_total" in response.content
    assert Client().get("/rules/", HTTP_HOST="127.0.0.1:8001").status_code == 400
    refused = Client(REMOTE_ADDR="203.0.113.9").get("/metrics", HTTP_HOST="127.0.0.1:8001")
    assert refused.status_code == 404


@pytest.mark.django_db
def test_metrics_refused_to_other_addresses_without_the_token(settings):
    settings.MAYI_METRICS_TOKEN = "s3cret-token"
    elsewhere = Client(REMOTE_ADDR="203.0.113.9")
    assert elsewhere.get("/metrics").status_code in (403, 404)
    assert elsewhere.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code in (403, 404)
    answer = elsewhere.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token")
    assert answer.status_code == 200 and b"mayi_actions_total" in answer.content
    settings.MAYI_METRICS_TOKEN = ""
    assert elsewhere.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code in (403, 404)


def test_counters_move_after_a_game(bot_game, api_for, alice):
    """alice plays a whole game against two bots through the API: the actions' counters,
    the latency histogram, the HTTP counters and a refused action all show in /metrics."""
    before = scrape()
    client = api_for(alice)
    table = bot_game
    refused = client.act(table.pk, table.version, type="discard", card="nope")
    assert error_of(refused)[0] in (400, 409)
    played: dict[str, int] = {}
    while True:
        table = Table.objects.get(pk=table.pk)
        if table.status != Table.Status.PLAYING:
            break
        seat = Seat.objects.get(table=table, user=alice).position
        assert seat in engine.seats_to_act(table.state)
        action = choose_action(table.state, seat)
        response = client.act(table.pk, table.version, **action)
        assert response.status_code == 200, response.content
        played[action["type"]] = played.get(action["type"], 0) + 1
    after = scrape()
    for kind, count in played.items():
        moved = sample(after, "mayi_actions_total", type=kind, outcome="ok") - sample(
            before, "mayi_actions_total", type=kind, outcome="ok"
        )
        assert moved == count, kind
    total = sum(played.values()) + 1
    assert (
        sample(after, "mayi_action_seconds_count", type="draw")
        - sample(before, "mayi_action_seconds_count", type="draw")
        == played["draw"]
    )
    route = "api/tables/<int:table_id>/actions"
    assert (
        sample(after, "mayi_http_requests_total", route=route, method="POST", status="200")
        - (sample(before, "mayi_http_requests_total", route=route, method="POST", status="200"))
        == total - 1
    )
    assert (
        sample(after, "mayi_http_request_seconds_count", route=route)
        - sample(before, "mayi_http_request_seconds_count", route=route)
        == total
    )
    refusals = [
        line for line in after.splitlines()
        if line.startswith("mayi_actions_total{") and 'type="discard"' in line and "ok" not in line
    ]  # fmt: skip
    assert refusals, "the refused discard is counted with its error code"


def test_rate_limit_refusals_are_counted(bot_game, api_for, alice, settings):
    settings.MAYI_RATE_LIMITS = {**settings.MAYI_RATE_LIMITS, "action": "1/60"}
    before = sample(scrape(), "mayi_rate_limited_total", scope="action")
    client = api_for(alice)
    client.act(bot_game.pk, 0, type="draw", source="stock")
    assert client.act(bot_game.pk, 0, type="draw", source="stock").status_code == 429
    assert sample(scrape(), "mayi_rate_limited_total", scope="action") == before + 1


def test_a_fired_deadline_records_its_lateness(bot_game):
    from datetime import timedelta

    from django.utils import timezone

    from games.services.play import table_timeout_turn

    before = scrape()
    table = Table.objects.get(pk=bot_game.pk)
    due = timezone.now() - timedelta(seconds=3)
    Table.objects.filter(pk=table.pk).update(turn_deadline=due)
    assert table_timeout_turn(table_id=table.pk, now=due + timedelta(seconds=3))
    after = scrape()
    count = "mayi_deadline_lateness_seconds_count"
    assert (
        sample(after, count, kind="turn", via="sweep")
        == sample(before, count, kind="turn", via="sweep") + 1
    )
    total = "mayi_deadline_lateness_seconds_sum"
    late = sample(after, total, kind="turn", via="sweep") - sample(
        before, total, kind="turn", via="sweep"
    )
    assert 2.9 < late < 3.1


def test_emails_and_pushes_are_counted_sent_or_failed(alice, settings, monkeypatch):
    from django.core import mail as django_mail

    from accounts import mail
    from notify import push
    from notify import services as notify_services
    from notify.models import PushSubscription

    before = scrape()
    mail._send(django_mail.EmailMessage("s", "b", "f@example.com", ["a@example.com"]), "account")

    def broken(*args, **kwargs):
        raise OSError("smtp down")

    monkeypatch.setattr(django_mail.EmailMessage, "send", broken)
    mail._send(django_mail.EmailMessage("s", "b", "f@example.com", ["a@example.com"]), "account")
    monkeypatch.undo()
    PushSubscription.objects.create(
        user=alice, endpoint="https://push.example.net/a", p256dh="k", auth="a"
    )
    PushSubscription.objects.create(
        user=alice, endpoint="https://push.example.net/b", p256dh="k", auth="a"
    )
    outcomes = iter([push.Outcome(True, False, 201), push.Outcome(False, False, 500)])
    monkeypatch.setattr(push, "send", lambda **kwargs: next(outcomes))
    notify_services.push_to_user(user_id=alice.pk, kind="test", key="k1", payload={})
    after = scrape()

    def moved(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert moved("mayi_emails_total", kind="account", outcome="sent") == 1
    assert moved("mayi_emails_total", kind="account", outcome="failed") == 1
    assert moved("mayi_pushes_total", kind="test", outcome="sent") == 1
    assert moved("mayi_pushes_total", kind="test", outcome="failed") == 1


WORKER = r"""
import json, multiprocessing, os, socket, sys, urllib.request
import django
django.setup()
from mayi_site import celery as mayi_celery, metrics

def child(n):
    for _ in range(n):
        metrics.count_email("multi", ok=True)
    metrics.frames_sent.inc(n)

if __name__ == "__main__":
    ctx = multiprocessing.get_context("fork")  # as Celery's prefork children are made
    procs = [ctx.Process(target=child, args=(n,)) for n in (2, 3)]
    for p in procs: p.start()
    for p in procs: p.join()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
    os.environ["MAYI_WORKER_METRICS_PORT"] = str(port)
    mayi_celery._serve_worker_metrics()
    print(urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode())
"""


def test_a_prefork_workers_children_are_summed_on_its_metrics_port(tmp_path):
    """Celery's prefork children count in files of PROMETHEUS_MULTIPROC_DIR; the worker's own
    port serves their sum (mayi_site/celery.py)."""
    import os
    import subprocess
    import sys

    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "mayi_site.settings",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
        "PYTHONPATH": str(__import__("pathlib").Path(__file__).resolve().parents[2]),
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert sample(done.stdout, "mayi_emails_total", kind="multi", outcome="sent") == 5
    assert sample(done.stdout, "mayi_ws_frames_sent_total") == 5
