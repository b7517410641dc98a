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
