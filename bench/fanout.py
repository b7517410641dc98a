"""From the commit of a move to the last seat's websocket frame: 100 tables of 4 seats.

    .venv/bin/python bench/fanout.py [--tables 100] [--seats 4] [--seconds 20] [--rate 20]
        [--workers 1] [--database-url postgres://postgres@127.0.0.1:5432/mayi_bench]
        [--redis-url redis://127.0.0.1:6379/2] [--no-timers] [--port 0]

The README's production mode: PostgreSQL, Redis (the channel layer), daphne with DEBUG off.
It drops and recreates the database (the bench's own), migrates it and makes ``--tables`` tables of ``--seats`` people each (every seat
its own user, signed in with its own session; known seeds, so every move is worked out before
anything is timed), starts ``--workers`` daphne processes on one listening socket, and opens
one real websocket per seat (``tables * seats`` sockets, in this process, with asyncio).

Then a driver process plays the tables through the HTTP API (``POST .../actions``, each seat
with its own token) at ``--rate`` moves per second in all, spread evenly over the tables, for
``--seconds`` after a warm-up. Every frame carries ``committed_at``, the server's clock read in
the ``on_commit`` hook of the move (games/broadcast.py); the receiving side reads the same machine's
clock when the frame arrives. Per move: the delay to the *last* of its table's seats. It
prints one JSON object: p50/p99/max of that delay in ms, and of every single frame, plus counts
(moves, frames, moves some seat never saw a frame for, HTTP errors).

Part two, when the file exists: bench/timers.py (how late the Celery timers fire), on the same
database; its JSON lands under "timers".
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_moves import (  # noqa: E402
    DATABASE_URL,
    fresh_database,
    machine_speed,
    server_env,
    start_workers,
)

Move = tuple[str, str, bytes, int]  # token, path, body, version it commits


def make_tables(count: int, seats: int) -> tuple[list[list[Move]], list[list[str]]]:
    """Started tables, with per table the moves that play it and per seat a session key."""
    import django

    django.setup()
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )

    from accounts.tokens import token_issue
    from games import engine, services
    from games.engine.bots import choose_action

    User = get_user_model()
    SessionStore = import_module(settings.SESSION_ENGINE).SessionStore
    scripts: dict[str, list[tuple[int, dict]]] = {}
    plans: list[list[Move]] = []
    sessions: list[list[str]] = []
    for t in range(count):
        users, tokens, keys = [], [], []
        for s in range(seats):
            user, _ = User.objects.get_or_create(username=f"fanout-{t}-{s}")
            users.append(user)
            tokens.append(token_issue(user=user))
            # A signed-in session, as the login view leaves it.
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            keys.append(store.session_key)
        table = services.table_create(host=users[0], seats=seats)
        for user in users[1:]:
            services.table_join(user=user, table_id=table.pk)
        seed = f"fanout-{t % 8}"
        services.table_start(user=users[0], table_id=table.pk, seed=seed)
        table.refresh_from_db()
        if seed not in scripts:
            state, script = table.state, []
            while not state["game_over"] and len(script) < 2000:
                seat = engine.seats_to_act(state)[0]
                action = choose_action(state, seat)
                script.append((seat, action))
                state, _ = engine.apply(state, seat, action)
            scripts[seed] = script
        path = f"/api/tables/{table.pk}/actions"
        plans.append(
            [
                (
                    tokens[seat],
                    path,
                    json.dumps({**action, "expect_version": table.version + i}).encode(),
                    table.version + i + 1,
                )
                for i, (seat, action) in enumerate(scripts[seed])
            ]
        )
        sessions.append(keys)
    return plans, sessions


def drive(
    port: int,
    plans: list[list[Move]],
    rate: float,
    start_at: float,
    stop_at: float,
    out: Any,
    via: str = "http",
) -> None:
    """The players: table i moves at ``start_at + (k + i / n) * n / rate`` for k = 0, 1, ...
    (every table once per n / rate seconds, the tables evenly staggered), on a few threads.
    ``via="service"`` commits each move here, with the service the API calls, instead of
    POSTing it to daphne: daphne then only does the websocket side."""
    import threading

    users: dict[str, Any] = {}

    def commit_directly(token: str, path: str, body: bytes) -> bool:
        from accounts.tokens import token_user
        from games import services
        from games.engine import IllegalMove

        if token not in users:
            users[token] = token_user(token)
        action = json.loads(body)
        expect = action.pop("expect_version")
        try:
            services.table_submit_action(
                table_id=int(path.split("/")[3]),
                user=users[token],
                action=action,
                expect_version=expect,
            )
        except (services.ServiceError, IllegalMove):
            return False
        return True

    n = len(plans)
    interval = n / rate
    threads_n = min(16, n)
    sent: list[int] = []
    errors: list[int] = []
    latencies: list[float] = []
    lock = threading.Lock()

    def worker(w: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = [i for i in range(n) if i % threads_n == w]
        schedule = sorted(
            (start_at + (k + i / n) * interval, i, k)
            for i in mine
            for k in range(len(plans[i]))
            if start_at + (k + i / n) * interval < stop_at
        )
        count = bad = 0
        took: list[float] = []
        for due, i, k in schedule:
            delay = due - time.time()
            if delay > 0:
                time.sleep(delay)
            token, path, body, _ = plans[i][k]
            sent_at = time.perf_counter()
            if via == "service":
                ok = commit_directly(token, path, body)
            else:
                conn.request(
                    "POST",
                    path,
                    body,
                    {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                )
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
            took.append(time.perf_counter() - sent_at)
            count += 1
            bad += not ok
        conn.close()
        with lock:
            sent.append(count)
            errors.append(bad)
            latencies.extend(took)

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(threads_n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put({"moves": sum(sent), "http_errors": sum(errors), "http_move": percentiles(latencies)})


async def listen(
    port: int, sessions: list[list[str]], table_ids: list[int], until: float, pids: list[int]
) -> tuple[dict[tuple[int, int], list[tuple[int, float, float]]], float]:
    """One websocket per seat; every frame's (seat, committed_at, received) by (table, version)."""
    import websockets

    frames: dict[tuple[int, int], list[tuple[int, float, float]]] = {}
    ready = 0
    all_ready = asyncio.Event()
    total = sum(len(keys) for keys in sessions)

    async def seat_socket(table_id: int, seat: int, key: str) -> None:
        nonlocal ready
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/tables/{table_id}/",
            origin=f"http://127.0.0.1:{port}",
            additional_headers={"Cookie": f"sessionid={key}"},
            max_size=2**22,
            ping_interval=None,
        ) as socket:
            first = json.loads(await socket.recv())
            assert first["type"] == "table", first
            ready += 1
            if ready == total:
                all_ready.set()
            while True:
                timeout = until - time.time()
                if timeout <= 0:
                    return
                try:
                    raw = await asyncio.wait_for(socket.recv(), timeout)
                except TimeoutError:
                    return
                received = time.time()
                frame = json.loads(raw)
                if frame.get("type") == "table" and "committed_at" in frame:
                    frames.setdefault((table_id, frame["version"]), []).append(
                        (seat, frame["committed_at"], received)
                    )

    tasks = [
        asyncio.create_task(seat_socket(table_id, seat, key))
        for table_id, keys in zip(table_ids, sessions, strict=True)
        for seat, key in enumerate(keys)
    ]
    began = time.time()
    await asyncio.wait_for(all_ready.wait(), 120)
    print(f"{total} sockets connected in {time.time() - began:.1f} s", file=sys.stderr)
    cpu_before = cpu_seconds(pids)
    await asyncio.gather(*tasks)
    return frames, cpu_seconds(pids) - cpu_before


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time used so far by these processes (Linux /proc)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def percentiles(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    if not values:
        return {"count": 0}
    pick = lambda q: values[min(len(values) - 1, int(len(values) * q))]  # noqa: E731
    return {
        "count": len(values),
        "p50_ms": round(1000 * pick(0.50), 2),
        "p90_ms": round(1000 * pick(0.90), 2),
        "p99_ms": round(1000 * pick(0.99), 2),
        "max_ms": round(1000 * values[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    # 20 moves/s is a move every 5 s at each of 100 tables: far busier than games played over
    # days, and 80 frames a second. Higher rates measure the server's ceiling (see README).
    parser.add_argument("--rate", type=float, default=20.0, help="moves per second, all tables")
    parser.add_argument("--workers", type=int, default=1, help="daphne processes")
    parser.add_argument(
        "--database-url",
        default=DATABASE_URL,
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
    )
    parser.add_argument(
        "--via",
        choices=["http", "service"],
        default="http",
        help="moves POSTed to daphne (default), or committed by the driver process itself",
    )
    parser.add_argument("--no-timers", action="store_true", help="skip part two")
    parser.add_argument("--port", type=int, default=0, help="daphne's (default: any free port)")
    args = parser.parse_args()

    env = {**server_env(args.database_url), "REDIS_URL": args.redis_url}
    os.environ.update(env)
    fresh_database(args.database_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    print(f"making {args.tables} tables of {args.seats}", file=sys.stderr)
    plans, sessions = make_tables(args.tables, args.seats)
    table_ids = [int(plan[0][1].split("/")[3]) for plan in plans]

    from django.db import connections

    # The driver is forked: it must not share these, nor the pool (its threads do not fork).
    connections.close_all()
    for conn in connections.all():
        if getattr(conn, "pool", None) is not None:
            conn.close_pool()
    speed_before = machine_speed()
    port, procs = start_workers(args.workers, env, args.port)
    try:
        start_at = time.time() + 5 + args.tables * args.seats / 200  # after every socket is open
        measure_from = start_at + args.warmup
        stop_at = measure_from + args.seconds
        results: multiprocessing.Queue = multiprocessing.Queue()
        driver = multiprocessing.Process(
            target=drive, args=(port, plans, args.rate, start_at, stop_at, results, args.via)
        )
        driver.start()
        frames, server_cpu = asyncio.run(
            listen(port, sessions, table_ids, stop_at + 2, [proc.pid for proc in procs])
        )
        driven = results.get(timeout=60)
        driver.join(10)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(10)

    per_move, per_frame, incomplete = [], [], 0
    timeline: dict[int, list[float]] = {}
    for (_, _), seen in frames.items():
        committed = seen[0][1]
        if committed < measure_from or committed > stop_at:
            continue
        per_frame += [received - committed_at for _, committed_at, received in seen]
        if len({seat for seat, _, _ in seen}) < args.seats:
            incomplete += 1
            continue
        per_move.append(max(received for _, _, received in seen) - committed)
        second = int(committed - measure_from)
        timeline.setdefault(second, []).append(per_move[-1])
    report: dict[str, Any] = {
        "tables": args.tables,
        "seats": args.seats,
        "sockets": args.tables * args.seats,
        "rate_moves_per_s": args.rate,
        "frames_per_s": round(args.rate * args.seats, 1),
        "seconds": args.seconds,
        "workers": args.workers,
        "moves_via": args.via,
        "channel_layer": "channels_redis (RedisPubSubChannelLayer)",
        "machine_speed_s": {"before": speed_before, "after": machine_speed()},
        **driven,
        "commit_to_last_seat": percentiles(per_move),
        "commit_to_each_frame": percentiles(per_frame),
        "moves_some_seat_missed": incomplete,
        # daphne's CPU (all workers) while the moves ran, per move (its HTTP request unless
        # --via service, the table read and the frames): one core serves 1000 / this moves/s.
        "server_cpu_ms_per_move": round(1000 * server_cpu / max(1, driven["moves"]), 2),
        "load_average": os.getloadavg()[0],
        # Per second of the run: the slowest move's delay, in ms (stalls show up here).
        "max_ms_by_second": [round(1000 * max(timeline[k]), 1) for k in sorted(timeline)],
    }
    timers = ROOT / "bench" / "timers.py"
    if args.no_timers:
        report["timers"] = "skipped (--no-timers)"
    elif timers.exists():
        print("part two: bench/timers.py", file=sys.stderr)
        done = subprocess.run(
            [sys.executable, str(timers), "--database-url", args.database_url],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        try:
            report["timers"] = json.loads(done.stdout)
        except ValueError:
            report["timers"] = {"exit": done.returncode, "output": done.stdout[-2000:]}
    else:
        report["timers"] = "bench/timers.py does not exist yet (the Celery timers' lateness)"
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
