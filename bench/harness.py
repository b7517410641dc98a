"""What bench/load.py and the drills in bench/drills/ share: the production processes, bot
clients that play through real HTTP and websockets, and the end-of-run check.

- :class:`Stack`: PostgreSQL (a database of the run's own, dropped and made afresh), Redis (the
  machine's, one db, or a ``redis-server`` of our own on a port of our own, which a drill may
  stop), ``daphne`` processes on ports of their own, Celery timer workers and ONE beat, each
  with its log in the run's work directory, each stoppable, killable and restartable alone.
- :func:`make_tables`: started tables of people only (every seat its own user, API token and
  signed-in session; bga, known seeds). The bots are the clients.
- :class:`Player`: one seat, one real client: a websocket to ``/ws/tables/<id>/`` (its own
  session cookie) for the frames, and HTTP/1.1 keep-alive ``POST /api/tables/<id>/actions``
  (its own bearer token) for its moves, after a human-like think time. It decides from its
  own view only (``decide``); an answer to a "May I?" window refused as stale goes again at
  once, as the page sends it. It reconnects when the socket drops and re-syncs by version,
  retries a 503 once after ``Retry-After``, and keeps a ledger: every action answered 200
  (with the version it made), every answer it never got.
- :func:`check_run`: no move lost, none applied twice, every deadline fired exactly once, and
  every table's state is what its seed and move rows replay to.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_moves import connect, fresh_database, server_env  # noqa: E402
from games.errors import status_of  # noqa: E402

DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/mayi_robust"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
VENV_BIN = ROOT / ".venv" / "bin"


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def wait_for(check: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"timed out waiting for {what}")


def http_ok(port: int, path: str = "/api/openapi.json") -> bool:
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", path)
        return conn.getresponse().status == 200
    finally:
        conn.close()


# -- processes ---------------------------------------------------------------------------


class OwnRedis:
    """A redis-server of the run's own (no persistence), which may be stopped and started."""

    def __init__(self, port: int, workdir: Path) -> None:
        self.port, self.workdir = port, workdir
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        if not port_free(self.port):
            raise SystemExit(f"port {self.port} is taken: pick another --redis-port")
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=open(self.workdir / "redis.log", "ab"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        import redis

        wait_for(lambda: redis.Redis(port=self.port).ping(), 10, "redis-server")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None


@dataclass
class Proc:
    name: str
    argv: list[str]
    popen: subprocess.Popen[bytes] | None = None
    port: int | None = None


class Stack:
    """daphne processes, Celery timer workers and one beat, against one database and Redis."""

    def __init__(
        self,
        *,
        workdir: Path,
        database_url: str,
        redis_url: str,
        daphne_ports: list[int],
        workers: int,
        extra_env: dict[str, str] | None = None,
        daphne_args: tuple[str, ...] = (),
    ) -> None:
        self.workdir = workdir
        self.queue = f"mayi-bench-{uuid.uuid4().hex[:6]}"
        self.redis_url = redis_url
        self.env = {
            **server_env(database_url),
            "REDIS_URL": redis_url,
            "MAYI_CELERY_QUEUE": self.queue,
            "MAYI_MIN_CLOCK_SECONDS": "1",
            # Every bot client comes from 127.0.0.1, and a drill's retries are the point.
            "MAYI_RATE_LIMITS_ENABLED": "0",
            # Each answer says how long it queued and how long Django took (summary()).
            "MAYI_SERVER_TIMING": "1",
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            **(extra_env or {}),
        }
        self.env.pop("MAYI_EMBEDDED_WORKER", None)
        celery = [str(VENV_BIN / "celery"), "-A", "mayi_site"]
        self.procs: dict[str, Proc] = {}
        # Restarted when they exit by themselves, as a process manager does (systemd
        # Restart=always, deploy/): name -> how many times.
        self.restarts: dict[str, int] = {}
        self._stopping: set[str] = set()
        self._supervising = False
        for i, port in enumerate(daphne_ports):
            self.procs[f"daphne{i}"] = Proc(
                f"daphne{i}",
                [
                    str(VENV_BIN / "python"),
                    "-m",
                    "mayi_site.serve",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "-v",
                    "0",
                    *daphne_args,
                    "mayi_site.asgi:application",
                ],
                port=port,
            )
        for i in range(workers):
            self.procs[f"worker{i}"] = Proc(
                f"worker{i}",
                [
                    *celery,
                    "worker",
                    "-Q",
                    self.queue,
                    "--concurrency",
                    "2",
                    "-n",
                    f"timers{i}-{self.queue}@%h",
                    "--loglevel",
                    "WARNING",
                ],
            )
        self.procs["beat"] = Proc(
            "beat",
            [
                *celery,
                "beat",
                "--schedule",
                str(workdir / "beat-schedule"),
                "--loglevel",
                "WARNING",
            ],
        )

    @property
    def ports(self) -> list[int]:
        return [p.port for p in self.procs.values() if p.port is not None]

    def start(self, name: str) -> None:
        proc = self.procs[name]
        self._stopping.discard(name)
        if proc.port is not None and not port_free(proc.port):
            wait_for(lambda: port_free(proc.port or 0), 15, f"port {proc.port} to be free")
        proc.popen = subprocess.Popen(
            proc.argv,
            cwd=ROOT,
            env=self.env,
            start_new_session=True,
            stdout=open(self.workdir / f"{name}.log", "ab"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        if proc.port is not None:
            wait_for(lambda: http_ok(proc.port or 0), 30, f"{name} on port {proc.port}")

    def start_all(self) -> None:
        import threading

        for name in self.procs:
            self.start(name)
        time.sleep(3)  # the workers consuming, the beat ticking
        self._supervising = True
        threading.Thread(target=self._supervise, daemon=True).start()

    def _supervise(self) -> None:
        while self._supervising:
            time.sleep(1.0)
            for name, proc in list(self.procs.items()):
                if name in self._stopping or proc.popen is None or proc.popen.poll() is None:
                    continue
                log(f"{name} exited by itself (status {proc.popen.returncode}): starting it again")
                self.restarts[name] = self.restarts.get(name, 0) + 1
                try:
                    self.start(name)
                except SystemExit as exc:
                    log(f"{name} did not come back: {exc}")

    def send(self, name: str, sig: int) -> None:
        popen = self.procs[name].popen
        if popen is not None and popen.poll() is None:
            os.killpg(popen.pid, sig)

    def stop(self, name: str, sig: int = signal.SIGTERM, wait: float = 15) -> None:
        popen = self.procs[name].popen
        if popen is None:
            return
        self._stopping.add(name)
        self.send(name, sig)
        try:
            popen.wait(wait)
        except subprocess.TimeoutExpired:
            self.send(name, signal.SIGKILL)
            popen.wait(5)
        self.procs[name].popen = None

    def stop_all(self) -> None:
        self._supervising = False
        for name in list(self.procs):
            self.stop(name)
        try:
            import redis

            redis.Redis.from_url(self.redis_url, socket_connect_timeout=1).delete(
                self.queue, f"{self.queue}-mail"
            )
        except Exception:  # the drill's own Redis may be gone: nothing to clean
            pass

    def pids(self) -> dict[str, list[int]]:
        """Each process and its children (the Celery pool's forks)."""
        out: dict[str, list[int]] = {}
        for name, proc in self.procs.items():
            if proc.popen is None or proc.popen.poll() is not None:
                continue
            out[name] = [proc.popen.pid, *children(proc.popen.pid)]
        return out

    def peak_memory_mb(self) -> dict[str, float]:
        """Peak resident memory (VmHWM) of each process, its children added."""
        return {
            name: round(sum(vm_hwm_kb(pid) for pid in pids) / 1024, 1)
            for name, pids in self.pids().items()
        }


def children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                out += [int(child), *children(int(child))]
    except OSError:
        pass
    return out


def vm_hwm_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def prepare_database(database_url: str) -> None:
    """A fresh database of the run's own, migrated; Django set up on it in this process."""
    os.environ.update({**server_env(database_url), "REDIS_URL": "", "MAYI_MIN_CLOCK_SECONDS": "1"})
    fresh_database(database_url)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env={**os.environ},
        check=True,
    )
    import django

    django.setup()


# -- tables ------------------------------------------------------------------------------


@dataclass
class SeatCredentials:
    table_id: int
    seat: int
    username: str
    token: str
    session: str


def make_tables(
    count: int, seats: int, *, window_seconds: int, turn_seconds: int, tag: str
) -> list[list[SeatCredentials]]:
    """Started bga tables of people only; per table, per seat, what its client signs in with."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User

    from accounts.tokens import token_issue
    from games import services

    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    out: list[list[SeatCredentials]] = []
    for t in range(count):
        users = []
        for s in range(seats):
            user = User.objects.create_user(f"{tag}-{t}-{s}", None, None)
            store = store_class()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            assert store.session_key is not None
            users.append((user, token_issue(user=user), store.session_key))
        table = services.table_create(
            host=users[0][0],
            seats=seats,
            window_seconds=window_seconds,
            turn_seconds=turn_seconds,
            public=False,
        )
        for user, _, _ in users[1:]:
            services.table_join(user=user, invite_code=table.invite_code)
        services.table_start(user=users[0][0], table_id=table.pk, seed=f"{tag}-{t}")
        out.append(
            [
                SeatCredentials(table.pk, s, u.username, token, key)
                for s, (u, token, key) in enumerate(users)
            ]
        )
    return out


# -- the client --------------------------------------------------------------------------


class HttpConnection:
    """HTTP/1.1 keep-alive over asyncio streams (the standard library has no async client)."""

    def __init__(self, port: int, tls: ssl.SSLContext | None = None) -> None:
        self.port, self.tls = port, tls
        # Through a TLS proxy (bench/proxy_check.py) the site is "localhost", as in its cert.
        self.host = "localhost" if tls is not None else "127.0.0.1"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1",
                self.port,
                ssl=self.tls,
                server_hostname=self.host if self.tls is not None else None,
            )
        assert self.reader is not None
        head = [
            f"{method} {path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            f"Content-Length: {len(body)}",
        ]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        try:
            status_line = await self.reader.readuntil(b"\r\n")
            status = int(status_line.split()[1])
            answer_headers: dict[str, str] = {}
            while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
                k, _, v = line.decode("latin-1").partition(":")
                answer_headers[k.strip().lower()] = v.strip()
            if "content-length" in answer_headers:
                data = await self.reader.readexactly(int(answer_headers["content-length"]))
            elif answer_headers.get("transfer-encoding") == "chunked":
                data = b""
                while size := int((await self.reader.readuntil(b"\r\n")).strip(), 16):
                    data += await self.reader.readexactly(size)
                    await self.reader.readuntil(b"\r\n")
                await self.reader.readuntil(b"\r\n")
            else:
                data = await self.reader.read()
                await self.close()
            if answer_headers.get("connection") == "close":
                await self.close()
            return status, answer_headers, data
        except BaseException:
            await self.close()
            raise


def decide(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """What a plain bot does with its own view (nothing else: no hidden card). ``None``: not
    its move. Answers a "May I?" window with "no thanks" (or ``may_i`` one time in five)."""
    from games.engine import new_game
    from games.engine.legal import contract_melds

    if view.get("game_over") or view.get("hand") is None:
        return None
    seat = view["seat"]
    if view.get("may_answer"):
        return {"type": "may_i" if rng.random() < 0.2 else "no_thanks"}
    if view["active_seat"] != seat or view.get("turn_done"):
        return None
    hand: list[str] = view["hand"]
    if view["phase"] == "draw":
        return {"type": "draw", "source": "stock"}
    if view["phase"] != "play":
        return None
    if not view["contract_down"][seat]:
        # Only this seat's hand and the round matter to the contract's search.
        mine = new_game(view["players"], "view-bot", view["ruleset"], view.get("options") or None)
        mine["round"], mine["active"], mine["phase"] = view["round"], seat, "play"
        mine["hands"][seat] = list(hand)
        melds = contract_melds(mine, seat)
        if melds is not None:
            return {"type": "lay_down", "melds": melds}
    if view.get("lay_offs"):
        return dict(view["lay_offs"][0])
    if len(hand) == 1 and not view.get("final_discard_allowed", True):
        return {"type": "pass"}
    # The highest card goes (it costs the most if caught), never a wild.
    return {"type": "discard", "card": max(hand, key=lambda c: (card_points(view, c), c))}


ANSWERS = ("may_i", "no_thanks")


def answered_card(view: dict[str, Any]) -> str | None:
    """The card a "May I?" answer is about: the one on offer, or the discard on top."""
    window = view.get("buy_window")
    return window["card"] if window else view.get("discard_top")


def card_points(view: dict[str, Any], card: str) -> int:
    face = view.get("faces", {}).get(card) or {}
    if face.get("wild"):
        return -1  # keep wilds
    rank = face.get("rank") or 0
    return int(rank) if isinstance(rank, int) else 0


@dataclass
class Ledger:
    """What one client saw: its answers, and every action it knows applied."""

    acked: list[tuple[int, int, dict[str, Any]]] = field(
        default_factory=list
    )  # table, version, action
    unknown: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)  # no answer came
    # (when, seconds) per answered POST, and per frame from the move's commit to this socket.
    latencies: list[tuple[float, float]] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    # (when, ms waiting for a request thread, ms in Django, ms of it waiting for and reading
    # the locked table row) per answered POST, from its Server-Timing header: what of a latency
    # was the server's queue, its work, the table's other writers, or none of them.
    server: list[tuple[float, float, float, float]] = field(default_factory=list)
    fanout: list[tuple[float, float]] = field(default_factory=list)
    frames: int = 0
    # version -> when its frame came, or the answer to this seat's own move (the page names its
    # socket in the POST, and that socket gets no frame of the version: games/fanout.py)
    seen: dict[int, float] = field(default_factory=dict)
    reconnects: int = 0
    errors: list[str] = field(default_factory=list)
    reads: int = 0  # GET of the table (socket down, silence, after an error)
    retried: int = 0  # requests sent again after a 503 (once each at most)
    dropped: int = 0  # requests whose connection dropped before the answer (sent again)


class Player:
    """One seat's client: a websocket for frames, keep-alive HTTP for moves."""

    def __init__(
        self,
        cred: SeatCredentials,
        port: int,
        *,
        think: tuple[float, float],
        answer_windows: bool,
        rng: random.Random,
        ledger: Ledger,
        stop_at: float,
        slow_turns: float = 0.0,
        start_after: float = 0.0,
        tls: ssl.SSLContext | None = None,
        moves: str = "http",
    ) -> None:
        self.start_after = start_after
        # "socket": moves go over the table's websocket, each answered by a frame or an error
        # naming its ``ref``, as the page sends them while its socket is open
        # (static/js/table/api.js); "http": by POST, as API clients do.
        self.moves = moves
        self.ws: Any = None
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.refs = 0
        self.cred, self.port, self.think, self.rng = cred, port, think, rng
        self.answer_windows = answer_windows
        self.ledger, self.stop_at = ledger, stop_at
        self.slow_turns = slow_turns  # chance of sitting out a turn (the clock plays it)
        self.view: dict[str, Any] | None = None
        self.version = -1
        self.changed = asyncio.Event()
        self.http = HttpConnection(port, tls)
        self.tls = tls
        # The socket's name, sent with each move as the page does (static/js/table/socket.js).
        self.client = f"bench{rng.getrandbits(64):016x}"
        self.connected = asyncio.Event()
        self.socket_up = False
        self.last_heard = time.time()
        # An answer refused as stale (409), and the card it was about: sent again at once.
        self.again: tuple[dict[str, Any], str | None] | None = None

    def take(self, table: dict[str, Any], view: dict[str, Any]) -> None:
        # Only a newer version is news: the frame of the version a move's answer brought (a
        # server that sends it) made the client think again, as if the table had moved on.
        if table["version"] > self.version:
            self.version, self.view = table["version"], view
            self.changed.set()

    async def socket_loop(self) -> None:
        import websockets

        await asyncio.sleep(self.start_after)  # clients arrive over a few seconds, not at once
        backoff = 0.2
        while time.time() < self.stop_at:
            try:
                host, tls = self.http.host, self.tls
                # Through the TLS proxy: "localhost" in the URI and the cert, 127.0.0.1 dialled.
                through = {"ssl": tls, "host": "127.0.0.1"} if tls is not None else {}
                async with websockets.connect(
                    f"{'wss' if tls else 'ws'}://{host}:{self.port}"
                    f"/ws/tables/{self.cred.table_id}/?client={self.client}",
                    origin=f"{'https' if tls else 'http'}://{host}:{self.port}",
                    **through,  # type: ignore[arg-type]
                    additional_headers={"Cookie": f"sessionid={self.cred.session}"},
                    max_size=2**22,
                    ping_interval=None,
                    open_timeout=30,
                ) as ws:
                    backoff = 0.2
                    self.ws = ws
                    self.connected.set()
                    self.socket_up = True
                    while True:
                        left = self.stop_at - time.time()
                        if left <= 0:
                            return
                        try:
                            raw = await asyncio.wait_for(ws.recv(), left)
                        except TimeoutError:
                            return
                        received = self.last_heard = time.time()
                        frame = json.loads(raw)
                        waiting = self.answers.pop(frame.get("ref"), None)
                        if waiting is not None and not waiting.done():
                            waiting.set_result(frame)
                        if frame.get("type") == "error" and "table" in frame and "view" in frame:
                            # A stale move's error carries the fresh table: the socket is sent
                            # no frame of that version after it.
                            self.ledger.seen[frame["version"]] = received
                            self.take(frame["table"], frame["view"])
                            continue
                        if frame.get("type") != "table":
                            continue
                        self.ledger.frames += 1
                        self.ledger.seen[frame["version"]] = received
                        if "committed_at" in frame:
                            self.ledger.fanout.append((received, received - frame["committed_at"]))
                        self.take(frame["table"], frame["view"])
            except Exception as exc:  # reconnect on any drop
                self.socket_up = False
                self.ws = None
                for waiting in self.answers.values():
                    if not waiting.done():
                        waiting.set_exception(ConnectionError("the socket dropped"))
                self.answers.clear()
                if time.time() >= self.stop_at:
                    return
                self.ledger.reconnects += 1
                if (
                    not isinstance(exc, OSError | asyncio.TimeoutError)
                    and "ConnectionClosed" not in type(exc).__name__
                    and "InvalidStatus" not in type(exc).__name__
                ):
                    self.ledger.errors.append(f"socket: {type(exc).__name__}: {exc}"[:200])
                await asyncio.sleep(backoff)
                backoff = min(2.0, backoff * 2)

    async def post(self, action: dict[str, Any], version: int) -> tuple[int, dict[str, Any] | None]:
        """POST the action at ``version``. A 503 is retried once after its Retry-After; a
        dropped connection (a restarting server) up to 5 times, 0.5 s apart: the version
        makes a retry of a move that did apply a harmless 409."""
        body = json.dumps({**action, "expect_version": version}).encode()
        headers = {
            "Authorization": f"Bearer {self.cred.token}",
            "Content-Type": "application/json",
            "X-Table-Socket": self.client,
        }
        status, payload, retried_503, dropped = 0, None, False, 0
        while True:
            sent = time.perf_counter()
            try:
                status, answer_headers, data = await asyncio.wait_for(
                    self.http.request(
                        "POST", f"/api/tables/{self.cred.table_id}/actions", body, headers
                    ),
                    30,
                )
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
                # No answer: it may or may not have applied (the check accepts either, once).
                self.ledger.unknown.append((self.cred.table_id, version + 1, action))
                dropped += 1
                self.ledger.dropped += 1
                if dropped > 5 or time.time() > self.stop_at:
                    self.ledger.errors.append(f"no answer: {type(exc).__name__}")
                    return 0, None
                await asyncio.sleep(0.5)
                continue
            self.ledger.latencies.append((time.time(), time.perf_counter() - sent))
            self.ledger.statuses[status] = self.ledger.statuses.get(status, 0) + 1
            timing = server_timing(answer_headers.get("server-timing", ""))
            if "queue" in timing and "app" in timing:
                self.ledger.server.append(
                    (time.time(), timing["queue"], timing["app"], timing.get("lock", 0.0))
                )
            if status in (502, 504) and dropped < 5 and time.time() < self.stop_at:
                # A proxy's "bad gateway": the process it sent the move to went away, maybe
                # after applying it. As for a dropped connection: unknown, and the retry at
                # the same version is a harmless 409 if it did apply. (The site never answers
                # 502 or 504 itself.)
                self.ledger.unknown.append((self.cred.table_id, version + 1, action))
                dropped += 1
                self.ledger.dropped += 1
                await asyncio.sleep(0.5)
                continue
            payload = json.loads(data) if data[:1] == b"{" else None
            if status == 503 and not retried_503:
                retried_503 = True
                self.ledger.retried += 1
                await asyncio.sleep(float(answer_headers.get("retry-after", "1")))
                continue
            return status, payload

    async def act(self, action: dict[str, Any], version: int) -> tuple[int, dict[str, Any] | None]:
        """Play the action at ``version``: over the socket while it is up with
        ``moves="socket"``, else by HTTP (as the page does while its socket is down)."""
        if self.moves != "socket" or self.ws is None:
            return await self.post(action, version)
        self.refs += 1
        ref = str(self.refs)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[ref] = answer
        message = {"type": "action", "action": action, "expect_version": version, "ref": ref}
        sent = time.perf_counter()
        try:
            await self.ws.send(json.dumps(message))
            frame = await asyncio.wait_for(answer, 30)
        except Exception as exc:
            # No answer: it may or may not have applied (the check accepts either, once).
            self.answers.pop(ref, None)
            self.ledger.unknown.append((self.cred.table_id, version + 1, action))
            self.ledger.dropped += 1
            if not isinstance(exc, TimeoutError | ConnectionError) and "Closed" not in str(
                type(exc)
            ):
                self.ledger.errors.append(f"socket move: {type(exc).__name__}"[:200])
            return 0, None
        self.ledger.latencies.append((time.time(), time.perf_counter() - sent))
        if frame.get("type") == "table":
            status = 200
        else:
            # The error's code, as the HTTP status the API answers it with (the registry's).
            status = status_of(frame.get("error", {}).get("code", ""))
        self.ledger.statuses[status] = self.ledger.statuses.get(status, 0) + 1
        # A stale move's error carries the fresh table, as the API's 409 does.
        return status, frame

    async def play_loop(self) -> None:
        try:
            await asyncio.wait_for(self.connected.wait(), max(1.0, self.stop_at - time.time()))
        except TimeoutError:
            self.ledger.errors.append("socket never connected")
            return
        while time.time() < self.stop_at:
            view = self.view
            action = decide(view, self.rng) if view is not None else None
            if (
                action is not None
                and action["type"] in ("may_i", "no_thanks")
                and not self.answer_windows
            ):
                action = None
            if action is None:
                self.changed.clear()
                try:
                    await asyncio.wait_for(
                        self.changed.wait(), max(0.1, min(5.0, self.stop_at - time.time()))
                    )
                except TimeoutError:
                    # Nothing heard: read the table, as the page polls the API while its
                    # socket is down; with the socket up, only after 20 s of silence (frames
                    # stop with Redis down: the channel layer).
                    silent = time.time() - self.last_heard
                    if time.time() < self.stop_at - 1 and (not self.socket_up or silent > 20):
                        await self.refresh()
                continue
            again, self.again = self.again, None
            if again is not None and action["type"] in ANSWERS and answered_card(view) == again[1]:
                # As the page does (static/js/table/api.js): an answer that met another seat's
                # goes again at once while the window still waits on me for the same card.
                action = again[0]
            else:
                if action["type"] == "draw" and self.rng.random() < self.slow_turns:
                    await asyncio.sleep(min(self.stop_at - time.time(), 8.0))  # the clock plays
                    continue
                await asyncio.sleep(self.rng.uniform(*self.think))
                if time.time() >= self.stop_at:
                    return
            version = self.version
            if self.view is not view:
                continue  # something happened while thinking: think again
            status, payload = await self.act(action, version)
            if status == 200 and payload is not None:
                self.ledger.acked.append((self.cred.table_id, payload["table"]["version"], action))
                self.ledger.seen.setdefault(payload["table"]["version"], time.time())
                self.take(payload["table"], payload["view"])
            elif (
                status in (400, 409)
                and payload is not None
                and ("view" in payload or payload.get("type") == "error")
            ):
                if "view" in payload:
                    self.take(payload["table"], payload["view"])
                if status == 409 and action["type"] in ANSWERS and again is None:
                    self.again = (action, answered_card(view))
                if status == 400:
                    await asyncio.sleep(0.5)
            elif status == 0 or status >= 500:
                if status >= 500:
                    self.ledger.errors.append(f"HTTP {status}")
                await asyncio.sleep(1.0)
                await self.refresh()
            else:
                await asyncio.sleep(0.5)
                await self.refresh()

    async def refresh(self) -> None:
        try:
            status, _, data = await asyncio.wait_for(
                self.http.request(
                    "GET",
                    f"/api/tables/{self.cred.table_id}",
                    headers={"Authorization": f"Bearer {self.cred.token}"},
                ),
                30,
            )
        except (TimeoutError, OSError, asyncio.IncompleteReadError):
            return
        self.ledger.reads += 1
        if status == 200:
            payload = json.loads(data)
            self.last_heard = time.time()
            self.take(payload["table"], payload["view"])

    async def run(self) -> None:
        try:
            await asyncio.gather(self.socket_loop(), self.play_loop())
        finally:
            await self.http.close()


async def play_all(
    tables: list[list[SeatCredentials]],
    ports: list[int],
    *,
    seconds: float,
    think: tuple[float, float],
    answer_windows: bool,
    seed: int = 1,
    slow_turns: float = 0.0,
    during: Any = None,
    arrivals_per_s: float = 100.0,
    tls: ssl.SSLContext | None = None,
    by_table: bool = False,
    moves: str = "http",
) -> list[Ledger]:
    """Every seat's client, table i on ports[i % len(ports)] (seats of one table are split
    across the daphne processes too when there are several: seat s of table i on
    ports[(i + s) % n]; with ``by_table``, every seat of table i on ports[i % n], as proxies
    that route by table send them); ``during`` (a coroutine function) runs alongside, the
    drill's fault."""
    rng = random.Random(seed)
    stop_at = time.time() + seconds
    ledgers: list[Ledger] = []
    players: list[Player] = []
    for i, table in enumerate(tables):
        for cred in table:
            ledger = Ledger()
            ledgers.append(ledger)
            players.append(
                Player(
                    cred,
                    ports[(i + (0 if by_table else cred.seat)) % len(ports)],
                    think=think,
                    answer_windows=answer_windows,
                    rng=random.Random(rng.random()),
                    ledger=ledger,
                    stop_at=stop_at,
                    slow_turns=slow_turns,
                    start_after=len(players) / arrivals_per_s,
                    tls=tls,
                    moves=moves,
                )
            )
    tasks = [asyncio.create_task(p.run()) for p in players]
    if during is not None:
        tasks.append(asyncio.create_task(during()))
    await asyncio.gather(*tasks)
    return ledgers


# -- the check ---------------------------------------------------------------------------


def check_run(
    tables: list[list[SeatCredentials]], ledgers: list[Ledger], *, settle: float = 8.0
) -> dict[str, Any]:
    """After the run (and ``settle`` seconds for timers due at its end):

    - every action a client got 200 for is a move row, once (its table, version and action);
      no person's move row is one its client neither got 200 for nor lost the answer of;
    - each table's move rows replay from its seed to its stored state;
    - every "May I?" window opened was closed exactly once, and no deadline is left overdue;
      a turn clock that ran out played that turn once (one ``timeout`` per turn at most),
      and its move holds the plays it made (a replay asks no bot).
    """
    from django.db import connections, transaction
    from django.utils import timezone

    from games.engine.records import initial_state, replay
    from games.models import Move, Seat, Table

    connections.close_all()
    time.sleep(settle)
    ids = [t[0].table_id for t in tables]
    problems: list[str] = []
    acked = {(t, v, json.dumps(a, sort_keys=True)) for led in ledgers for t, v, a in led.acked}
    unknown = {(t, json.dumps(a, sort_keys=True)) for led in ledgers for t, _, a in led.unknown}
    acked_count = sum(len(led.acked) for led in ledgers)
    if len(acked) != acked_count:
        problems.append("one client version acknowledged twice")
    person_moves = 0
    windows_opened = windows_closed = timer_closes = timeouts = 0
    now = timezone.now()
    for table_id in ids:
        # Under the table's row lock, as every writer takes it: no move can commit between
        # reading the table and reading its moves (the timers still run while this checks).
        with transaction.atomic():
            table = Table.objects.select_for_update().get(pk=table_id)
            moves = list(Move.objects.filter(table=table).order_by("seq"))
        seats = {s.position: s for s in Seat.objects.filter(table=table)}
        rows = {(table.pk, m.version, json.dumps(m.action, sort_keys=True)) for m in moves}
        for key in acked:
            if key[0] == table.pk and key not in rows:
                problems.append(
                    f"table {table.pk}: acknowledged move at version {key[1]} is missing"
                )
        for m in moves:
            if m.seat is None or m.by_bot or seats[m.seat].user_id is None:
                continue
            person_moves += 1
            key = (table.pk, m.version, json.dumps(m.action, sort_keys=True))
            if key not in acked and (table.pk, key[2]) not in unknown:
                problems.append(
                    f"table {table.pk}: move {m.seq} (version {m.version}) no client asked for"
                )
        state = initial_state(table.state)
        try:
            for after, _ in replay(state, [(m.seat, m.action) for m in moves]):
                state = after
        except Exception as exc:
            problems.append(f"table {table.pk}: the move rows do not replay: {exc}")
        if state != table.state:
            problems.append(f"table {table.pk}: the move rows replay to another state")
        open_window = False
        turn_timeouts = 0
        for m in moves:
            if m.seat is None and m.action.get("type") == "close_window":
                timer_closes += 1
            if m.seat is None and m.action.get("type") == "timeout":
                if not m.action.get("plays"):
                    # A replay would ask the bot again: a change to it would change this game.
                    problems.append(f"table {table.pk}: timeout move {m.seq} without its plays")
                # Counted against the turn it ended, before its own events start the next.
                timeouts += 1
                turn_timeouts += 1
                if turn_timeouts > 1:
                    problems.append(f"table {table.pk}: one turn timed out twice (move {m.seq})")
            for event in m.events:
                kind = event.get("type")
                if kind == "window_opened":
                    if open_window:
                        problems.append(f"table {table.pk}: a window opened over an open one")
                    open_window = True
                    windows_opened += 1
                elif kind == "window_closed":
                    if not open_window:
                        problems.append(f"table {table.pk}: move {m.seq} closed a window twice")
                    open_window = False
                    windows_closed += 1
                elif kind in ("turn", "round_started"):
                    turn_timeouts = 0
        slack = 6.0  # the sweep runs every 2 s
        for name in ("window_deadline", "turn_deadline"):
            deadline = getattr(table, name)
            late = (now - deadline).total_seconds() if deadline is not None else 0.0
            if table.status == Table.Status.PLAYING and late > slack:
                problems.append(
                    f"table {table.pk}: {name} overdue by {(now - deadline).total_seconds():.1f} s"
                )
    return {
        "ok": not problems,
        "problems": problems[:20],
        "problem_count": len(problems),
        "acknowledged_moves": acked_count,
        "answers_lost": sum(len(led.unknown) for led in ledgers),
        "person_move_rows": person_moves,
        "windows_opened": windows_opened,
        "windows_closed": windows_closed,
        "windows_closed_by_timer": timer_closes,
        "turn_timeouts": timeouts,
    }


def server_timing(header: str) -> dict[str, float]:
    """``queue;dur=1.5, app;dur=7.0`` -> {"queue": 1.5, "app": 7.0} (ms)."""
    out: dict[str, float] = {}
    for metric in header.split(","):
        name, _, params = metric.strip().partition(";")
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "dur" and value.replace(".", "", 1).isdigit():
                out[name] = float(value)
    return out


def _server_part(ledgers: list[Ledger], since: float, index: int) -> dict[str, float]:
    from bench.fanout import percentiles

    return percentiles(
        [row[index] / 1000 for led in ledgers for row in led.server if row[0] >= since]
    )


def summary(ledgers: list[Ledger], seconds: float, since: float = 0.0) -> dict[str, Any]:
    """The clients' figures; latencies only of what happened at or after ``since`` (epoch
    seconds: a load run leaves out the time its clients spent connecting)."""
    from bench.fanout import percentiles

    latencies = [x for led in ledgers for t, x in led.latencies if t >= since]
    fanout = [x for led in ledgers for t, x in led.fanout if t >= since]
    statuses: dict[str, int] = {}
    for led in ledgers:
        for k, v in led.statuses.items():
            statuses[str(k)] = statuses.get(str(k), 0) + v
    errors = [e for led in ledgers for e in led.errors]
    return {
        "actions": sum(len(led.acked) for led in ledgers),
        "actions_per_s": round(sum(len(led.acked) for led in ledgers) / seconds, 1),
        "action_latency": percentiles(latencies),
        # The server's share of it (Server-Timing): waiting for a request thread, and Django's
        # work (the row lock's wait included). The rest is daphne's loop, the network and the
        # client's own loop.
        "server_queue": _server_part(ledgers, since, 1),
        "server_app": _server_part(ledgers, since, 2),
        "server_lock": _server_part(ledgers, since, 3),
        "fanout_latency": percentiles(fanout),
        "statuses": statuses,
        "frames": sum(led.frames for led in ledgers),
        "table_reads": sum(led.reads for led in ledgers),
        "socket_reconnect_attempts": sum(led.reconnects for led in ledgers),
        "retried_503": sum(led.retried for led in ledgers),
        "resent_after_a_dropped_connection": sum(led.dropped for led in ledgers),
        "errors": len(errors),
        "error_samples": sorted(set(errors))[:10],
    }


def workdir_for(name: str) -> Path:
    path = Path("/tmp") / f"mayi-{name}-{uuid.uuid4().hex[:6]}"
    path.mkdir(parents=True)
    return path


def terminate_backends(database_url: str) -> int:
    """pg_terminate_backend every backend of the run's database but ours; how many."""
    from urllib.parse import urlsplit

    name = urlsplit(database_url).path.lstrip("/")
    with connect(database_url, "postgres") as conn:
        rows = conn.execute(
            "select pg_terminate_backend(pid) from pg_stat_activity "
            "where datname = %s and pid <> pg_backend_pid()",
            (name,),
        ).fetchall()
    return len(rows)


# -- a drill's skeleton ------------------------------------------------------------------


def drill_parser(description: str, **defaults: Any) -> Any:
    import argparse

    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=defaults.get("tables", 12))
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=defaults.get("seconds", 40.0))
    parser.add_argument("--window-seconds", type=int, default=defaults.get("window", 3))
    parser.add_argument("--turn-seconds", type=int, default=defaults.get("turn", 6))
    parser.add_argument(
        "--slow-turns",
        type=float,
        default=defaults.get("slow_turns", 0.05),
        help="chance a player sits out a turn, so its turn clock runs out",
    )
    parser.add_argument("--database-url", default=DATABASE_URL, help="dropped and made afresh")
    parser.add_argument("--port", type=int, default=defaults.get("port", 8210), help="daphne")
    parser.add_argument(
        "--redis-port", type=int, default=defaults.get("redis_port", 8279), help="own redis-server"
    )
    parser.add_argument("--workers", type=int, default=1, help="Celery timer workers")
    parser.add_argument(
        "--daphne-processes",
        type=int,
        default=1,
        help="daphne processes on --port, --port + 1...; every table's seats split across them",
    )
    return parser


def run_drill(name: str, args: Any, fault: Any) -> int:
    """Set up, play ``args.seconds`` with ``fault(stack, redis)`` running alongside, check, and
    print one JSON object; the exit status is 0 when the check found nothing."""
    workdir = workdir_for(name)
    redis = OwnRedis(args.redis_port, workdir)
    redis.start()
    stack: Stack | None = None
    began = time.time()
    try:
        prepare_database(args.database_url)
        log(f"{name}: {args.tables} tables of {args.seats}, logs in {workdir}")
        tables = make_tables(
            args.tables,
            args.seats,
            window_seconds=args.window_seconds,
            turn_seconds=args.turn_seconds,
            tag=name,
        )
        release_connections()
        stack = Stack(
            workdir=workdir,
            database_url=args.database_url,
            redis_url=redis.url,
            daphne_ports=[args.port + i for i in range(args.daphne_processes)],
            workers=args.workers,
        )
        stack.start_all()

        async def during() -> None:
            await fault(stack, redis, args)

        ledgers = asyncio.run(
            play_all(
                tables,
                stack.ports,
                seconds=args.seconds,
                think=(0.3, 1.5),
                answer_windows=False,
                slow_turns=args.slow_turns,
                during=during,
            )
        )
        if redis.proc is None:
            redis.start()
        log("play over: letting the last deadlines fire, then checking")
        check = check_run(tables, ledgers, settle=args.turn_seconds + 6)
        report = {
            "drill": name,
            "tables": args.tables,
            "seats": args.seats,
            "seconds": args.seconds,
            "daphne_processes": args.daphne_processes,
            "workers": args.workers,
            "window_seconds": args.window_seconds,
            "turn_seconds": args.turn_seconds,
            "clients": summary(ledgers, args.seconds),
            "check": check,
            # Exits nobody asked for, each followed by a restart (as systemd would).
            "unplanned_exits": dict(stack.restarts),
            "wall_seconds": round(time.time() - began, 1),
            "load_average": os.getloadavg()[0],
            "workdir": str(workdir),
        }
        print(json.dumps(report, indent=2))
        return 0 if check["ok"] and not report["clients"]["statuses"].get("500") else 1
    finally:
        if stack is not None:
            stack.stop_all()
        redis.stop()


def release_connections() -> None:
    """Close this process's connections and pool before the run (the check opens new ones)."""
    from django.db import connections

    connections.close_all()
    for conn in connections.all():
        if getattr(conn, "pool", None) is not None:
            conn.close_pool()
