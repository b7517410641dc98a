"""A model's rows read by hand-compiled SQL, made into instances as Django makes them.

Django compiles a queryset anew on every execution (and ``raw()`` maps the columns to the fields
anew on every one too); for the few statements every move or request runs, that was most of
their CPU. ``Columns`` builds a model's select list once, and turns a row back into an
instance through ``Model.from_db`` with the converters Django applies, so the rest of the code
cannot tell the difference (games/services/rows.py, accounts/tokens.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import orjson
from django.db import connection
from django.db.models import JSONField, Model

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

    def load(self, row: Sequence[Any], start: int) -> Model | None:
        values = list(row[start : start + self.width])
        if values[self.pk_index] is None:
            return None
        for i, converters, col in self.converters:
            value = values[i]
            for convert in converters:
                value = convert(value, col, connection)
            values[i] = value
        return self.model.from_db(connection.alias, self.attnames, values)
