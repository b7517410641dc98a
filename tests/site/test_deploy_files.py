"""What deploy/ gives an operator: units that migrate before serving, the metrics' dashboard
and scrape configuration naming metrics the site exposes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SERVING_UNITS = [
    "mayi-daphne@.service",
    "mayi-timers@.service",
    "mayi-mail.service",
    "mayi-analysis.service",
    "mayi-beat.service",
]


def test_the_migrate_unit_runs_migrate_once_at_a_time():
    unit = (DEPLOY / "systemd" / "mayi-migrate.service").read_text()
    assert "Type=oneshot" in unit
    assert re.search(
        r"^ExecStart=/usr/bin/flock \S+ \S+/python manage.py migrate --noinput$", unit, re.M
    )


@pytest.mark.parametrize("name", SERVING_UNITS)
def test_every_serving_unit_starts_after_the_migrations(name):
    unit = (DEPLOY / "systemd" / name).read_text()
    assert re.search(r"^Requires=.*mayi-migrate\.service", unit, re.M), name
    assert re.search(r"^After=.*mayi-migrate\.service", unit, re.M), name


def test_the_procfiles_web_processes_migrate_before_serving():
    for line in (DEPLOY / "Procfile").read_text().splitlines():
        if line.startswith("web"):
            before, _, after = line.partition("&&")
            assert "manage.py migrate --noinput" in before and "mayi_site.serve" in after, line


@pytest.mark.django_db
def test_the_dashboard_and_the_scrape_config_name_metrics_the_site_exposes():
    dashboard = json.loads((DEPLOY / "grafana-dashboard.json").read_text())
    exposed = {
        re.sub(r"_total$", "", line.split()[2])
        for line in Client().get("/metrics").content.decode().splitlines()
        if line.startswith("# TYPE mayi_") and not line.split()[2].endswith("_created")
    }
    queried = set()
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            queried |= set(re.findall(r"\bmayi_[a-z_]+", target["expr"]))
    assert queried, "the dashboard queries no metric"
    base = {re.sub(r"_(total|bucket|count|sum)$", "", name) for name in queried}
    assert base <= exposed, base - exposed
    # Every metric of the site has a panel.
    assert exposed <= base, exposed - base
    assert "mayi-web" in (DEPLOY / "prometheus.yml").read_text()
