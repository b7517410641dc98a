"""Log lines: JSON in production with the request's id, user and table; expected refusals one
warning line without a traceback; each line once."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mayi_site import logs

ROOT = Path(__file__).resolve().parents[2]


def handler_lines(caplog_records: list[logging.LogRecord], fmt: logging.Formatter) -> list[str]:
    flt = logs.ContextFilter()
    out = []
    for record in caplog_records:
        flt.filter(record)
        out.append(fmt.format(record))
    return out


@pytest.mark.django_db
def test_the_request_id_is_taken_or_made_and_returned(client):
    given = client.get("/healthz", HTTP_X_REQUEST_ID="proxy-abc.123")
    assert given["X-Request-ID"] == "proxy-abc.123"
    made = client.get("/healthz")
    assert len(made["X-Request-ID"]) == 32
    # A header that could break a log line (or fill it) is replaced, not trusted.
    bad = client.get("/healthz", HTTP_X_REQUEST_ID="x" * 500)
    assert len(bad["X-Request-ID"]) == 32
    refused = client.post("/api/tables/1/actions", HTTP_X_REQUEST_ID="r-1")
    assert refused["X-Request-ID"] == "r-1"


def test_json_lines_carry_time_level_logger_request_user_and_table(
    bot_game, api_for, alice, caplog
):
    caplog.set_level(logging.WARNING)
    client = api_for(alice)
    client.client.post(
        f"/api/tables/{bot_game.pk}/actions",
        json.dumps({"type": "draw", "source": "stock", "expect_version": 0}),
        content_type="application/json",
        HTTP_X_REQUEST_ID="req-42",
    )
    records = [r for r in caplog.records if r.name == "django.request"]
    assert records, "a 409 is logged as a warning"
    line = handler_lines(records[:1], logs.JsonLineFormatter())[0]
    data = json.loads(line)
    assert data["level"] == "WARNING" and data["logger"] == "django.request"
    assert data["time"] and "Conflict" in data["message"]
    assert data["request_id"] == "req-42"
    assert data["user_id"] == alice.pk and data["table_id"] == bot_game.pk
    assert "\n" not in line


def run_site(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG"}}
    return subprocess.run(
        [sys.executable, "-W", "ignore", "-c", "import django; django.setup()\n" + code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "mayi_site.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


# Requests sent in a fresh process, through the whole stack with its real logging config.
REFUSALS = """
import warnings
warnings.simplefilter('ignore')
from django.conf import settings
settings.STORAGES = {**settings.STORAGES, 'staticfiles': {
    'BACKEND': 'django.contrib.staticfiles.storage.StaticFilesStorage'}}
from django.test import Client
from django.test.utils import setup_test_environment
# CSRF checked as in production: the check reads the body first.
c = Client(raise_request_exception=False, enforce_csrf_checks=True)
c.get('/accounts/login/')  # the CSRF cookie
r = c.post('/accounts/login/', data='a=' + 'x' * (3 * 1024 * 1024),
           content_type='application/x-www-form-urlencoded')
assert r.status_code == (400 if settings.DEBUG else 413), r.status_code
c.get('/rules/', HTTP_HOST='evil.example.net')
c.get('/no-such-page/')
c.put('/api/tables')
c.get('/accounts/profile/email/')
"""


@pytest.mark.parametrize("mode", ["production", "debug"])
def test_expected_refusals_are_one_warning_line_each_without_a_traceback(mode):
    env = {"LOG_LEVEL": "WARNING", "ALLOWED_HOSTS": "testserver,localhost"}
    if mode == "production":
        env.update(DEBUG="0", SECRET_KEY="x" * 60, SECURE_SSL_REDIRECT="0")
    result = run_site(REFUSALS, **env)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert "Traceback" not in result.stderr, result.stderr
    if mode == "production":
        records = [json.loads(line) for line in lines]
        assert all(r["level"] == "WARNING" for r in records), records
        messages = [r["message"] for r in records]
        loggers = [r["logger"] for r in records]
        assert "django.security.DisallowedHost" in loggers
        assert "django.security.RequestDataTooBig" in loggers
        assert any("Not Found" in m for m in messages)
        assert any("Method Not Allowed" in m for m in messages)
    else:
        assert all(" WARNING " in line for line in lines), lines
    # Each refusal once: no line printed twice.
    assert len(lines) == len(set(lines)), lines
    assert len(lines) <= 6, lines


def test_a_task_queued_while_answering_carries_the_request_id():
    from mayi_site import celery as mayi_celery

    headers: dict[str, str] = {}
    token = logs.request_id.set("req-task-7")
    try:
        mayi_celery._carry_request_id(headers=headers)
    finally:
        logs.request_id.reset(token)
    assert headers == {"mayi_request_id": "req-task-7"}

    class Req:
        mayi_request_id = "req-task-7"

    class Task:
        name = "games.tasks.timeout_turn"
        request = Req()

    mayi_celery._task_log_context(task=Task(), args=(12, 3))
    record = logging.LogRecord("games.tasks", logging.INFO, __file__, 1, "fired", None, None)
    logs.ContextFilter().filter(record)
    assert (record.request_id, record.table_id) == ("req-task-7", 12)
    mayi_celery._task_log_context_end(task=Task())
    assert logs.request_id.get() is None
