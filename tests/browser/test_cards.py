"""The cards as a player sees them: the four MAYI letters each with a shape of its own (told
apart in greyscale) and a colour that passes WCAG AA on the white card and under its white
letter; the wild a card of its own colour; the Rook card shows the bird; card backs for the
other hands and the stock."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.pages import signed_in_page
from tests.browser.tables import arranged_table, shoot
from tests.browser.test_rook_controls import SWAP_TABLE, _arranged
from tests.live.wsutil import close_db_pools  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("close_db_pools"),
]

LETTERS = {"hands": {0: "7M 7A 7Y 7I ? 12M", 1: "3M 4M 5M"}, "active": 0, "phase": "draw"}


def _luminance(colour: str) -> float:
    channels = [float(v) / 255 for v in re.findall(r"[\d.]+", colour)[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _cards(page: Any) -> dict[str, dict[str, Any]]:
    """Per card of my hand (by face): its ink, its background, its symbol's shape and fill,
    and the ink of the letter drawn inside the symbol."""
    return {
        c["label"]: c
        for c in page.evaluate(
            """() => [...document.querySelectorAll('#hand [data-card] .pc')].map((el) => {
              const shape = el.querySelector('.sym-big .sym-shape > *');
              const letter = el.querySelector('.sym-big .sym-l');
              const css = getComputedStyle(el);
              return {
                label: el.dataset.label, ink: css.color, card: css.backgroundColor,
                image: css.backgroundImage,
                shape: shape ? shape.tagName + ' ' + [...shape.attributes].map((a) => a.value).join(' ') : null,
                fill: shape ? getComputedStyle(shape).fill : null,
                letterInk: letter ? getComputedStyle(letter).color : null,
                word: (el.querySelector('.wild-word') || { dataset: {} }).dataset.t || null,
              };
            })"""
        )
    }


def test_the_letters_differ_in_shape_and_colour_and_the_wild_stands_out(
    live_server, browser, alice, pool
):
    table_id, _ = pool.submit(arranged_table, alice, **LETTERS).result()
    page = signed_in_page(browser, live_server.url, alice)
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#hand [data-card]")
        cards = _cards(page)
        letters = [cards[f"7{s}"] for s in "MAYI"]
        # Four shapes: in greyscale the letters are still told apart.
        assert len({c["shape"] for c in letters}) == 4
        # Four colours, each at least 4.5:1 on the white card and under its white letter.
        assert len({c["ink"] for c in letters}) == 4
        for c in letters:
            assert contrast(c["ink"], c["card"]) >= 4.5, c
            assert contrast(c["letterInk"], c["fill"]) >= 4.5, c
        # The same letter, the same look, whatever its number.
        assert cards["12M"]["shape"] == cards["7M"]["shape"]
        assert cards["12M"]["ink"] == cards["7M"]["ink"]
        # The wild: a card of its own colour, saying so.
        wild = cards["?"]
        assert "gradient" in wild["image"] and wild["word"] == "WILD"
        assert all(c["image"] == "none" for c in letters)
        # Backs: each other hand as a fan of its size, and the stock.
        fans = page.eval_on_selector_all(
            "#players .seat", "els => els.map((e) => e.querySelectorAll('.fan .pc-back').length)"
        )
        sizes = page.eval_on_selector_all(
            "#players .seat .hand-count", "els => els.map((e) => Number(e.textContent))"
        )
        assert fans[:2] == sizes[:2] and sizes[0] == 3
        assert page.locator("#stock .pc-back").count() == 1
        shoot(page, "cards-letters")
    finally:
        page.context.close()


def test_the_rook_card_shows_the_bird(live_server, browser, alice, bob, pool):
    hands = {**SWAP_TABLE["hands"], "alice": [*SWAP_TABLE["hands"]["alice"], "y*"]}
    table_id, _ = pool.submit(_arranged, alice, bob, **{**SWAP_TABLE, "hands": hands}).result()
    page = signed_in_page(browser, live_server.url, alice)
    try:
        page.goto(f"{live_server.url}/tables/{table_id}/")
        page.wait_for_selector("#hand [data-card]")
        rook = page.locator("#hand [data-card='y*'] .pc")
        assert rook.locator("svg.bird").count() == 1
        # The Rook on bob's meld has the bird too, and the colours keep their shapes.
        assert page.locator("#melds .pc-rook-bird svg.bird").count() == 1
        cards = _cards(page)
        for label in ("5R", "3K", "11G"):
            assert contrast(cards[label]["ink"], cards[label]["card"]) >= 4.5, cards[label]
        assert len({cards[x]["shape"] for x in ("5R", "3K", "11G")}) == 3
    finally:
        page.context.close()
