"""The API's JSON (mayi_site/fastjson.py, orjson) parses to what ninja's and JsonResponse's
encoder gave (``json.dumps(..., cls=NinjaJSONEncoder)``)."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from decimal import Decimal
from typing import Any

import pytest
from ninja.responses import NinjaJSONEncoder

from games import services
from mayi_site.fastjson import api_json


def before(data: Any) -> Any:
    return json.loads(json.dumps(data, cls=NinjaJSONEncoder))


def test_api_json_is_ninja_s_json():
    when = dt.datetime(2026, 12, 1, 19, 55, 1, 123456, tzinfo=dt.UTC)
    for data in [
        {"at": when, "day": when.date(), "time": when.time(), "naive": when.replace(tzinfo=None)},
        {"left": dt.timedelta(seconds=90), "price": Decimal("1.50"), "id": uuid.uuid4()},
        {1: "int key", "name": "Zoë ☃ </script>", "x": [1.5, None, True, 10**18]},
        {"big": 2**70, "surrogate": "\udc00"},
    ]:
        assert json.loads(api_json(data)) == before(data)


@pytest.mark.django_db
def test_a_table_s_payload_is_the_same_json(alice, bob, carol):
    table = services.table_create(host=alice, seats=3, public=False)
    for user in (bob, carol):
        services.table_join(user=user, invite_code=table.invite_code)
    table = services.table_start(user=alice, table_id=table.pk, seed="fastjson")
    read, seats = services.table_read(table_id=table.pk)
    for user in (alice, bob):
        payload = services.table_payload(read, seats, user)
        assert json.loads(api_json(payload)) == before(payload)
