"""HTTP edges an outside check found (issue 30): API refusals keep the security headers, and
HEAD on API GET routes answers as GET does, without a body."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["put", "delete", "patch"])
def test_api_405s_carry_csp_and_frame_options(method):
    response = getattr(Client(), method)("/api/tables")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert "GET" in response["Allow"]
    assert response["Content-Type"].startswith("application/json")


@pytest.mark.django_db
def test_other_api_refusals_keep_them_too():
    response = Client().get("/api/no-such-thing")
    assert response.status_code == 404
    assert "Content-Security-Policy" in response and "X-Frame-Options" in response


@pytest.mark.parametrize("path", ["/api/tables", "/api/openapi.json", "/api/tables/{table}"])
def test_head_on_api_get_routes_answers_like_get_without_a_body(path, bot_game, api_for, alice):
    client = api_for(alice).client
    path = path.format(table=bot_game.pk)
    got = client.get(path)
    head = client.head(path)
    assert got.status_code == 200
    assert head.status_code == 200, head.content
    assert head.content == b""
    assert head["Content-Type"] == got["Content-Type"]
    # The table's answer names the version I had seen before this read: a byte or two apart.
    assert abs(int(head["Content-Length"]) - len(got.content)) <= 8


def test_head_is_refused_where_get_is(api_for, charlie):
    from tests.site.conftest import error_of

    client = api_for(charlie).client
    missing = client.get("/api/tables/987654")
    head = client.head("/api/tables/987654")
    assert error_of(missing) == (404, "table_not_found")
    assert head.status_code == 404 and head.content == b""
    assert Client().head("/api/tables").status_code == Client().get("/api/tables").status_code


@pytest.mark.django_db
def test_head_does_not_open_a_post_route():
    response = Client().head("/api/tables/play-now")
    assert response.status_code == 405
