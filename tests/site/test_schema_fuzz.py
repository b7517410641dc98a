"""schemathesis against the served OpenAPI schema (issue 14): for every operation, generated
requests (valid and invalid) never answer 5xx, and every answer is one the schema documents, in
its documented shape and content type. Bounded (a few dozen examples per operation) to stay
well under a minute; the path parameters point at real tables half the time so that the
fuzzer reaches past "no such table"."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.tokens import token_issue
from games import services
from mayi_site.wsgi import application

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES = 10
TABLES: list[int] = []


# The schema as served (the view needs no database), then every call in-process through the
# WSGI application, inside the test's transaction.
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)


@schemathesis.hook
def map_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> Any:
    if path_parameters and "table_id" in path_parameters and TABLES and random.random() < 0.5:
        path_parameters["table_id"] = random.choice(TABLES)
    return path_parameters


@pytest.fixture
def fuzz_token(db: None, django_user_model: Any, settings: Any) -> Iterator[str]:
    settings.MAYI_RATE_LIMITS_ENABLED = False
    host = django_user_model.objects.create_user("fuzz", "fuzz@example.com", "pw")
    other = django_user_model.objects.create_user("fuzz2", "fuzz2@example.com", "pw")
    TABLES.clear()
    for public in (True, False):
        table = services.table_create(host=host, seats=3, public=public)
        services.table_fill_with_bots(user=host, table_id=table.pk)
        services.table_start(user=host, table_id=table.pk, seed="fuzz")
        TABLES.append(table.pk)
    TABLES.append(services.table_create(host=other, seats=4).pk)
    # The WSGI handler sends request_started/finished, whose close_old_connections would close
    # the test's connection mid-transaction (on PostgreSQL's pool it is handed back, and the
    # next request finds none); Django's test Client disconnects it the same way.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield token_issue(user=host)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@schema.parametrize()
@hypothesis_settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_documented(case: Any, fuzz_token: str) -> None:
    case.call_and_validate(headers={"Authorization": f"Bearer {fuzz_token}"}, checks=CHECKS)
