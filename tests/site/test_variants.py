"""The house variants through the site: tables made through the API with each ruleset, whole
games with server-side bots, round results recorded per ruleset, the lobby form's options."""

from __future__ import annotations

import pytest

from games import engine
from games.engine.bots import choose_action
from games.engine.cards import face_data
from games.engine.rulesets import RULESETS
from games.forms import TableForm
from games.models import Table
from stats.models import RoundRecord

from .conftest import error_of


def make_table(client, ruleset: str, seats: int, **extra) -> dict:
    response = client.post("/api/tables", {"ruleset": ruleset, "seats": seats, **extra})
    assert response.status_code == 201, response.content
    tid = response.json()["table"]["id"]
    assert client.post(f"/api/tables/{tid}/bots").status_code == 200
    response = client.post(f"/api/tables/{tid}/start")
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize(
    "ruleset, seats, extra",
    [
        ("petras", 4, {}),
        ("classic", 3, {}),
        ("rook", 2, {}),
        ("rook", 4, {"engine_options": {"round7": "books"}}),
    ],
)
def test_a_whole_game_with_bots_for_each_variant(ruleset, seats, extra, alice, api_for):
    client = api_for(alice)
    body = make_table(client, ruleset, seats, **extra)
    tid = body["table"]["id"]
    table = Table.objects.get(pk=tid)
    assert table.ruleset == ruleset and table.state["ruleset"] == ruleset
    actions = 0
    while body["table"]["status"] == "playing":
        table.refresh_from_db()
        view = body["view"]
        assert view["ruleset"] == ruleset
        assert all(view["faces"][c] == face_data(c) for c in view["hand"])
        assert 0 in engine.seats_to_act(table.state), "alice is waited on only"
        action = choose_action(table.state, 0)
        response = client.act(tid, body["table"]["version"], **action)
        assert response.status_code == 200, (action, response.content)
        body = response.json()
        actions += 1
        assert actions < 3000
    assert body["view"]["game_over"] and body["view"]["places"]
    results = RoundRecord.objects.filter(table_id=tid)
    assert results.count() == 7 * seats
    assert set(results.values_list("ruleset", flat=True)) == {ruleset}
    table.refresh_from_db()
    totals = [0] * seats
    for r in results:
        totals[r.seat] += r.score
    assert totals == table.state["totals"]


def test_the_api_lets_the_engine_vet_the_variants_options(alice, api_for):
    client = api_for(alice)
    for payload in (
        {"ruleset": "bga", "seats": 2},
        {"ruleset": "petras", "seats": 7},
        {"ruleset": "rook", "engine_options": {"round7": "both"}},
        {"ruleset": "classic", "engine_options": {"round7": "books"}},
        {"ruleset": "gin"},
    ):
        assert error_of(client.post("/api/tables", payload))[0] == 400, payload


def test_a_swap_wild_action_passes_the_api_schema(alice, api_for):
    client = api_for(alice)
    body = make_table(client, "rook", 3)
    tid = body["table"]["id"]
    response = client.act(tid, body["table"]["version"], type="swap_wild", meld="m1", card="x7R")
    # Well formed: the engine (not the schema) refuses it, whatever the position.
    assert response.status_code in (400, 409)
    assert error_of(response)[1] not in ("bad_request", "invalid_json")


def test_the_lobby_form_offers_each_ruleset_with_its_description():
    form = TableForm()
    labels = dict(form.fields["ruleset"].choices)
    assert set(labels) == set(RULESETS)
    # A short name in the menu (a long one made the lobby wider than a phone); the engine's
    # description beside it.
    descriptions = dict(form.ruleset_descriptions())
    for name, rules in RULESETS.items():
        assert name in labels[name] and len(labels[name]) < 45
        assert descriptions[name] == rules.description
    data = {
        "ruleset": "rook",
        "seats": 2,
        "turn_seconds": 3600,
        "window_seconds": 3600,
        "strikes": 3,
        "round7": "books",
    }
    form = TableForm(data)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["engine_options"] == {"round7": "books"}
    assert "round7" not in form.cleaned_data
    form = TableForm({**data, "ruleset": "petras", "seats": 4})
    assert form.is_valid() and "engine_options" not in form.cleaned_data


def test_the_lobby_page_creates_a_variant_table(alice, client):
    client.force_login(alice)
    response = client.post(
        "/tables/new/",
        {
            "ruleset": "classic",
            "seats": 5,
            "turn_seconds": 3600,
            "window_seconds": 3600,
            "strikes": 3,
            "public": "on",
        },
    )
    assert response.status_code in (200, 302)
    assert Table.objects.filter(ruleset="classic", host=alice).exists()
