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
from games.models import Seat, Table
from mayi_site.api import api
from tests.live.wsutil import strings_in
from tournaments.models import Entry, Tournament

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


# Operations a visitor who is not signed in may call (a public finished game's replay, as its
# page): their answer is the matrix's, not 401.
OPEN_TO_VISITORS = {
    ("get", "/api/tables/{table_id}/replay"),
    ("get", "/api/tables/{table_id}/analysis"),
}


def analysis_of_a_game_in_play(role: str, kind: str) -> set[int]:
    """A game's analysis (issue 33): who may read its replay may read it, and it is not there
    before the game's end (404); a private table's stranger is refused first (403)."""
    return {404} if kind == "public" or role in SEATED else {403}


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
    ("get", "/api/players/{username}/analysis"): (None, anyone({200})),
    # Tournaments (tournaments/api.py): anyone signed in may make one and list them; the
    # matrix's tournament (made by the host, public, registering) answers each role as below.
    ("get", "/api/tournaments"): (None, anyone({200})),
    ("post", "/api/tournaments"): (
        {"name": "matrix cup", "table_size": 3, "turn_seconds": 3600, "window_seconds": 600},
        anyone({201}),
    ),
    ("get", "/api/tournaments/{tournament_id}"): (None, anyone({200})),
    ("post", "/api/tournaments/{tournament_id}/join"): (None, anyone({200})),
    # Joined just above, so each role may withdraw again (the host registered at creation).
    ("post", "/api/tournaments/{tournament_id}/withdraw"): (None, anyone({200})),
    # Only the creator (or staff) starts it, and not with fewer than a table's players.
    ("post", "/api/tournaments/{tournament_id}/start"): (
        None,
        lambda role, kind: {409} if role in ("host", "staff") else {403},
    ),
    # A finished game's replay, as its page: the tables here are in play, so nobody gets it
    # (403 game_not_finished, or not_seated at a private table), signed in or not.
    ("get", "/api/tables/{table_id}/replay"): (None, anyone({403})),
    ("get", "/api/tables/{table_id}/analysis"): (None, analysis_of_a_game_in_play),
    # Asking for it: for the players of a finished game; this one is still in play.
    ("post", "/api/tables/{table_id}/analysis"): (None, analysis_of_a_game_in_play),
    ("post", "/api/tables/{table_id}/chat"): ({"text": "hello"}, read({201})),
    ("post", "/api/tables/{table_id}/reports"): (
        {"reason": "other", "note": "matrix", "user": "host"},
        read({201, 400}),  # 400: the host may not report themselves
    ),
    # Friends and blocks (issue 29): anyone signed in, about anyone ({username} is the host,
    # who may not follow or block themselves: 400).
    # The header's count of my games waiting on me: everyone signed in, their own.
    ("get", "/api/me/waiting"): (None, anyone({200})),
    ("get", "/api/friends"): (None, anyone({200})),
    ("post", "/api/friends/{username}"): (
        None,
        lambda role, kind: {400} if role == "host" else {200},
    ),
    ("delete", "/api/friends/{username}"): (None, anyone({200})),
    ("get", "/api/blocks"): (None, anyone({200})),
    ("post", "/api/blocks/{username}"): (
        None,
        lambda role, kind: {400} if role == "host" else {200},
    ),
    ("delete", "/api/blocks/{username}"): (None, anyone({200})),
    # Inviting a friend: for a player seated at the table, before it starts (this one plays).
    ("post", "/api/tables/{table_id}/invite"): (
        {"username": "host"},
        lambda role, kind: {409} if role in SEATED | {"expelled"} else {403},
    ),
    # Web push: each signed-in user their own browsers. The endpoint here is refused by the
    # SSRF guard (http), so no role stores one and nothing resolves a name.
    ("get", "/api/push/key"): (None, anyone({200})),
    ("get", "/api/push/subscriptions"): (None, anyone({200})),
    (
        "post",
        "/api/push/subscriptions",
    ): (
        {"endpoint": "http://push.invalid/x", "keys": {"p256dh": "B" * 87, "auth": "A" * 22}},
        anyone({400}),
    ),
    ("delete", "/api/push/subscriptions"): ({"endpoint": "https://push.invalid/x"}, anyone({204})),
    # Only one's own restriction is appealed: restriction 999999 is nobody's here.
    ("post", "/api/appeals"): ({"restriction": 999999, "text": "unfair"}, anyone({404})),
    # A nudge: the seated, at a table whose turn has not been held an hour (400); the host
    # and player may hold the turn themselves (409).
    ("post", "/api/tables/{table_id}/nudge"): (None, seated({400, 409})),
    # My data (issue 30): each signed-in user their own; export 999999 is nobody's here, and
    # a wrong password deletes nothing.
    ("post", "/api/me/export"): (None, anyone({202})),
    ("get", "/api/me/export/{export_id}"): (None, anyone({404})),
    ("post", "/api/me/delete"): ({"password": "not the password"}, anyone({403})),
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
    # Readiness, and the metrics: the test client calls from 127.0.0.1 (loopback), whoever
    # is signed in; another address is refused (tests/site/test_metrics.py).
    "readyz": ("get", "/readyz", lambda role, kind: {200}),
    "metrics": ("get", "/metrics", lambda role, kind: {200}),
    # My data: one's own page and downloads; a download nobody owns is not found.
    "privacy_data": (
        "get",
        "/accounts/profile/data/",
        lambda role, kind: {LOGIN} if role == "anonymous" else {200},
    ),
    "privacy_export": ("post", "/accounts/profile/data/export/", lambda role, kind: {302}),
    "privacy_download": (
        "get",
        "/accounts/profile/data/export/999999/nobodys/",
        lambda role, kind: {404},
    ),
    "privacy_delete": ("post", "/accounts/profile/data/delete/", lambda role, kind: {302}),
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
    # Asking for a game's analysis: refused with a message (a game in play), a redirect.
    "analysis_ask": ("post", "/tables/{table_id}/analysis/", lambda role, kind: {LOGIN, 302}),
    "rules_ruleset": ("get", "/rules/bga/", lambda role, kind: {200}),
    # Friends and blocks (issue 29): my own list; the follow/block form about the host (the host
    # about themselves: refused with a message, a redirect all the same).
    "friends": (
        "get",
        "/friends/",
        lambda role, kind: {LOGIN} if role == "anonymous" else {200},
    ),
    "relation_change": ("post", "/players/host/relation/", lambda role, kind: {LOGIN, 302}),
    # Invite a friend to the table (refused with a message unless seated at an open one).
    "table_invite": ("post", "/tables/{table_id}/invite/", page_post),
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
    "service_worker": ("get", "/sw.js", lambda role, kind: {200}),
    "push_prefs_save": ("post", "/accounts/profile/push/", lambda role, kind: {302}),
    "digest_prefs_save": ("post", "/accounts/profile/digest/", lambda role, kind: {302}),
    # Signed out by design (a signed token): this one is forged, so nothing changes.
    "digest_unsubscribe": ("get", "/digest/unsubscribe/forged/", lambda role, kind: {400}),
    "reminders_save": ("post", "/accounts/profile/reminders/", lambda role, kind: {302}),
    "email_save": ("post", "/accounts/profile/email/", lambda role, kind: {302}),
    "vacation_start": ("post", "/accounts/profile/vacation/", lambda role, kind: {302, 405}),
    "vacation_end": ("post", "/accounts/profile/vacation/end/", lambda role, kind: {302}),
    "sleep_save": ("post", "/accounts/profile/sleep/", lambda role, kind: {302}),
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
    # An appeal needs a session or the sign-in refusal page's token; neither names this one.
    "appeal_post": ("post", "/accounts/appeal/", lambda role, kind: {400, 404}),
    # Setting up the second factor is for staff only.
    "tournaments": ("get", "/tournaments/", lambda role, kind: {200}),
    "tournament": ("get", "/tournaments/{tournament_id}/", lambda role, kind: {200}),
    "tournament_create": ("post", "/tournaments/new/", page_post),
    "tournament_join": ("post", "/tournaments/{tournament_id}/join/", page_post),
    "tournament_withdraw": ("post", "/tournaments/{tournament_id}/withdraw/", page_post),
    "tournament_start": ("post", "/tournaments/{tournament_id}/start/", page_post),
    "tournament_invite": ("get", "/tournaments/invite/{tournament_invite}/", lambda r, k: {200}),
    # No round yet: 404 in the site's layout.
    "tournament_deal": (
        "get",
        "/tournaments/{tournament_id}/rounds/1/deal/3/",
        lambda role, kind: {404},
    ),
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
    tournament = Tournament.objects.create(
        name="matrix",
        table_size=3,
        turn_seconds=3600,
        window_seconds=600,
        round_seconds=86400,
        invite_code="matrix-invite",
        max_players=64,
        creator=host,
        seed="matrix",
    )
    Entry.objects.create(tournament=tournament, user=host)
    users = {
        "host": host,
        "player": player,
        "other": other,
        "spectator": spectator,
        "expelled": expelled,
        "staff": staff,
    }
    return {"users": users, "tables": tables, "tournament": tournament}


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
    tournament = Tournament.objects.get(name="matrix")
    return (
        template.replace("{table_id}", str(table.pk))
        .replace("{tournament_id}", str(tournament.pk))
        .replace("{tournament_invite}", tournament.invite_code)
        .replace("{invite}", table.invite_code)
        .replace("{username}", "host")
        .replace("{export_id}", "999999")
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
        visitors_too = (method, path) in OPEN_TO_VISITORS
        expected = {401} if role == "anonymous" and not visitors_too else allowed(role, kind)
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
