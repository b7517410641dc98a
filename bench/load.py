"""Load: bot clients play many tables at a human pace through the production stack.

    .venv/bin/python bench/load.py [--tables 200] [--seats 4] [--seconds 60]
        [--daphne-processes 1] [--workers 1] [--client-processes 1]
        [--think 1.0 4.0] [--arrivals 50] [--window-seconds 10] [--port 8250]
        [--database-url postgres://postgres@127.0.0.1:5432/mayi_robust]
        [--redis-url redis://127.0.0.1:6379/2 | --own-redis 8269]

The README's production mode on this machine: PostgreSQL, Redis (cache, channel layer,
Celery broker), ``--daphne-processes`` daphne processes on ports ``--port``, ``--port + 1``...
(DEBUG off), ``--workers`` Celery timer workers and ONE beat. The database is the run's own,
dropped and made afresh. ``--tables`` started tables of ``--seats`` people each (bga, every
seat its own user, token and session); every seat is one client (bench/harness.py Player): a
websocket for its frames and its moves, each answered by the frame naming its ``ref``, as the
page sends them while its socket is open (``--moves http``: by keep-alive HTTP instead, as the
page sends them while its socket is down, and as API clients do; by HTTP too while a client's
socket is down), deciding from its own view after a think time drawn from ``--think`` seconds, answering "May I?" windows too. Every seat of table i
talks to daphne process i mod N, as the shipped proxies route a table's requests and sockets
(deploy/nginx.conf, deploy/Caddyfile); ``--split-seats`` sends seat s of table i to process
(i + s) mod N instead, so with N > 1 every move must reach the seats on the other process
through Redis (the fan-out across processes, under load).

It prints one JSON object (latencies from ``5 + clients / --arrivals`` seconds in, when every client
could be connected, to the end): actions/s, action latency (sent to answered) p50/p90/p99/max,
fan-out latency (the move's commit, ``committed_at``, to each seat's frame), HTTP statuses,
errors, ``seats_not_notified`` (a seat that never got a frame at or past a version committed
at its table more than 2 s before the end: must be 0), peak memory (VmHWM) and CPU seconds
per process from the moment they all finished starting (``settled_seconds`` after their start;
the run's PostgreSQL backends summed as ``postgres``), the load average, the
machine's speed before and after (bench/api_moves.py ``machine_speed``), and the end-of-run
check of bench/harness.py (no move lost or applied twice, every deadline fired once, every
table replays from its seed).

The machine is shared: keep runs small while developing (--tables 20 --seconds 20); the
figures in docs/PERFORMANCE.md say which were taken on a loaded machine.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.api_moves import machine_speed  # noqa: E402
from bench.fanout import cpu_seconds  # noqa: E402
from bench.harness import (  # noqa: E402
    DATABASE_URL,
    REDIS_URL,
    Ledger,
    OwnRedis,
    SeatCredentials,
    Stack,
    check_run,
    log,
    make_tables,
    play_all,
    prepare_database,
    release_connections,
    summary,
    workdir_for,
)


def client_process(
    tables: list[list[SeatCredentials]],
    ports: list[int],
    seconds: float,
    think: tuple[float, float],
    window_answers: bool,
    seed: int,
    arrivals: float,
    connected_after: float,
    out: Any,
    by_table: bool = False,
    moves: str = "http",
) -> None:
    async def freeze_once_connected() -> None:
        # The clients are the measuring instrument, hundreds to a process where a player has
        # a browser of their own: once every client is connected, their long-lived objects
        # leave the cyclic collector's full passes, which otherwise stop this process for
        # ~120 ms now and then and would count as the server's latency.
        await asyncio.sleep(connected_after)
        gc.freeze()

    # uvloop, as daphne's own (mayi_site/serve.py): the instrument's share of the two cores.
    ledgers = uvloop.run(
        play_all(
            tables,
            ports,
            seconds=seconds,
            think=think,
            answer_windows=window_answers,
            seed=seed,
            arrivals_per_s=arrivals,
            during=freeze_once_connected,
            by_table=by_table,
            moves=moves,
        )
    )
    seen = [sorted(led.seen.items()) for led in ledgers]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    # The seed (1, 2, ...) says which part of the tables this was: the parts arrive in the order
    # their processes finish, and their seats must be matched with their own tables.
    out.put((seed, ledgers, seen, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime))


def settle(stack: Stack, *, quiet: float = 0.05, limit: float = 90.0) -> float:
    """Wait until the stack's processes are done starting (a second in which none of them used
    more than ``quiet`` CPU seconds, at most ``limit`` seconds), so that their CPU counted for
    the run is the run's: a Celery worker imports the site and runs Django's checks, then forks
    its pool, for 1.5 to 2 s of CPU after it was started, and the beat for about 1 s; counted,
    those were most of the workers' figure at 100 tables. Returns the seconds waited."""
    began = time.monotonic()
    last = {name: cpu_seconds(p) for name, p in stack.pids().items()}
    while time.monotonic() - began < limit:
        time.sleep(1.0)
        now = {name: cpu_seconds(p) for name, p in stack.pids().items()}
        busy = [name for name in now if now[name] - last.get(name, 0.0) > quiet]
        last = now
        if not busy:
            break
    return round(time.monotonic() - began, 1)


def backend_cpu(database: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend connected to ``database`` (its process
    title: ``postgres: user database host(port) ...``)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if title.startswith("postgres: ") and f" {database} " in title:
                found[int(entry.name)] = cpu_seconds([int(entry.name)])
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended meanwhile
    return found


def notified(
    tables: list[list[SeatCredentials]], seen: list[list[tuple[int, float]]], stop_at: float
) -> int:
    """Seats that never got a frame at or past a version their table committed (more than 2 s
    before the end of play): every seat must hear of every move, whichever process served it."""
    from games.models import Move

    missing = 0
    for table, seats_seen in zip(tables, _by_table(tables, seen), strict=True):
        table_id = table[0].table_id
        versions = Move.objects.filter(table_id=table_id).values_list("version", "created")
        due = [v for v, created in versions if created.timestamp() < stop_at - 2]
        if not due:
            continue
        last = max(due)
        for got in seats_seen:
            if not got or max(v for v, _ in got) < last:
                missing += 1
    return missing


def _by_table(
    tables: list[list[SeatCredentials]], seen: list[list[tuple[int, float]]]
) -> list[list[list[tuple[int, float]]]]:
    out, k = [], 0
    for table in tables:
        out.append(seen[k : k + len(table)])
        k += len(table)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0, help="of play, after connecting")
    parser.add_argument("--daphne-processes", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="Celery timer workers")
    parser.add_argument(
        "--client-processes", type=int, default=1, help="processes the clients are split over"
    )
    parser.add_argument("--think", type=float, nargs=2, default=[1.0, 4.0], metavar=("MIN", "MAX"))
    parser.add_argument(
        "--arrivals", type=float, default=50.0, help="clients connecting per second at the start"
    )
    parser.add_argument("--window-seconds", type=int, default=10)
    parser.add_argument("--turn-seconds", type=int, default=3600)
    parser.add_argument("--port", type=int, default=8250, help="first daphne port")
    parser.add_argument(
        "--split-seats",
        action="store_true",
        help="a table's seats split across the daphne processes (the default: every seat of a "
        "table on one process, as the shipped proxies route by table)",
    )
    parser.add_argument(
        "--moves",
        choices=("socket", "http"),
        default="socket",
        help="how clients send their moves: over the table's websocket (each answered by a "
        "frame naming its ref), as the page does while its socket is open, or by POST "
        "/api/tables/<id>/actions, as API clients do (and the page while its socket is down)",
    )
    parser.add_argument("--database-url", default=DATABASE_URL, help="dropped and made afresh")
    parser.add_argument("--redis-url", default=REDIS_URL)
    parser.add_argument(
        "--own-redis", type=int, metavar="PORT", help="start a redis-server of its own on PORT"
    )
    args = parser.parse_args()

    workdir = workdir_for("load")
    redis = OwnRedis(args.own_redis, workdir) if args.own_redis else None
    if redis is not None:
        redis.start()
    redis_url = redis.url if redis is not None else args.redis_url
    stack: Stack | None = None
    began = time.time()
    speed_before = machine_speed()
    try:
        prepare_database(args.database_url)
        log(f"making {args.tables} tables of {args.seats} (logs in {workdir})")
        tables = make_tables(
            args.tables,
            args.seats,
            window_seconds=args.window_seconds,
            turn_seconds=args.turn_seconds,
            tag="load",
        )
        release_connections()
        ports = [args.port + i for i in range(args.daphne_processes)]
        stack = Stack(
            workdir=workdir,
            database_url=args.database_url,
            redis_url=redis_url,
            daphne_ports=ports,
            workers=args.workers,
        )
        stack.start_all()
        settled = settle(stack)
        pids = stack.pids()
        cpu_before = {name: cpu_seconds(p) for name, p in pids.items()}
        database = urlsplit(args.database_url).path.lstrip("/")
        backends_before = backend_cpu(database)
        log(f"{args.tables * args.seats} clients over {args.client_processes} process(es)")
        # Connecting takes a while with hundreds of sockets: it is counted outside the figure.
        connect_allowance = 5 + args.tables * args.seats / args.arrivals
        results: multiprocessing.Queue = multiprocessing.Queue()
        parts = [tables[k :: args.client_processes] for k in range(args.client_processes)]
        procs = [
            multiprocessing.Process(
                target=client_process,
                args=(
                    part,
                    ports,
                    args.seconds + connect_allowance,
                    tuple(args.think),
                    True,
                    k + 1,
                    args.arrivals / args.client_processes,
                    connect_allowance,
                    results,
                    not args.split_seats,
                    args.moves,
                ),
            )
            for k, part in enumerate(parts)
        ]
        for proc in procs:
            proc.start()
        measure_from = time.time() + connect_allowance
        stop_at = measure_from + args.seconds
        arrived = [results.get(timeout=args.seconds + connect_allowance + 120) for _ in procs]
        collected = [part[1:] for part in sorted(arrived, key=lambda part: part[0])]
        for proc in procs:
            proc.join(30)
        memory = stack.peak_memory_mb()
        cpu = {
            name: round(cpu_seconds(p) - cpu_before.get(name, 0.0), 1)
            for name, p in stack.pids().items()
        }
        # The run's PostgreSQL backends (a pooled backend lives through the run; one that
        # ended before the end is not counted).
        backends = backend_cpu(database)
        cpu["postgres"] = round(
            sum(t - backends_before.get(pid, 0.0) for pid, t in backends.items()), 1
        )
        ledgers: list[Ledger] = [led for part in collected for led in part[0]]
        seen = [s for part in collected for s in part[1]]
        ordered_tables = [t for part in parts for t in part]
        report: dict[str, Any] = {
            "tables": args.tables,
            "seats": args.seats,
            "clients": args.tables * args.seats,
            "seconds": args.seconds,
            "daphne_processes": args.daphne_processes,
            "moves": args.moves,
            "workers": args.workers,
            "client_processes": args.client_processes,
            "by_table": not args.split_seats,
            "think_seconds": args.think,
            "machine": {"nproc": os.cpu_count(), "python": sys.version.split()[0]},
            # Latencies from the moment every client could be connected: the first seconds
            # are the arrival of hundreds of sockets, not play.
            **summary(ledgers, args.seconds + connect_allowance, since=measure_from),
        }
        report["seats_not_notified"] = notified(ordered_tables, seen, stop_at)
        report["peak_memory_mb"] = {
            **memory,
            "clients": [round(part[2], 1) for part in collected],
        }
        # The clients share the machine: their CPU is the server's competition.
        report["cpu_seconds"] = {**cpu, "clients": [round(part[3], 1) for part in collected]}
        report["load_average"] = os.getloadavg()
        report["unplanned_exits"] = dict(stack.restarts)
        report["check"] = check_run(ordered_tables, ledgers, settle=3.0)
        # The same code's latencies follow this host's speed of the moment (docs/PERFORMANCE.md).
        report["machine_speed_s"] = {"before": speed_before, "after": machine_speed()}
        report["settled_seconds"] = settled  # waited for the processes to finish starting
        report["wall_seconds"] = round(time.time() - began, 1)
        report["workdir"] = str(workdir)
        print(json.dumps(report, indent=2))
    finally:
        if stack is not None:
            stack.stop_all()
        if redis is not None:
            redis.stop()


if __name__ == "__main__":
    main()
