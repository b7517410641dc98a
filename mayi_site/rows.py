"""A model's rows read by hand-compiled SQL, made into instances as Django makes them.

Django compiles a queryset anew on every execution (and ``raw()`` maps the columns to the fields
anew on every one too); for the few statements every move or request runs, that was most of
their CPU. ``Columns`` builds a model's select list once, and turns a row back into an
instance with the converters Django applies, so the rest of the code cannot tell the
difference (games/services/rows.py, accounts/tokens.py).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, cast

import orjson
from django.db import connection
from django.db.models import JSONField, Model
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.signals import ModelSignal, post_init, pre_init

Converter = Callable[[Any, Any, Any], Any]


def _json_value(value: Any, expression: Any, conn: Any) -> Any:
    """``JSONField.from_db_value`` (no decoder) with orjson: what it cannot read (an integer
    past 64 bits) goes to the field's own json.loads."""
    if not isinstance(value, str | bytes):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return expression.target.from_db_value(value, expression, conn)


class Columns:
    """A model's concrete columns under a table alias: the select list, and turning a slice of
    a row back into an instance (None for the missing side of an outer join)."""

    def __init__(self, model: type[Model], alias: str) -> None:
        quote = connection.ops.quote_name
        self.model = model
        fields = model._meta.concrete_fields
        self.width = len(fields)
        self.sql = ", ".join(f"{alias}.{quote(cast(str, f.column))}" for f in fields)
        self.attnames = [f.attname for f in fields]
        self.pk_index = next(i for i, f in enumerate(fields) if f.primary_key)
        self.converters: list[tuple[int, list[Converter], Any]] = []
        for i, field in enumerate(fields):
            col = field.get_col(alias)
            found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if isinstance(field, JSONField) and field.decoder is None:
                # The JSON columns (a table's state, a move's events) decoded by orjson, a
                # quarter of the standard library's CPU for a game's state: the same objects.
                found = [_json_value if c == field.from_db_value else c for c in found]
            if found:
                self.converters.append((i, found, col))
        self.plain = _plain(model, self.attnames)

    def load(self, row: Sequence[Any], start: int) -> Model | None:
        values = list(row[start : start + self.width])
        if values[self.pk_index] is None:
            return None
        for i, converters, col in self.converters:
            value = values[i]
            for convert in converters:
                value = convert(value, col, connection)
            values[i] = value
        if not self.plain or _listened(pre_init, self.model) or _listened(post_init, self.model):
            return self.model.from_db(connection.alias, self.attnames, values)
        # What Model.from_db makes of a full row, without Model.__init__'s general path (its
        # field loop, its two signals' sends), in about half of from_db's CPU; the locked read
        # of every move makes 14 (a table, its host, 4 seats, their users and profiles).
        # tests/site/test_rows.py checks that both ways give the same instances.
        instance = self.model.__new__(self.model)
        state = ModelState()
        state.adding = False
        state.db = connection.alias
        attrs = instance.__dict__
        attrs["_state"] = state
        attrs.update(zip(self.attnames, values, strict=True))
        return instance


def _listened(signal: ModelSignal, model: type[Model]) -> bool:
    """Whether ``signal`` has a receiver for ``model``. ``Signal.send``'s own shortcut first: no
    receiver at all, for any model, costs no lookup (``has_listeners`` alone was a fifth of an
    instance's making)."""
    return bool(signal.receivers) and signal.has_listeners(model)


def _plain(model: type[Model], attnames: list[str]) -> bool:
    """Whether a row of ``model`` may be made into an instance by filling its ``__dict__``: the
    model keeps Django's own ways of making and loading instances and of setting attributes, and
    no attribute is a descriptor that would take the assignment (a property with a setter). A
    foreign key's id is one, but on a new instance it only stores the value (it forgets a
    cached related object when the id changes, and there is none yet)."""
    if (
        model.__init__ is not Model.__init__
        or model.__setattr__ is not Model.__setattr__
        or model.from_db.__func__ is not Model.from_db.__func__  # type: ignore[attr-defined]
    ):
        return False
    for name in attnames:
        descriptor = inspect.getattr_static(model, name, None)
        if hasattr(descriptor, "__set__") and type(descriptor) is not ForeignKeyDeferredAttribute:
            return False
    return True
