""" "Play now" lets the player choose the "May I?" window (10, 20, 30 or 60 seconds; 20 by
default: 10 was shorter than a new player's reaction) and remembers the choice on the profile,
so it follows them to another device; the API keeps its old body and refuses other values."""

from __future__ import annotations

import re

import pytest

from accounts.models import Profile
from games import services
from games.models import Table
from tests.conftest import signed_in_client

pytestmark = pytest.mark.django_db


def test_the_api_defaults_to_20_seconds_takes_a_choice_and_remembers_it(alice, api_for):
    api = api_for(alice)
    first = api.client.post("/api/tables/play-now", b"", content_type="application/json")
    assert first.status_code == 201, first.content
    assert first.json()["table"]["window_seconds"] == 20
    chosen = api.post("/api/tables/play-now", {"window_seconds": 30})
    assert chosen.status_code == 201 and chosen.json()["table"]["window_seconds"] == 30
    assert Profile.objects.get(user=alice).play_now_window_seconds == 30
    # Left out the next time: the one chosen last.
    again = api.post("/api/tables/play-now", {"level": "easy"})
    assert again.status_code == 201 and again.json()["table"]["window_seconds"] == 30


@pytest.mark.parametrize("bad", [15, 0, 600, "20", None, True])
def test_the_api_refuses_any_other_window_in_the_error_shape(alice, api_for, bad):
    api = api_for(alice)
    before = Table.objects.count()
    refused = api.post("/api/tables/play-now", {"window_seconds": bad})
    if bad is None:  # null is "not given": the remembered window
        assert refused.status_code == 201
        return
    assert refused.status_code == 400, refused.content
    error = refused.json()["error"]
    assert error["code"] == "bad_request" and "“May I?” window" in error["message"]
    assert Table.objects.count() == before
    assert not Profile.objects.filter(user=alice, play_now_window_seconds=bad).exists()


def test_the_service_refuses_a_window_outside_the_choices(alice):
    with pytest.raises(services.ServiceError) as refused:
        services.table_play_now(user=alice, window_seconds=15)
    assert refused.value.status == 400 and "10, 20, 30 or 60 seconds" in refused.value.message
    assert Table.objects.count() == 0


def test_the_lobby_form_offers_the_choice_and_another_device_finds_it_again(alice):
    laptop = signed_in_client(alice)
    page = laptop.get("/").content.decode()
    assert 'id="play-now-window"' in page
    assert _checked(page) == "20"
    response = laptop.post("/play/", {"level": "normal", "window_seconds": "60"})
    assert response.status_code == 302
    assert Table.objects.get().options["window_seconds"] == 60
    phone = signed_in_client(alice)
    assert _checked(phone.get("/").content.decode()) == "60"
    assert _checked(phone.get("/play/").content.decode()) == "60"
    # A post without the field (an older page) plays with the one remembered.
    phone.post("/play/", {"level": "normal"})
    assert Table.objects.order_by("-pk").first().options["window_seconds"] == 60
    # A value outside the choices creates nothing.
    phone.post("/play/", {"level": "normal", "window_seconds": "5"})
    assert Table.objects.count() == 2


def _checked(page: str) -> str:
    """The value of the checked window_seconds radio button."""
    for tag in re.findall(r"<input[^>]*name=\"window_seconds\"[^>]*>", page):
        if " checked" in tag:
            found = re.search(r'value="(\d+)"', tag)
            assert found
            return found.group(1)
    return ""
