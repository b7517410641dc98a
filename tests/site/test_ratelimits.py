"""mayi_site/ratelimits.py: counters per user or address in fixed windows, 429 in the error shape."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from mayi_site import ratelimits
from mayi_site.middleware import answer_for
from mayi_site.ratelimits import Rate, RateLimited, check, hit, ratelimited


def test_a_counter_allows_its_count_then_says_how_long_to_wait():
    rate = Rate(3, 60)
    now = 6_000_020.0
    assert [hit("t", "u1", rate=rate, now=now) for _ in range(3)] == [0, 0, 0]
    wait = hit("t", "u1", rate=rate, now=now)
    # A minute, and at most one slice (6 s) more: the hits' slice must leave the window.
    assert 60 <= wait <= 66
    assert hit("t", "u2", rate=rate, now=now) == 0  # another user has their own
    assert hit("t", "u1", rate=rate, now=now + wait - 1) > 0
    assert hit("t", "u1", rate=rate, now=now + wait) == 0  # Retry-After tells the truth


def test_no_client_gets_twice_the_limit_across_a_window_edge():
    """Fixed windows let a client use a whole window's count at its end and another at the
    next one's start (1,300 refused actions in 13.8 s across a minute boundary)."""
    rate = Rate(10, 60)
    edge = 6_000_060.0  # a minute boundary
    assert all(hit("t", "edge", rate=rate, now=edge - 0.5) == 0 for _ in range(10))
    assert all(hit("t", "edge", rate=rate, now=edge + 0.5 + n) > 0 for n in range(20))


def test_in_any_window_no_more_than_the_limit_however_the_hits_come():
    import random

    rng = random.Random(7)
    rate = Rate(20, 60)
    now = 7_000_000.0
    admitted = []
    refused = 0
    for _ in range(3000):
        now += rng.expovariate(1 / 0.4)  # about 150 a minute, in bursts and gaps
        if hit("t", "load", rate=rate, now=now) == 0:
            admitted.append(now)
        else:
            refused += 1
    assert refused > 0
    start = 0
    for end, t in enumerate(admitted):
        while admitted[start] <= t - 60:
            start += 1
        assert end - start + 1 <= 20, f"{end - start + 1} hits in the 60 s up to {t}"
    # Not needlessly strict either: at least the count per window and a slice.
    span = admitted[-1] - admitted[0]
    assert len(admitted) >= 20 * span / 66


def test_refused_hits_are_not_counted():
    rate = Rate(2, 60)
    now = 8_000_000.0
    hit("t", "knock", rate=rate, now=now)
    hit("t", "knock", rate=rate, now=now)
    for n in range(50):
        assert hit("t", "knock", rate=rate, now=now + n) > 0
    assert hit("t", "knock", rate=rate, now=now + 67) == 0


def test_rates_read_seconds_or_units():
    assert Rate.parse("20/60") == Rate(20, 60)
    assert Rate.parse("10/m") == Rate(10, 60)
    assert Rate.parse("10/h") == Rate(10, 3600)
    assert Rate.parse("5") == Rate(5, 60)


def test_the_documented_setting_sets_the_live_limit():
    """MAYI_RATE_CHAT=N/S in the environment (the README's example) is the chat's limit: the
    chat used to read a setting of its own and ignore it."""
    child = (
        "import django; django.setup()\n"
        "from mayi_site.ratelimits import rate_for\n"
        "print(rate_for('chat'), rate_for('report'))\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "mayi_site.settings",
        "MAYI_RATE_CHAT": "3/30",
        "MAYI_RATE_REPORT": "2/h",
    }
    out = subprocess.run(
        [sys.executable, "-c", child], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert "Rate(count=3, seconds=30) Rate(count=2, seconds=3600)" in out


def test_reset_forgets_every_counter():
    rate = Rate(1, 60)
    hit("t", "u", rate=rate)
    assert hit("t", "u", rate=rate)
    ratelimits.reset()
    assert hit("t", "u", rate=rate) == 0


def test_off_switch(settings):
    settings.MAYI_RATE_LIMITS_ENABLED = False
    assert all(hit("t", "u", rate=Rate(1, 60)) == 0 for _ in range(5))


def test_signed_out_callers_count_by_address(settings, rf: RequestFactory):
    settings.MAYI_RATE_LIMITS = {"t": "2/60"}
    request = rf.post("/", REMOTE_ADDR="10.1.2.3")
    check("t", request=request)
    check("t", request=request)
    with pytest.raises(RateLimited) as refused:
        check("t", request=request)
    assert refused.value.status == 429 and refused.value.retry_after >= 1
    check("t", request=rf.post("/", REMOTE_ADDR="10.9.9.9"))


def test_the_decorator_answers_429_in_the_error_shape_for_the_api(settings, rf, alice):
    settings.MAYI_RATE_LIMITS = {"t": "1/60"}

    @ratelimited("t")
    def view(request):
        return HttpResponse("ok")

    request = rf.post("/api/x")
    request.user = alice
    assert view(request).status_code == 200
    with pytest.raises(RateLimited) as refused:
        view(request)
    response = answer_for(request, refused.value)
    assert response.status_code == 429
    assert response["Retry-After"]
    assert json.loads(response.content)["error"]["code"] == "rate_limited"
    assert view(rf.get("/api/x")).status_code == 200  # only POSTs count


def test_an_unknown_scope_is_a_programming_error():
    with pytest.raises(KeyError):
        hit("no-such-scope", "u")


def test_table_creation_is_limited_per_user_with_429_in_the_error_shape(
    alice, bob, api_for, settings
):
    from tests.site.conftest import error_of

    settings.MAYI_RATE_LIMITS = {**settings.MAYI_RATE_LIMITS, "table_create": "2/600"}
    client = api_for(alice)
    for _ in range(2):
        assert client.post("/api/tables", {"seats": 3}).status_code == 201
    refused = client.post("/api/tables", {"seats": 3})
    assert error_of(refused) == (429, "rate_limited")
    assert int(refused["Retry-After"]) >= 1
    assert api_for(bob).post("/api/tables", {"seats": 3}).status_code == 201


def test_actions_are_limited_per_user(three_player_game, api_for, settings):
    from tests.site.conftest import error_of
    from tests.site.test_actions_api import players, whose_turn

    settings.MAYI_RATE_LIMITS = {**settings.MAYI_RATE_LIMITS, "action": "2/60"}
    table = three_player_game
    client = api_for(players(table)[whose_turn(table)])
    for _ in range(2):
        client.act(table.pk, 0, type="draw", source="stock")  # stale: refused, still counted
    assert error_of(client.act(table.pk, table.version, type="draw", source="stock")) == (
        429,
        "rate_limited",
    )


def test_sign_ups_from_one_address_are_limited(db, settings):
    from django.test import Client

    settings.MAYI_RATE_LIMITS = {**settings.MAYI_RATE_LIMITS, "signup_ip": "2/3600"}
    client = Client()
    for n in range(2):
        password = "a long enough password 42"
        data = {"username": f"u{n}", "email": "", "password1": password, "password2": password}
        assert Client().post("/accounts/signup/", data).status_code == 302
    refused = client.post("/accounts/signup/", {"username": "u9"})
    assert refused.status_code == 429
    assert 3600 <= int(refused["Retry-After"]) <= 3600 + 360
    page = refused.content.decode()
    assert "<title>Too many attempts" in page and "Not here" not in page
    # In words a person reads: "try again in 60 minutes", never "1726 s".
    wait = re.search(r"Please try again in (\d+) minutes\.", page)
    assert wait and 60 <= int(wait.group(1)) <= 66, page[-600:]
    assert " s<" not in page and "too many requests: try again" not in page


def test_password_spraying_from_one_address_is_limited_across_accounts(
    alice, bob, carol, charlie, settings
):
    """One guess per account stays under axes' per-username lockout; the address limit stops
    the spray."""
    from django.test import Client

    settings.MAYI_RATE_LIMITS = {**settings.MAYI_RATE_LIMITS, "login_ip": "3/900"}
    client = Client()
    for user in (alice, bob, carol):
        assert (
            client.post(
                "/accounts/login/", {"username": user.username, "password": "Summer2026!"}
            ).status_code
            == 200
        )
    refused = client.post("/accounts/login/", {"username": "charlie", "password": "Summer2026!"})
    assert refused.status_code == 429
    other = Client(REMOTE_ADDR="10.0.0.2")
    assert (
        other.post("/accounts/login/", {"username": "charlie", "password": "x"}).status_code == 200
    )


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="one process shares nothing to test")
def test_every_process_of_the_site_counts_against_the_same_counters():
    # Two daphne processes behind a proxy (deploy/): a client the proxy spreads over both
    # must meet the limit once, not once per process. Each child is a process of its own.
    ident = f"a-proc-{uuid.uuid4().hex}"
    child = (
        "import sys, django; django.setup()\n"
        "from mayi_site.ratelimits import Rate, hit\n"
        "print(hit('signup_ip', sys.argv[1], rate=Rate(2, 3600)))\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mayi_site.settings"}
    waits = [
        int(
            subprocess.run(
                [sys.executable, "-c", child, ident],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout.split()[-1]
        )
        for _ in range(3)
    ]
    assert waits[:2] == [0, 0]
    assert waits[2] > 0
