"""The rules the code cites are in the repository: every "docs/RULES.md section N" in the
sources and tests names a section docs/RULES.md has."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CITATION = re.compile(r"(docs/)?RULES\.md,? sections? (\d+)(?:\.\d+)?(?: and (\d+)(?:\.\d+)?)?")


def test_every_cited_rules_section_exists():
    rules = (ROOT / "docs" / "RULES.md").read_text()
    sections = set(re.findall(r"^## (\d+)\. ", rules, re.M))
    assert {str(n) for n in range(1, 10)} <= sections
    bad = []
    for path in sorted(ROOT.glob("*/**/*.py")):
        if ".venv" in path.parts:
            continue
        for match in CITATION.finditer(path.read_text()):
            where = f"{path.relative_to(ROOT)}: {match.group(0)}"
            if not match.group(1):
                bad.append(f"{where} (cite docs/RULES.md, the copy in the repository)")
            bad += [
                f"{where} (no such section)" for n in match.groups()[1:] if n and n not in sections
            ]
    assert not bad, "\n".join(bad)
