"""Game actions through the real stack: PostgreSQL behind daphne, 32 clients at once.

    .venv/bin/python bench/api_moves.py [--clients 32] [--seconds 10] [--rounds 3]
        [--rate 200] [--workers 2] [--database-url postgres://postgres@127.0.0.1:5432/mayi_bench]

It drops and recreates the database (the bench's own: see ``fresh_database``), migrates it,
makes tables of three people each (known seeds, so the actions are
worked out before any clock starts and the clients spend almost no CPU while timed), starts
``--workers`` daphne processes sharing one listening socket, DEBUG off, and then runs three
phases ``--rounds`` times, interleaved:

- ``floor``: each client POSTs /api/bench/write (same token auth, one row written) back to
  back: the most the stack itself serves;
- ``actions_max``: each client plays its own table back to back, POSTing
  /api/tables/<id>/actions with ``expect_version`` and the seat's token: the most actions/s;
- ``actions_paced``: the same, but the clients together send ``--rate`` actions per second on
  a fixed schedule, as players do: the latency a player sees at that load.

With N clients sending back to back, latency is N / throughput (Little's law), so latency is
quoted from the paced phase and throughput from the other two. It prints one JSON object with,
per phase, the median over rounds (and min..max) of p50 and p99 latency in ms and requests per
second, and ``ratio`` = actions_max / floor requests per second.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

Request = tuple[str, str, bytes]  # token, path, body

# The benches' own database (dropped and created afresh by fresh_database).
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mayi_bench")


def server_env(database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "SECRET_KEY": "bench-secret-key-not-for-production-" + "x" * 20,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "MAYI_BENCH_ENDPOINTS": "1",
        # One host opens every table of the run: past the cap on games at once.
        "MAYI_MAX_OPEN_GAMES": "1000000",
        "DJANGO_SETTINGS_MODULE": "mayi_site.settings",
        "LOG_LEVEL": "ERROR",
        "GAMES_LOG_LEVEL": "WARNING",
    }


def machine_speed() -> float:
    """Seconds for a fixed pure-Python loop, best of three: this machine's speed right now.

    The 2-core VMs here run at very different speeds from one minute to the next (the same
    loop took 0.57 s and 0.88 s ten minutes apart), so every report carries this, taken before
    and after the run, to tell a slower server from a slower machine."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(2_000_000):
            total += i * i
        best = min(best, time.perf_counter() - start)
    return round(best, 3)


def connect(database_url: str, dbname: str | None = None) -> Any:
    """An autocommit psycopg connection to the server of ``database_url`` (to ``dbname``, or the
    URL's own database)."""
    from urllib.parse import urlsplit

    import psycopg

    url = urlsplit(database_url)
    return psycopg.connect(
        host=url.hostname,
        port=url.port or 5432,
        user=url.username or "postgres",
        password=url.password or None,
        dbname=dbname or url.path.lstrip("/"),
        autocommit=True,
    )


def ensure_database(database_url: str) -> None:
    from urllib.parse import urlsplit

    name = urlsplit(database_url).path.lstrip("/")
    with connect(database_url, "postgres") as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
            conn.execute(f'create database "{name}"')


def fresh_database(database_url: str) -> None:
    """Drop and create the bench database: every run starts from the same empty state.

    Runs on a database that earlier runs filled (hundreds of thousands of moves, tables
    rewritten tens of thousands of times) came out a third slower on this machine."""
    from urllib.parse import urlsplit

    name = urlsplit(database_url).path.lstrip("/")
    with connect(database_url, "postgres") as conn:
        conn.execute(f'drop database if exists "{name}" with (force)')
        conn.execute(f'create database "{name}"')


def vacuum(database_url: str) -> None:
    """VACUUM ANALYZE the bench database, so that every run starts from the same physical state.

    Each move rewrites its table's row; earlier runs leave tens of thousands of dead row versions
    that a server's autovacuum would have cleared, and they slow the next run's reads."""
    with connect(database_url) as conn:
        conn.execute("VACUUM ANALYZE")


class Tables:
    """Started 3-seat tables and, per table, the requests that play it."""

    def __init__(self) -> None:
        import django

        django.setup()
        from django.contrib.auth import get_user_model

        from accounts.tokens import token_issue

        User = get_user_model()
        self.users = []
        for i in range(3):
            user, _ = User.objects.get_or_create(username=f"bench{i}")
            self.users.append((user, token_issue(user=user)))
        self.scripts: dict[str, list[tuple[int, dict]]] = {}

    def script(self, state: dict, seed: str) -> list[tuple[int, dict]]:
        from games import engine
        from games.engine.bots import choose_action

        if seed not in self.scripts:
            script = []
            while not state["game_over"]:
                seat = engine.seats_to_act(state)[0]
                action = choose_action(state, seat)
                script.append((seat, action))
                state, _ = engine.apply(state, seat, action)
            self.scripts[seed] = script
        return self.scripts[seed]

    def make(self, count: int) -> list[list[Request]]:
        from games import services

        host = self.users[0][0]
        plans = []
        for c in range(count):
            seed = f"bench-{c % 4}"  # four deals; every table of a deal plays the same game
            table = services.table_create(host=host, seats=3)
            for user, _ in self.users[1:]:
                services.table_join(user=user, table_id=table.pk)
            services.table_start(user=host, table_id=table.pk, seed=seed)
            table.refresh_from_db()
            path = f"/api/tables/{table.pk}/actions"
            plans.append(
                [
                    (
                        self.users[seat][1],
                        path,
                        json.dumps({**action, "expect_version": table.version + i}).encode(),
                    )
                    for i, (seat, action) in enumerate(self.script(table.state, seed))
                ]
            )
        return plans


def run_phase(
    port: int, per_client: list[list[Request]], seconds: float, rate: float | None = None
) -> dict[str, Any]:
    """Each client sends its requests in order on one keep-alive connection, back to back or,
    with ``rate``, on a schedule that spreads ``rate`` requests per second over all clients."""
    n_clients = len(per_client)
    latencies: list[list[float]] = [[] for _ in per_client]
    errors = [0] * n_clients
    late = [0] * n_clients
    barrier = threading.Barrier(n_clients + 1)
    t0 = [0.0]

    def client(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        requests = per_client[i]
        interval = n_clients / rate if rate else 0.0
        barrier.wait()
        stop_at = t0[0] + seconds
        n = 0
        while n < len(requests):
            if rate:
                due = t0[0] + (n + i / n_clients) * interval
                now = time.perf_counter()
                if due > now:
                    time.sleep(due - now)
                elif now - due > 0.005:
                    late[i] += 1
            if time.perf_counter() >= stop_at:
                break
            token, path, body = requests[n]
            start = time.perf_counter()
            conn.request(
                "POST",
                path,
                body,
                {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            response = conn.getresponse()
            response.read()
            latencies[i].append(time.perf_counter() - start)
            if response.status != 200:
                errors[i] += 1
            n += 1
        conn.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(n_clients)]
    for t in threads:
        t.start()
    t0[0] = time.perf_counter() + 0.05
    barrier.wait()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0[0]
    flat = sorted(x for lat in latencies for x in lat)
    return {
        "requests": len(flat),
        "errors": sum(errors),
        "late_sends": sum(late),
        "per_second": len(flat) / elapsed,
        "p50_ms": 1000 * flat[len(flat) // 2],
        "p99_ms": 1000 * flat[min(len(flat) - 1, int(len(flat) * 0.99))],
    }


def start_workers(
    workers: int, env: dict[str, str], port: int = 0
) -> tuple[int, list[subprocess.Popen[bytes]]]:
    """``workers`` daphne processes accepting on one listening socket (the kernel spreads the
    connections), so the server uses every core despite the GIL. ``port`` 0: any free one."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(512)
    port = int(sock.getsockname()[1])
    python = ROOT / ".venv" / "bin" / "python"
    exe = [str(python) if python.exists() else sys.executable, "-m", "mayi_site.serve"]
    fd = sock.fileno()
    procs = [
        subprocess.Popen(
            [*exe, "--fd", str(fd), "-v", "0", "mayi_site.asgi:application"],
            cwd=ROOT,
            env=env,
            pass_fds=(fd,),
        )
        for _ in range(workers)
    ]
    sock.close()
    deadline = time.time() + 30
    while time.time() < deadline:
        if any(p.poll() is not None for p in procs):
            raise SystemExit("daphne exited early")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/openapi.json")
            if conn.getresponse().status == 200:
                return port, procs
        except OSError:
            time.sleep(0.2)
    raise SystemExit("daphne did not answer")


def settings_threads() -> int:
    from django.conf import settings

    return int(settings.MAYI_HTTP_THREADS)


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "requests": sum(r["requests"] for r in results),
        "errors": sum(r["errors"] for r in results),
        "late_sends": sum(r["late_sends"] for r in results),
    }
    for key in ("p50_ms", "p99_ms", "per_second"):
        values = [r[key] for r in results]
        out[key] = round(statistics.median(values), 2)
        out[key + "_range"] = [round(min(values), 2), round(max(values), 2)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate", type=float, default=200.0, help="actions/s in the paced phase")
    parser.add_argument("--workers", type=int, default=2, help="daphne processes")
    parser.add_argument(
        "--database-url",
        default=DATABASE_URL,
    )
    args = parser.parse_args()

    env = server_env(args.database_url)
    os.environ.update(env)
    fresh_database(args.database_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    tables = Tables()
    plans = [(tables.make(args.clients), tables.make(args.clients)) for _ in range(args.rounds)]
    floor_plan = [[(tables.users[0][1], "/api/bench/write", b"")] * 100_000] * args.clients
    vacuum(args.database_url)

    speed_before = machine_speed()
    port, procs = start_workers(args.workers, env)
    results: dict[str, list[dict[str, Any]]] = {"floor": [], "actions_max": [], "actions_paced": []}
    try:
        # Warm every worker up (imports, connection pool) before anything is timed.
        run_phase(port, [p[:30] for p in floor_plan], 2)
        for max_plan, paced_plan in plans:
            results["floor"].append(run_phase(port, floor_plan, args.seconds))
            results["actions_max"].append(run_phase(port, max_plan, args.seconds))
            results["actions_paced"].append(run_phase(port, paced_plan, args.seconds, args.rate))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(10)
    summary = {name: summarize(rs) for name, rs in results.items()}
    print(
        json.dumps(
            {
                "clients": args.clients,
                "workers": args.workers,
                "seconds_per_phase": args.seconds,
                "rounds": args.rounds,
                "paced_rate": args.rate,
                "threads_per_worker": settings_threads(),
                "machine_speed_s": {"before": speed_before, "after": machine_speed()},
                **summary,
                "ratio": round(
                    summary["actions_max"]["per_second"] / summary["floor"]["per_second"], 3
                ),
                "rounds_detail": results,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
