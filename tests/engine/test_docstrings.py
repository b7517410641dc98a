"""The examples in the engine's docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games.engine

# Every module of the engine, those of its subpackages (the bots) too.
MODULES = sorted(
    m.name.removeprefix("games.engine.")
    for m in pkgutil.walk_packages(games.engine.__path__, "games.engine.")
)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docstrings_hold(name: str) -> None:
    module = importlib.import_module(f"games.engine.{name}")
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0, f"{failed} docstring example(s) of games.engine.{name} failed (see above)"
