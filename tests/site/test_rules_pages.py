"""The rules pages: one per ruleset, with the engine's contracts, deals and penalties."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.engine.rulesets import RULESETS
from rules import content

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_rules_index_links_every_ruleset():
    page = Client().get("/rules/").content.decode()
    for name, rules in RULESETS.items():
        assert f'href="/rules/{name}/"' in page and rules.description in page


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_each_rules_page_shows_the_engines_contracts_deals_and_penalties(name):
    rules = RULESETS[name]
    response = Client().get(f"/rules/{name}/")
    assert response.status_code == 200
    page = text_of(response.content.decode())
    rows = re.findall(r"<tr><td>(\d)</td><td>([^<]+)", response.content.decode())
    assert [(int(n), text.strip()) for n, text in rows] == [
        (r, " or ".join(c.describe() for c in rules.contract_choices(r)))
        for r in range(1, rules.rounds + 1)
    ]
    for r in range(1, rules.rounds + 1):
        assert f"{r} {' or '.join(c.describe() for c in rules.contract_choices(r))}" in page
        assert str(rules.deal_size(r)) in page
    for row in content.penalty_rows(rules):
        expected = "the number on the card" if row.points is None else f"{row.points} point"
        assert f"{row.cards} {expected}" in page
    assert f"{rules.min_players} to {rules.max_players} players" in page
    if rules.max_buys_per_round:
        assert f"at most {rules.max_buys_per_round} times a round" in page
    assert (f"It scores {rules.mayi_meld_score} at once" in page) == rules.mayi_melds
    # No card id on a page for players.
    assert not re.search(r"\b[wbg]\d+[MAYI]\b|\b[pqrs](?:[2-9]|10|[AJQK])[SHDC]\b", page)


def test_the_variants_say_how_they_differ_from_the_default():
    petras = text_of(Client().get("/rules/petras/").content.decode())
    assert "How petras differs" in petras
    assert "You may not lay off on the turn you lay down your contract" in petras
    assert "There are no MAYI melds" in petras
    bga = Client().get("/rules/bga/").content.decode()
    assert 'id="differences"' not in bga


def test_the_penalties_come_from_the_engines_tables():
    assert [(r.cards, r.points) for r in content.penalty_rows(RULESETS["bga"])] == [
        ("1 to 9", None),
        ("10", 15),
        ("11 to 13", 10),
        ("? (wild)", 15),
    ]
    assert [(r.cards, r.points) for r in content.penalty_rows(RULESETS["petras"])][0] == ("A", 15)


def test_an_unknown_ruleset_is_a_page_not_found():
    response = Client().get("/rules/chess/")
    assert response.status_code == 404 and "no ruleset" in response.content.decode()
