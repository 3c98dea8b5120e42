"""The checks report on 6,000 pages exactly what they reported when the snapshot was taken.

``tests/cases/conflicts_snapshot.json`` was first recorded from ``find_conflicts`` as one
170-line function, before its checks were split into small functions
(``scripts/make_conflict_snapshot.py`` says which pages and what is kept). Every conflict's
kind, severity, message, advice and suggestion, their order, ``needs_review`` and the source
as JSON writes it must be the same, page for page.
"""

from __future__ import annotations

import json
from pathlib import Path

from encoding_core import decode
from tests.repomodules import repo_module

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "tests" / "cases" / "conflicts_snapshot.json"


def test_every_page_reports_what_the_snapshot_recorded():
    """The same findings, in the same order, for every page of every set and the sample."""
    snap = repo_module("make_conflict_snapshot", "scripts")
    pinned = json.loads(SNAPSHOT.read_text("utf-8"))
    wanted = {entry["page"]: entry["findings"] for entry in pinned["sample"].values()}
    seen: dict[str, int] = {}
    changed, sampled = [], {}
    for group, key, body, content_type, kwargs in snap.pages():
        index = seen.get(group, 0)
        seen[group] = index + 1
        found = snap.findings(decode(body, content_type, **kwargs))
        hashes = pinned["sets"].get(group, [])
        if index >= len(hashes) or snap.digest(found) != hashes[index]:
            changed.append((f"{group}/{key}", found))
        if f"{group}/{key}" in wanted:
            sampled[f"{group}/{key}"] = found
    assert {g: len(h) for g, h in pinned["sets"].items()} == seen
    assert changed == [], f"{len(changed)} pages changed, first: {changed[:3]}"
    assert sampled == wanted  # the readable sample: the first page to report each kind

