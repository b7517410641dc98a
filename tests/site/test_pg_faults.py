"""PostgreSQL faults and races, as a client sees them (issue 14).

- A backend terminated (``pg_terminate_backend``: a restart, a failover, an operator) between
  requests costs nothing: the pool checks each connection it hands out. Terminated in the
  middle of a request, that request answers 503 ``unavailable`` with ``Retry-After``, the
  move is not applied, and the one retry applies it once. Never a 500.
- Ten sign-ups of one username at once: one account, one welcome, nine form errors.
- Ten "new API token" clicks of one session at once: no 500, one token left, and the token the
  profile page then shows is the one that works.

Each request runs in a thread of its own that closes its connections afterwards, as a daphne
request thread does (Django's test client keeps one connection across requests instead).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any
from urllib.parse import quote

import psycopg
import pytest
from django.conf import settings
from django.db import connection, connections
from django.test import Client

from accounts.models import ApiToken
from games import engine
from games.engine.bots import choose_action
from games.models import Move, Seat, Table
from tests.conftest import PASSWORD, ApiClient
from tests.site.test_concurrency import race

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql")),
        reason="needs DATABASE_URL pointing at PostgreSQL (pg_terminate_backend)",
    ),
    pytest.mark.django_db(transaction=True),
]


def admin_connection() -> psycopg.Connection[Any]:
    """A connection of our own, outside Django's pool, to terminate the site's backends."""
    db = settings.DATABASES["default"]
    return psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=int(db["PORT"] or 5432),
        user=db["USER"] or "postgres",
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
        autocommit=True,
    )


def terminate(pids: list[int] | None = None) -> int:
    """Terminate the given backends (default: every other backend of the test database) and
    wait until they are gone; the number terminated."""
    with admin_connection() as admin:
        if pids is None:
            rows = admin.execute(
                "select pid from pg_stat_activity "
                "where datname = current_database() and pid <> pg_backend_pid()"
            ).fetchall()
            pids = [r[0] for r in rows]
        for pid in pids:
            admin.execute("select pg_terminate_backend(%s)", (pid,))
        for _ in range(200):
            alive = admin.execute(
                "select count(*) from pg_stat_activity where pid = any(%s)", (pids,)
            ).fetchone()
            if alive is None or alive[0] == 0:
                break
            threading.Event().wait(0.01)
    return len(pids)


def in_request_thread(call: Any) -> Any:
    """Run ``call`` in a fresh thread that returns its connections afterwards, as a request
    thread of the site does at the end of each request."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(call())
        except Exception as exc:  # surfaced by the caller's assertions
            out.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    return out[0]


def lenient_api(user: Any, token: str) -> ApiClient:
    client = ApiClient(user, token)
    client.client.raise_request_exception = False
    return client


def started_table(alice: Any, bob: Any) -> Table:
    from games import services

    table = services.table_create(host=alice, seats=3)
    services.table_join(user=bob, table_id=table.pk)
    services.table_fill_with_bots(user=alice, table_id=table.pk)
    services.table_start(user=alice, table_id=table.pk, seed="pg-faults")
    table.refresh_from_db()
    return table


def act_with_one_retry(client: ApiClient, table_id: int, version: int, action: dict) -> list[int]:
    """What a careful client does: send, and on 503 wait and send the same thing once more."""
    statuses = []
    for _ in range(2):
        response = in_request_thread(lambda: client.act(table_id, version, **action))
        statuses.append(response.status_code)
        if response.status_code != 503:
            break
        assert response.json()["error"]["code"] == "unavailable"
        assert response["Retry-After"]
    return statuses


def person_to_move(table: Table) -> tuple[int, Any] | None:
    people = {s.position: s.user for s in Seat.objects.filter(table=table, user__isnull=False)}
    movers = [s for s in engine.seats_to_act(table.state) if s in people]
    return (movers[0], people[movers[0]]) if movers else None


def fill_the_pool(client: Any, n: int = 8) -> None:
    """Leave ``n`` idle connections in the pool, as a site that served a burst has."""
    statuses = race([lambda: client.get("/api/tables").status_code for _ in range(n)])
    assert statuses == [200] * n


def test_backends_terminated_between_requests_cost_no_request(alice, bob):
    """Every idle connection of a full pool dead at once: the next request must neither fail
    nor sleep through the pool's backoff for each dead one (1 + 2 + 4 + ... s: with 8 it ran
    out the pool's 20 s timeout, a 503)."""
    from accounts.tokens import token_issue

    table = started_table(alice, bob)
    tokens = {u.pk: token_issue(user=u) for u in (alice, bob)}
    for _ in range(3):
        table.refresh_from_db()
        mover = person_to_move(table)
        assert mover is not None
        seat, user = mover
        client = lenient_api(user, tokens[user.pk])
        fill_the_pool(client)
        connections.close_all()  # this thread's connection goes too: it is an operator's kill
        assert terminate() >= 4
        started = time.monotonic()
        listing = in_request_thread(lambda c=client: c.get("/api/tables"))
        assert listing.status_code == 200, listing.content
        assert time.monotonic() - started < 3
        fill_the_pool(client)
        connections.close_all()
        terminate()
        started = time.monotonic()
        action = choose_action(table.state, seat)
        assert act_with_one_retry(client, table.pk, table.version, action) == [200]
        assert time.monotonic() - started < 3
    table.refresh_from_db()
    assert table.move_count == Move.objects.filter(table=table).count() > 0


def test_the_pool_trusts_an_idle_connection_without_a_round_trip_until_its_backend_ends(
    monkeypatch,
):
    from psycopg_pool import ConnectionPool

    from mayi_site import dbpool

    full = ConnectionPool.check_connection
    round_trips: list[object] = []

    def counted(conn: object) -> None:
        round_trips.append(conn)
        full(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))

    db = settings.DATABASES["default"]
    conn = psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=int(db["PORT"] or 5432),
        user=db["USER"] or "postgres",
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
        autocommit=True,
    )
    try:
        pid = conn.info.backend_pid
        assert dbpool.quiet(conn)
        dbpool.check_connection(conn)
        assert round_trips == [], "nothing to read on its socket: no round trip"
        conn.execute("begin")
        assert not dbpool.quiet(conn), "a connection in a transaction is checked in full"
        conn.execute("rollback")
        assert terminate([pid]) == 1
        # The ended backend said so on the socket: the full check runs, and fails.
        assert not dbpool.quiet(conn)
        with pytest.raises(psycopg.OperationalError):
            dbpool.check_connection(conn)
        assert round_trips == [conn]
    finally:
        conn.close()


def test_a_backend_terminated_mid_move_is_503_then_one_retry_applies_it_once(
    alice, bob, monkeypatch
):
    from accounts.tokens import token_issue

    table = started_table(alice, bob)
    mover = person_to_move(table)
    assert mover is not None
    seat, user = mover
    client = lenient_api(user, token_issue(user=user))
    action = choose_action(table.state, seat)
    before_version, before_moves = table.version, Move.objects.filter(table=table).count()

    real_apply = engine.apply
    killed: list[int] = []

    def apply_then_lose_the_backend(*args: Any, **kwargs: Any) -> Any:
        # Inside the move's transaction, with the table row locked: the backend dies here.
        if not killed:
            pid = connection.connection.info.backend_pid
            killed.append(pid)
            terminate([pid])
        return real_apply(*args, **kwargs)

    monkeypatch.setattr(engine, "apply", apply_then_lose_the_backend)
    statuses = act_with_one_retry(client, table.pk, table.version, action)
    assert killed and statuses == [503, 200], statuses
    table.refresh_from_db()
    first = Move.objects.filter(table=table).order_by("seq")[before_moves]
    assert table.version == before_version + 1
    assert first.action == action and first.seat == seat  # applied once, by the retry

    # A second kill on the next move of the game, after the retry: the same once more.
    mover = person_to_move(table)
    if mover is not None:
        killed.clear()
        seat, user = mover
        client = lenient_api(user, token_issue(user=user))
        assert act_with_one_retry(
            client, table.pk, table.version, choose_action(table.state, seat)
        ) == [503, 200]


def test_every_backend_terminated_mid_request_then_pages_and_sign_up_work(alice, monkeypatch):
    """The issue's report: after every connection was killed the next GETs answered 500, and
    a minute later sign-ups still hit dead pooled connections."""
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)
    fill_the_pool(browser)
    connections.close_all()
    terminate()
    started = time.monotonic()
    for path in ("/api/tables", "/", "/rules/"):
        response = in_request_thread(lambda p=path: browser.get(p))
        assert response.status_code == 200, (path, response.status_code)
    assert time.monotonic() - started < 4
    signup = in_request_thread(
        lambda: Client(raise_request_exception=False).post(
            "/accounts/signup/",
            {
                "username": "erin",
                "email": "erin@example.com",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
    )
    assert signup.status_code == 302


def test_ten_sign_ups_of_one_username_at_once_make_one_account(db, django_user_model, settings):
    settings.MAYI_RATE_LIMITS_ENABLED = False  # ten sign-ups from one address is the point here
    clients = [Client(raise_request_exception=False) for _ in range(10)]
    form = {"username": "zed", "password1": PASSWORD, "password2": PASSWORD}
    responses = race(
        [
            lambda c=c, i=i: c.post("/accounts/signup/", {**form, "email": f"zed{i}@example.com"})
            for i, c in enumerate(clients)
        ]
    )
    statuses = sorted(getattr(r, "status_code", r) for r in responses)
    assert statuses == [302] + [400] * 9, statuses
    for r in responses:
        if r.status_code == 400:
            assert b"already exists" in r.content
    assert django_user_model.objects.filter(username="zed").count() == 1
    # The one that got the account is signed in as it.
    winner = next(c for c, r in zip(clients, responses, strict=True) if r.status_code == 302)
    assert winner.get("/accounts/profile/").status_code == 200


def test_ten_token_issues_of_one_session_at_once_leave_the_shown_token_working(alice):
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].value
    clicks = []
    for _ in range(10):
        c = Client(raise_request_exception=False)
        c.cookies[settings.SESSION_COOKIE_NAME] = cookie
        clicks.append(c)
    responses = race([lambda c=c: c.post("/accounts/profile/token/") for c in clicks])
    statuses = [getattr(r, "status_code", repr(r)) for r in responses]
    assert all(s == 302 for s in statuses), statuses
    assert ApiToken.objects.filter(user=alice).count() == 1
    page = browser.get("/accounts/profile/")
    assert page.status_code == 200
    shown = [
        word
        for word in page.content.decode().replace("<", " ").replace(">", " ").split()
        if word.startswith("mayi_") and len(word) > 20
    ]
    assert shown, "the page shows the new token once"
    if shown:  # it must be the one that works
        response = ApiClient(alice, shown[0]).get("/api/tables")
        assert response.status_code == 200, f"the token shown ({quote(shown[0][:10])}...) fails"
