"""The load bench and the fault drills stay runnable: each answers --help with the options the
docs quote (docs/PERFORMANCE.md, docs/RELIABILITY.md), without starting anything."""

from __future__ import annotations

import hashlib
import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from games.engine import new_game
from games.engine.bots.expert import expert_action

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPTS = {
    "bench/load.py": ["--tables", "--seconds", "--daphne-processes", "--workers", "--arrivals"],
    "bench/drills/celery_kill.py": ["--kills", "--workers", "--redis-port"],
    "bench/drills/redis_outage.py": ["--outage", "--redis-port"],
    "bench/drills/daphne_restart.py": ["--restarts", "--signal", "--daphne-processes"],
    "bench/drills/db_terminate.py": ["--every", "--database-url"],
    "bench/proxy_check.py": ["--proxy", "--tables", "--seconds", "--database-url"],
    "bench/replay_step.py": ["--players", "--port", "--jumps", "--width"],
    "bench/page_idle_cpu.py": ["--seconds", "--settle", "--port"],
    "bench/analysis_budget.py": ["--games", "--people", "--samples", "--budget"],
    "bench/auth_timing.py": ["--users", "--runs", "--hashers", "--database-url"],
    "bench/spy_breakdown.py": ["--json"],
    "bench/bots.py": ["--level", "--against", "--games", "--games-from", "--tuning"],
    "bench/rounds.py": ["--round", "--tuning", "--games", "--games-from"],
    "bench/expert_cpu.py": ["--games", "--save", "--load", "--slice", "--runs"],
}


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_each_bench_script_explains_itself(script: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / script), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for option in SCRIPTS[script]:
        assert option in done.stdout, f"{script} --help does not mention {option}"
    for doc in ("docs/PERFORMANCE.md", "docs/RELIABILITY.md"):
        name = Path(script).name
        if name in (ROOT / doc).read_text():
            break
    else:
        pytest.fail(f"{script} is described in neither docs/PERFORMANCE.md nor RELIABILITY.md")


def test_bench_bots_plays_the_tested_seat_with_the_weights_given() -> None:
    # A change to the strong bot's weights measured on the same deals (docs/ANALYSIS.md, "MAYI
    # melds first"): one game against three strong bots; a weight that does not exist, or a
    # level other than strong, stops it before any game.
    def run(*args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, str(ROOT / "bench/bots.py"), "--rulesets", "bga", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)

    done = run(
        "--level",
        "strong",
        "--against",
        "strong",
        "--games",
        "1",
        "--processes",
        "1",
        "--tuning",
        "mayi_first=true,mayi_stock=60",
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["games"] == 1 and out["tuning"] == "mayi_first=true,mayi_stock=60"
    assert out["illegal_actions"] == 0 and out["unfinished"] == 0
    bad = run("--level", "strong", "--games", "1", "--tuning", "mayi_last=true")
    assert bad.returncode != 0 and "no weight 'mayi_last'" in bad.stderr
    assert run("--level", "normal", "--games", "1", "--tuning", "w_pen=1").returncode != 0


def test_bench_rounds_pairs_the_experts_weights_on_one_round() -> None:
    # A weight of the last round only (w_pen_last) leaves round 1's play as it was: every deal
    # comes out the same, and the paired differences are nil.
    command = [sys.executable, str(ROOT / "bench/rounds.py"), "--round", "1", "--games", "3"]
    done = subprocess.run(
        [*command, "--processes", "1", "--tuning", "w_pen_last=none"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["rounds"] == 3 and out["tuned_less_own"]["same"] == 3
    assert out["own"] == out["tuned"] and out["tuned_less_own"]["relative"] == [0.0, 0.0, 0.0]
    bad = subprocess.run([*command, "--tuning", "w_pen_first=1"], capture_output=True, text=True)
    assert bad.returncode != 0 and "no weight 'w_pen_first'" in bad.stderr


def test_bench_expert_cpu_decides_recorded_states_again_and_hashes_the_same(tmp_path) -> None:
    # A speed change of the expert's search is proved harmless by the same hash of its
    # decisions on recorded states: the hash must not depend on the run, and must be that of
    # the actions the expert decides.
    state = new_game(4, "bench-expert-cpu", "bga")
    states = [(state, state["active"])]
    states_file = tmp_path / "states.pickle"
    states_file.write_bytes(pickle.dumps(states))
    command = [sys.executable, str(ROOT / "bench/expert_cpu.py"), "--load", str(states_file)]
    done = subprocess.run(
        [*command, "--runs", "2"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    expected = hashlib.sha256(
        json.dumps(expert_action(state, state["active"]), sort_keys=True).encode()
    ).hexdigest()
    assert out["decisions"] == 1 and len(out["cpu_seconds"]) == 2 and not out["warm"]
    assert out["hash"] == expected[:16]


@pytest.mark.skipif(
    not settings.MAYI_BENCH_ENDPOINTS, reason="the bench app is installed with the setting only"
)
def test_the_floor_of_bench_api_moves_writes_one_row_behind_the_api_auth(alice, api_for, client):
    """What bench/api_moves.py's ``floor`` POSTs (the bench's own app, benchapp/)."""
    from benchapp.models import BenchWrite

    answer = api_for(alice).post("/api/bench/write")
    assert answer.status_code == 200, answer.content
    assert BenchWrite.objects.get(pk=answer.json()["id"]).note == "alice"
    assert client.post("/api/bench/write").status_code == 401
    assert BenchWrite.objects.count() == 1
