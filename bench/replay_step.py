"""The replay page in Chromium: its one fetch, and the time to draw each step in the page.

    .venv/bin/python bench/replay_step.py [--players 3] [--seed bench-replay] [--port 8102]
        [--jumps 100] [--width 1280 --height 800]

It makes a fresh SQLite database in a temporary folder, migrates it, plays one whole game
through the services (``--players`` people, moves chosen by the bot policy), and serves the
site with ``manage.py runserver`` on 127.0.0.1:``--port`` (DEBUG on, so it serves the static
files; the timings are the browser's, not the server's). Debian's Chromium (Playwright,
headless) opens ``/tables/<id>/replay/`` signed in, waits until the game is drawn, then:

- steps through every move with the ``→`` key, one at a time;
- jumps ``--jumps`` times to a random move with the slider (an ``input`` event);

and for each it times, in the page, from the key (or the slider's event) to the step drawn and
laid out (``render``: Preact's render is synchronous, then a forced layout), and to the next
animation frame (``frame``: the paint's turn, which waits for the display's next tick).
Prints one JSON object: the moves, the fetch's size (raw and compressed), the time from
navigation to the game drawn, and the median, p90, min and max of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from runserver_site import CHROMIUM, fresh_database, serve  # noqa: E402

STEP = """async ([how, targets]) => {
  const app = document.getElementById("replay-app");
  const slider = () => document.getElementById("replay-slider");
  const out = [];
  for (const target of targets) {
    const before = app.dataset.move;
    const t0 = performance.now();
    if (how === "key") {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    } else {
      const s = slider();
      s.value = String(target);
      s.dispatchEvent(new Event("input", { bubbles: true }));
    }
    void document.body.offsetHeight; // the layout, forced now
    const t1 = performance.now();
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    const t2 = performance.now();
    if (app.dataset.move === before && String(target) !== before) throw new Error("no step");
    out.push([t1 - t0, t2 - t0]);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return out;
}"""


def summary(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {
        "median_ms": round(statistics.median(values), 2),
        "p90_ms": round(values[int(0.9 * (len(values) - 1))], 2),
        "min_ms": round(values[0], 2),
        "max_ms": round(values[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", default="bench-replay")
    parser.add_argument("--port", type=int, default=8102)
    parser.add_argument("--jumps", type=int, default=100)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    args = parser.parse_args()

    env = fresh_database("mayi-replay-bench-")
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from tests.live.wsutil import session_for
    from tests.site.stats_play import play_game

    users = get_user_model().objects
    people = [users.create_user(f"p{i}", f"p{i}@example.com", "x") for i in range(args.players)]
    table = play_game(people[0], people[1:], seed=args.seed)
    session = session_for(people[0])
    base = serve(env, args.port)
    with urllib.request.urlopen(f"{base}/api/tables/{table.pk}/replay") as raw:
        raw_bytes = len(raw.read())
    zipped = urllib.request.Request(
        f"{base}/api/tables/{table.pk}/replay", headers={"Accept-Encoding": "gzip"}
    )
    with urllib.request.urlopen(zipped) as response:
        gzip_bytes = len(response.read())

    from playwright.sync_api import sync_playwright

    result: dict[str, Any] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(viewport={"width": args.width, "height": args.height})
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])
        page = context.new_page()
        loads = []
        for _ in range(3):
            t0 = time.perf_counter()
            page.goto(f"{base}/tables/{table.pk}/replay/")
            page.wait_for_selector("#replay-app[data-ready='1']", timeout=60000)
            loads.append((time.perf_counter() - t0) * 1000)
        total = int(page.get_attribute("#replay-app", "data-total") or 0)
        steps = page.evaluate(STEP, ["key", list(range(1, total + 1))])
        import random

        rng = random.Random(args.seed)
        jumps = page.evaluate(
            STEP, ["slider", [rng.randrange(0, total + 1) for _ in range(args.jumps)]]
        )
        browser.close()
    result = {
        "players": args.players,
        "moves": total,
        "viewport": f"{args.width}x{args.height}",
        "fetch_bytes": raw_bytes,
        "fetch_gzip_bytes": gzip_bytes,
        "load_to_drawn": summary(loads),
        "step_render": summary([s[0] for s in steps]),
        "step_to_next_frame": summary([s[1] for s in steps]),
        "jump_render": summary([j[0] for j in jumps]),
        "jump_to_next_frame": summary([j[1] for j in jumps]),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
