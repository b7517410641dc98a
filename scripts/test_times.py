"""Where a pass of the suite spent its time, from pytest's JUnit XML: seconds per test folder
and the slowest files (setup, call and teardown together), to see what a slow CI run paid for.

    .venv/bin/python scripts/test_times.py PASS.xml [--files 15]
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections import Counter


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("xml")
    parser.add_argument("--files", type=int, default=15)
    args = parser.parse_args()
    try:
        root = ET.parse(args.xml).getroot()
    except (OSError, ET.ParseError) as exc:
        print(f"no timings: {exc}", file=sys.stderr)
        return 0
    folders: Counter[str] = Counter()
    files: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for case in root.iter("testcase"):
        seconds = float(case.get("time") or 0)
        # classname is the module's dotted path: tests.site.test_rows
        parts = (case.get("classname") or "?").split(".")
        folder = "/".join(parts[:2])
        module = "/".join(p for p in parts if not p[:1].isupper()) + ".py"
        folders[folder] += seconds
        files[module] += seconds
        counts[folder] += 1
    total = sum(folders.values())
    print(f"time by folder ({total:.0f} s in tests):")
    for folder, seconds in folders.most_common():
        print(f"  {seconds:7.1f} s  {counts[folder]:5d} tests  {folder}")
    print(f"the {args.files} slowest files:")
    for module, seconds in files.most_common(args.files):
        print(f"  {seconds:7.1f} s  {module}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
