"""What an open table page costs its player's machine while it waits on them.

    .venv/bin/python bench/page_idle_cpu.py [--port 8103] [--seconds 20] [--settle 10]
        [--width 1280 --height 800]

A turn-based game's table stays open in a tab for hours, most of them waiting on its player. It
makes a fresh SQLite database in a temporary folder, migrates it, arranges a table of four
(the player and three bots) where it is the player's turn to draw (both piles glow), and
serves the site with ``manage.py runserver`` on 127.0.0.1:``--port``. Debian's Chromium
(Playwright, headless, no GPU: every frame is drawn by the CPU, as on many laptops and phones
in power saving) opens the table signed in, waits ``--settle`` seconds, then reads the CPU time
of Chromium's processes (``/proc``) over ``--seconds`` seconds of doing nothing, and the same
again with ``prefers-reduced-motion`` (no animation at all: the floor). Prints one JSON
object: CPU seconds per second of waiting, the renderer's and the rest of Chromium's (the
browser process and the compositor's), and the page's running animations.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from runserver_site import CHROMIUM, fresh_database, serve  # noqa: E402


def chromium_cpu(marker: str) -> dict[str, float]:
    """CPU seconds used so far by this run's Chromium (the process launched with ``marker``
    among its arguments, and its descendants): the renderers and the rest."""
    hz = os.sysconf("SC_CLK_TCK")
    procs: dict[str, tuple[str, str, float]] = {}  # pid: (parent, command line, CPU seconds)
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        procs[pid] = (fields[1], cmd, (int(fields[11]) + int(fields[12])) / hz)
    ours = {pid for pid, (_, cmd, _) in procs.items() if marker in cmd}
    grown = True
    while grown:
        more = {pid for pid, (parent, _, _) in procs.items() if parent in ours} - ours
        ours |= more
        grown = bool(more)
    out = {"renderer": 0.0, "rest": 0.0}
    for pid in ours:
        _, cmd, cpu = procs[pid]
        out["renderer" if "--type=renderer" in cmd else "rest"] += cpu
    return out


def idle(page: Any, seconds: float, marker: str) -> dict[str, Any]:
    before = chromium_cpu(marker)
    time.sleep(seconds)
    after = chromium_cpu(marker)
    used = {k: (after[k] - before[k]) / seconds for k in after}
    return {
        "cpu_per_second": round(sum(used.values()), 4),
        "renderer_per_second": round(used["renderer"], 4),
        "rest_per_second": round(used["rest"], 4),
        "running_animations": page.evaluate(
            """document.getAnimations().filter((a) => a.playState === "running")
                 .map((a) => a.animationName || a.constructor.name)"""
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8103)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--settle", type=float, default=10)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    args = parser.parse_args()

    env = fresh_database("mayi-idle-bench-")
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from tests.browser.tables import MID_GAME, arranged_table
    from tests.live.wsutil import session_for

    me = get_user_model().objects.create_user("idle", "idle@example.com", "x")
    table_id, _ = arranged_table(me, seats=4, **MID_GAME)
    session = session_for(me)
    base = serve(env, args.port)

    from playwright.sync_api import sync_playwright

    result: dict[str, Any] = {"viewport": f"{args.width}x{args.height}", "seconds": args.seconds}
    # A switch Chromium ignores, to tell this run's processes from any other Chromium's.
    marker = f"--mayi-idle-bench={os.getpid()}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu", marker]
        )
        for motion in ("no-preference", "reduce"):
            context = browser.new_context(
                viewport={"width": args.width, "height": args.height}, reduced_motion=motion
            )
            context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
            )
            page = context.new_page()
            page.goto(f"{base}/tables/{table_id}/")
            page.wait_for_selector("#stock.glow")
            time.sleep(args.settle)
            result["motion" if motion == "no-preference" else "reduced_motion"] = idle(
                page, args.seconds, marker
            )
            context.close()
        browser.close()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
