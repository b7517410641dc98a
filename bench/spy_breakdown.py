"""Where a process's CPU went, from py-spy's collapsed stacks: the share of the samples by the
part of the stack that used them (issue 34's breakdown in docs/PERFORMANCE.md).

    py-spy record --pid PID --duration 20 --rate 200 --nonblocking --format raw --output F.txt
    .venv/bin/python bench/spy_breakdown.py F.txt [G.txt ...] [--json]

py-spy samples only threads that are running (not idle ones), so the shares are of CPU.
Each sample is counted twice, once in each table:

- **by layer**: walking from the innermost frame outwards, the first frame whose file belongs
  to a known layer (psycopg, orjson's callers, autobahn, Twisted, the channel layer, Django's
  ORM, the engine, ...) names it; a sample in the standard library only (asyncio, threading,
  logging) counts as that.
- **by work**: walking from the outermost frame inwards, the first frame that says what the
  work is for (an HTTP request, a socket's frames after a change, a socket's connect, the
  channel layer's receive loop, a Celery task, ...).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

# (label, substrings of a frame's file path); the first match from the innermost frame out.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("PostgreSQL driver (psycopg)", ("/psycopg/", "/psycopg_pool/", "/psycopg_c/")),
    ("Redis client and msgpack", ("/redis/", "/msgpack/", "/hiredis/")),
    ("channel layer (channels_redis)", ("/channels_redis/",)),
    ("Celery and kombu (publishing)", ("/kombu/", "/celery/", "/billiard/", "/amqp/", "/vine/")),
    ("websocket protocol (autobahn)", ("/autobahn/", "/txaio/")),
    ("daphne and Twisted (HTTP, sockets)", ("/daphne/", "/twisted/", "/zope/")),
    ("rules engine", ("/games/engine/",)),
    ("Django ORM", ("/django/db/",)),
    ("Django templates", ("/django/template",)),
    ("Django (handlers, middleware, auth, sessions)", ("/django/",)),
    ("Channels (consumers, routing)", ("/channels/", "/asgiref/")),
    (
        "the site's own code",
        (
            "/games/",
            "/mayi_site/",
            "/accounts/",
            "/moderation/",
            "/chat/",
            "/stats/",
            "/notify/",
            "/social/",
            "/analysis/",
            "/privacy/",
            "/tournaments/",
            "/rules/",
        ),
    ),
    (
        "event loop and threads (asyncio, uvloop)",
        ("/asyncio/", "/uvloop/", "/concurrent/", "threading.py", "/selectors.py", "queue.py"),
    ),
    ("logging", ("/logging/",)),
]

# (label, substrings of a frame's "function (file)"); the first match from the outermost in.
WORK: list[tuple[str, tuple[str, ...]]] = [
    ("frames for a table's sockets after a change", ("games/fanout.py", "games/live.py")),
    ("a socket's connect and first frame", ("connect (games/consumers.py", "websocket_connect")),
    (
        "a socket's messages (ping, looking, sync)",
        ("receive_json (games/consumers.py", "websocket_receive"),
    ),
    (
        "HTTP requests (the API's moves and answers)",
        ("mayi_site/handlers.py", "django/core/handlers/"),
    ),
    ("Celery tasks (timers)", ("celery/app/trace.py", "/celery/worker/")),
    ("channel layer receive loop", ("channels_redis/",)),
    ("'since you last looked' marks", ("games/seen_marks.py",)),
    ("websocket framing and sending", ("/autobahn/",)),
    ("Twisted reactor (reads, writes, timers)", ("/twisted/",)),
]

FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>[^:()]*)(?::\d+)?\)$")


def parse(path: Path) -> Counter[tuple[str, ...]]:
    """py-spy's raw (collapsed) format: ``frame;frame;...;frame COUNT`` per line, outermost
    frame first; a frame is ``function (file:line)``."""
    stacks: Counter[tuple[str, ...]] = Counter()
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        stacks[tuple(stack.split(";"))] += int(count)
    return stacks


def _file(frame: str) -> str:
    """The frame's file as py-spy names it (``games/live.py``, ``threading.py``), with a
    leading slash so that a pattern's ``/games/`` matches the top folder too."""
    found = FRAME.match(frame)
    return "/" + (found.group("file") if found else frame)


def layer_of(stack: tuple[str, ...]) -> str:
    for frame in reversed(stack):
        where = _file(frame)
        for label, parts in LAYERS:
            if any(p in where for p in parts):
                return label
    return "standard library (other)"


def work_of(stack: tuple[str, ...]) -> str:
    for label, parts in WORK:
        for frame in stack:
            if any(p in frame for p in parts):
                return label
    return "other"


def breakdown(stacks: Counter[tuple[str, ...]]) -> dict[str, dict[str, float]]:
    total = sum(stacks.values()) or 1
    layers: Counter[str] = Counter()
    work: Counter[str] = Counter()
    for stack, count in stacks.items():
        layers[layer_of(stack)] += count
        work[work_of(stack)] += count
    return {
        "by_layer": {k: round(100 * v / total, 1) for k, v in layers.most_common()},
        "by_work": {k: round(100 * v / total, 1) for k, v in work.most_common()},
        "samples": {"total": total},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    stacks: Counter[tuple[str, ...]] = Counter()
    for path in args.files:
        stacks.update(parse(path))
    result = breakdown(stacks)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"{result['samples']['total']} samples")
    for table in ("by_layer", "by_work"):
        print(table.replace("_", " ") + ":")
        for label, share in result[table].items():
            print(f"  {share:5.1f}%  {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
