"""GET /healthz: what a proxy's active health check asks each process."""

from __future__ import annotations

import json

import pytest


@pytest.mark.django_db
def test_health_answers_ok_without_touching_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert json.loads(response.content) == {"ok": True}
    assert "no-cache" in response["Cache-Control"]
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


@pytest.mark.django_db
def test_health_is_not_redirected_to_https(client, settings):
    # The proxy checks the process over plain HTTP; every other page goes to HTTPS.
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/healthz").status_code == 200
    assert client.get("/rules/").status_code == 301


@pytest.mark.django_db
def test_ready_when_the_database_answers_and_every_migration_is_applied(client, settings):
    settings.MAYI_READY_CHECK_WORKER = False
    response = client.get("/readyz")
    assert response.status_code == 200
    body = json.loads(response.content)
    assert body["ready"] is True
    assert body["checks"]["database"] == "ok" and body["checks"]["migrations"] == "ok"
    assert body["checks"]["worker"] == "skipped"
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_not_ready_names_the_failing_check(client, settings, monkeypatch):
    from mayi_site import health

    settings.MAYI_READY_CHECK_WORKER = True
    response = client.get("/readyz")  # no worker ever beat in this test
    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["ready"] is False and body["failing"] == ["worker"]
    assert body["checks"]["worker"].startswith("error")
    health.heartbeat.beat()
    assert client.get("/readyz").status_code == 200
    # A heartbeat older than two minutes is a dead worker.
    monkeypatch.setattr(health.heartbeat, "last_seen", lambda: __import__("time").time() - 121)
    assert json.loads(client.get("/readyz").content)["failing"] == ["worker"]


@pytest.mark.django_db
def test_not_ready_with_a_migration_missing(client, settings, monkeypatch):
    from mayi_site import health

    settings.MAYI_READY_CHECK_WORKER = False
    monkeypatch.setattr(health, "_migrations_ok_at", 0.0)
    monkeypatch.setattr(
        health.MigrationExecutor,
        "migration_plan",
        lambda self, targets: [(type("M", (), {"app_label": "games", "name": "0099_x"})(), False)],
    )
    response = client.get("/readyz")
    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["failing"] == ["migrations"] and "0099_x" in body["checks"]["migrations"]


@pytest.mark.django_db
def test_not_ready_when_the_database_is_away(client, settings, monkeypatch):
    from django.db import OperationalError

    from mayi_site import health

    settings.MAYI_READY_CHECK_WORKER = False

    def down(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(health.connections["default"], "cursor", down)
    response = client.get("/readyz")
    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["failing"] == ["database"] and "connection refused" in body["checks"]["database"]


def test_not_ready_when_redis_is_down(settings, redis_down):
    from mayi_site import health

    settings.REDIS_URL = redis_down
    assert health.check_redis().startswith("error")
