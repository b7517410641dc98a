"""Who may do what, for every API operation, every page and the websocket (issue 14).

Roles: anonymous, the host, a player, another player (seated at another table), a spectator
(signed in, not seated), an expelled player and staff (not seated), each against a public and a
private table in play. The operations are enumerated from the served OpenAPI schema and the URL
patterns: an endpoint added without an entry in API or PAGES below fails
``test_every_endpoint_has_an_entry`` with its name. Whatever the answer, no role ever gets
another seat's hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games import services
from games.api import api
from games.models import Seat, Table
from tests.live.wsutil import strings_in

ROLES = ["anonymous", "host", "player", "other", "spectator", "expelled", "staff"]
KINDS = ["public", "private"]
SEATED = {"host", "player"}


def may_read(role: str, kind: str) -> bool:
    """Seated players see their table; anyone signed in sees a public one (as a spectator)."""
    return role in SEATED or (kind == "public" and role != "anonymous")


def read(ok: set[int]) -> Callable[[str, str], set[int]]:
    return lambda role, kind: ok if may_read(role, kind) else {403}


def seated(ok: set[int]) -> Callable[[str, str], set[int]]:
    return lambda role, kind: ok if role in SEATED else {403}


def host_only(ok: set[int]) -> Callable[[str, str], set[int]]:
    return lambda role, kind: ok if role == "host" else {403}


def anyone(ok: set[int]) -> Callable[[str, str], set[int]]:
    return lambda role, kind: ok


# (method, OpenAPI path) -> (body, allowed statuses per (role, table kind)). Anonymous callers
# always get 401. Actions carry a stale version: the seated get 409 with their own view.
API: dict[tuple[str, str], tuple[Any, Callable[[str, str], set[int]]]] = {
    ("get", "/api/tables"): (None, anyone({200})),
    ("post", "/api/tables"): ({"seats": 3}, anyone({201})),
    ("post", "/api/tables/play-now"): ({}, anyone({201})),
    ("post", "/api/tables/join"): ({"invite_code": "{invite}"}, anyone({409})),
    ("get", "/api/tables/{table_id}"): (None, read({200})),
    ("post", "/api/tables/{table_id}/join"): (
        None,
        lambda role, kind: {409} if kind == "public" else {403, 409},
    ),
    ("post", "/api/tables/{table_id}/leave"): (None, lambda role, kind: {403, 409}),
    ("post", "/api/tables/{table_id}/bots"): ({"level": "normal"}, host_only({409})),
    ("post", "/api/tables/{table_id}/start"): (None, host_only({409})),
    ("post", "/api/tables/{table_id}/actions"): (
        {"type": "draw", "source": "stock", "expect_version": 0},
        seated({409}),
    ),
    ("post", "/api/tables/{table_id}/orders"): ({"order": "never"}, seated({200})),
    ("post", "/api/tables/{table_id}/check"): ({"cards": []}, seated({200})),
    # "Play again": for the players of a finished game; this one is still in play.
    ("post", "/api/tables/{table_id}/rematch"): (None, lambda role, kind: {403, 409}),
    ("get", "/api/vacation"): (None, anyone({200})),
    ("post", "/api/vacation"): ({"days": 1}, anyone({200})),
    ("post", "/api/vacation/end"): (None, anyone({200})),
    ("get", "/api/tables/{table_id}/chat"): (None, read({200})),
    ("get", "/api/tables/{table_id}/log"): (None, read({200})),
    ("get", "/api/players/{username}/stats"): (None, anyone({200})),
    ("post", "/api/tables/{table_id}/chat"): ({"text": "hello"}, read({201})),
    ("post", "/api/tables/{table_id}/reports"): (
        {"reason": "other", "note": "matrix", "user": "host"},
        read({201, 400}),  # 400: the host may not report themselves
    ),
}

# URL name -> (method, path template, allowed statuses per (role, kind)). Pages answer
# anonymous visitors too (a login redirect is 302).
LOGIN = 302


def page_read(role: str, kind: str) -> set[int]:
    if role == "anonymous":
        return {LOGIN, 403, 200} if kind == "public" else {LOGIN, 403}
    return {200} if may_read(role, kind) else {403}


def page_post(role: str, kind: str) -> set[int]:
    # Table forms redirect back to the table (with a message) whatever the outcome; an empty
    # new-table form is shown again with its errors (400).
    return {LOGIN} if role == "anonymous" else {302, 400, 403}


PAGES: dict[str, tuple[str, str, Callable[[str, str], set[int]]]] = {
    "home": ("get", "/", lambda role, kind: {200}),
    # The home page's lists: each sees their own games (and the open tables), as on the page.
    "lobby_lists": ("get", "/lobby/", lambda role, kind: {200}),
    "healthz": ("get", "/healthz", lambda role, kind: {200}),
    "table": ("get", "/tables/{table_id}/", page_read),
    "invite": ("get", "/join/{invite}/", lambda role, kind: {200, LOGIN}),
    "table_create": ("post", "/tables/new/", page_post),
    "play_now": ("post", "/play/", page_post),
    "rules": ("get", "/rules/", lambda role, kind: {200}),
    "leaderboard": ("get", "/leaderboard/", lambda role, kind: {200}),
    "player_stats": ("get", "/players/host/", lambda role, kind: {200}),
    "stats_privacy": ("post", "/accounts/profile/privacy/", lambda role, kind: {302}),
    # A replay shows every hand: not before the game is over, to anyone.
    "table_replay": ("get", "/tables/{table_id}/replay/", lambda role, kind: {302, 403, 404, 409}),
    "rules_ruleset": ("get", "/rules/bga/", lambda role, kind: {200}),
    "join_by_invite": ("post", "/tables/join/", page_post),
    "table_join": ("post", "/tables/{table_id}/join/", page_post),
    "table_leave": ("post", "/tables/{table_id}/leave/", page_post),
    "table_bots": ("post", "/tables/{table_id}/bots/", page_post),
    "table_start": ("post", "/tables/{table_id}/start/", page_post),
    "table_buy_order": ("post", "/tables/{table_id}/orders/", page_post),
    "signup": ("get", "/accounts/signup/", lambda role, kind: {200, 302}),
    "login": ("get", "/accounts/login/", lambda role, kind: {200}),
    "logout": ("post", "/accounts/logout/", lambda role, kind: {200, 302}),
    "profile": (
        "get",
        "/accounts/profile/",
        lambda role, kind: {LOGIN} if role == "anonymous" else {200},
    ),
    "token_new": ("post", "/accounts/profile/token/", lambda role, kind: {302}),
    "reminders_save": ("post", "/accounts/profile/reminders/", lambda role, kind: {302}),
    "email_save": ("post", "/accounts/profile/email/", lambda role, kind: {302}),
    "vacation_start": ("post", "/accounts/profile/vacation/", lambda role, kind: {302, 405}),
    "vacation_end": ("post", "/accounts/profile/vacation/end/", lambda role, kind: {302}),
    "password_change": (
        "get",
        "/accounts/password_change/",
        lambda role, kind: {LOGIN} if role == "anonymous" else {200},
    ),
    "password_change_done": (
        "get",
        "/accounts/password_change/done/",
        lambda role, kind: {LOGIN} if role == "anonymous" else {200},
    ),
    "password_reset": ("get", "/accounts/password_reset/", lambda role, kind: {200}),
    "password_reset_done": ("get", "/accounts/password_reset/done/", lambda role, kind: {200}),
    "password_reset_confirm": (
        "get",
        "/accounts/reset/x/y/",
        lambda role, kind: {200},
    ),
    "password_reset_complete": ("get", "/accounts/reset/done/", lambda role, kind: {200}),
    # Setting up the second factor is for staff only.
    "otp_setup": (
        "get",
        "/accounts/2fa/",
        lambda role, kind: {LOGIN} if role == "anonymous" else {200} if role == "staff" else {403},
    ),
}
# URL names served by django-ninja (covered by API above) or the admin (staff only, by Django).
NOT_PAGES = {"openapi-json", "openapi-view", "api-root", "bench_write", None}


def api_operations() -> set[tuple[str, str]]:
    schema = api.get_openapi_schema()
    return {
        (method, path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in {"get", "post", "put", "patch", "delete"}
    }


def page_names() -> set[str | None]:
    def walk(patterns: list, prefix: str = "") -> Any:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                text = prefix + str(pattern.pattern)
                if text.startswith(("admin/", "api/")):
                    continue
                yield from walk(pattern.url_patterns, text)
            elif isinstance(pattern, URLPattern) and not (prefix + str(pattern.pattern)).startswith(
                ("api/", "^api/")
            ):
                yield pattern.name

    return set(walk(get_resolver().url_patterns))


def test_every_endpoint_has_an_entry():
    missing_api = sorted(api_operations() - set(API))
    assert not missing_api, (
        "API operations without an entry in tests/site/test_authz_matrix.py API "
        f"(say who may call them): {missing_api}"
    )
    missing_pages = sorted(str(n) for n in page_names() - set(PAGES) - NOT_PAGES)
    assert not missing_pages, (
        f"pages without an entry in tests/site/test_authz_matrix.py PAGES: {missing_pages}"
    )


@pytest.fixture
def world(db, django_user_model) -> dict[str, Any]:
    def user(name: str, **extra: Any) -> Any:
        return django_user_model.objects.create_user(name, f"{name}@example.com", "pw", **extra)

    host, player, expelled = user("host"), user("player"), user("expelled")
    other, spectator = user("other"), user("spectator")
    staff = user("staff", is_staff=True, is_superuser=True)
    tables = {}
    for kind in KINDS:
        table = services.table_create(host=host, seats=3, public=kind == "public")
        services.table_join(user=player, invite_code=table.invite_code)
        services.table_join(user=expelled, invite_code=table.invite_code)
        services.table_start(user=host, table_id=table.pk, seed=f"matrix-{kind}")
        Seat.objects.filter(table=table, user=expelled).update(expelled=True)
        tables[kind] = Table.objects.get(pk=table.pk)
    elsewhere = services.table_create(host=other, seats=3)
    services.table_fill_with_bots(user=other, table_id=elsewhere.pk)
    services.table_start(user=other, table_id=elsewhere.pk, seed="matrix-elsewhere")
    users = {
        "host": host,
        "player": player,
        "other": other,
        "spectator": spectator,
        "expelled": expelled,
        "staff": staff,
    }
    return {"users": users, "tables": tables}


def client_for(world: dict[str, Any], role: str) -> Client:
    client = Client(raise_request_exception=False)
    if role != "anonymous":
        client.force_login(world["users"][role])
    return client


def hands_not_mine(world: dict[str, Any], role: str, table: Table) -> set[str]:
    user = world["users"].get(role)
    mine = {s.position for s in Seat.objects.filter(table=table) if user and s.user_id == user.pk}
    mine -= {s.position for s in Seat.objects.filter(table=table, expelled=True)}
    return {c for i, hand in enumerate(table.state["hands"]) if i not in mine for c in hand}


def assert_no_foreign_cards(body: bytes, foreign: set[str], where: str) -> None:
    try:
        value = json.loads(body)
    except ValueError:
        text = body.decode("utf-8", "replace")
        leaked = {card for card in foreign if f'"{card}"' in text}
    else:
        leaked = strings_in(value) & foreign
    assert not leaked, f"{where}: another seat's cards {sorted(leaked)[:5]}"


def fill(template: str, table: Table) -> str:
    return (
        template.replace("{table_id}", str(table.pk))
        .replace("{invite}", table.invite_code)
        .replace("{username}", "host")
    )


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("role", ROLES)
def test_api_matrix(role, kind, world):
    table = world["tables"][kind]
    client = client_for(world, role)
    foreign = hands_not_mine(world, role, table)
    failures = []
    for (method, path), (body, allowed) in sorted(API.items()):
        url = fill(path, table)
        if body is None:
            response = getattr(client, method)(url)
        else:
            data = json.loads(fill(json.dumps(body), table))
            response = getattr(client, method)(url, data, content_type="application/json")
        expected = {401} if role == "anonymous" else allowed(role, kind)
        if response.status_code not in expected:
            failures.append(f"{method.upper()} {path}: {response.status_code}, want {expected}")
        assert response.status_code < 500, (method, path, response.content[:300])
        if "{table_id}" in path:  # other answers are about other games, with their own cards
            assert_no_foreign_cards(response.content, foreign, f"{method} {path}")
    assert not failures, f"{role} at a {kind} table:\n" + "\n".join(failures)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("role", ROLES)
def test_page_matrix(role, kind, world):
    table = world["tables"][kind]
    client = client_for(world, role)
    foreign = hands_not_mine(world, role, table)
    failures = []
    for name, (method, path, allowed) in sorted(PAGES.items()):
        if name == "logout":
            continue  # would sign the client out for the pages after it
        response = getattr(client, method)(fill(path, table))
        if response.status_code not in allowed(role, kind):
            failures.append(f"{name} {method.upper()} {path}: {response.status_code}")
        assert response.status_code < 500, (name, response.content[:300])
        assert_no_foreign_cards(response.content, foreign, name)
    assert not failures, f"{role} at a {kind} table:\n" + "\n".join(failures)
