"""fields.finder: a scan's MojibakeFinder remembers each distinct value, and that never changes
an answer; its caches stay bounded in entries and in characters."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pandas as pd

from encoding_core.fields import finder as finder_module
from encoding_core.fields.csvscan import scan_frame
from encoding_core.fields.mojibake import MojibakeFinder

CASES = Path(__file__).parents[1] / "cases"


def _texts() -> list[str]:
    return [case["text"] for name in ("mojibake_damaged.json", "mojibake_clean.json")
            for case in json.loads((CASES / name).read_text("utf-8"))["cases"]]


def _table(rows: int = 600) -> pd.DataFrame:
    """Three columns of the cases' values, repeated (a value, a value with a number)."""
    rng = random.Random(27)
    texts = _texts()
    return pd.DataFrame({
        "name": [rng.choice(texts) for _ in range(rows)],
        "city": [rng.choice(texts[:40]) for _ in range(rows)],
        "note": [f"{rng.choice(texts)} {rng.randint(1, 9)}" for _ in range(rows)],
    })


def test_remembering_values_changes_no_finding() -> None:
    """A scan (each distinct value explained once) finds what a finder that remembers nothing
    finds cell by cell, and so does a finder whose caches are emptied every few values."""
    table = _table()
    report = scan_frame(table, max_findings=10_000)
    found = {(row, column): (kind, repaired if isinstance(repaired, str) else None, chain)
             for row, column, kind, repaired, chain in zip(
        report.findings["row"], report.findings["column"], report.findings["kind"],
        report.findings["repaired"], report.findings["chain"], strict=True)}
    forgetful, small = MojibakeFinder(size=0), MojibakeFinder(size=3)
    expected = {}
    for column in table.columns:
        for row, text in enumerate(table[column]):
            finding = forgetful.find(text)
            assert small.find(text) == finding, text
            if finding is not None:
                expected[(row, column)] = (finding.kind, finding.repaired, finding.chain)
    assert len(expected) > 200 and len(set(table["name"])) < len(table) / 2   # (repeats)
    assert found == expected


def test_caches_hold_at_most_size_entries_each() -> None:
    """Four caches hold texts, masked keys or words: each at most ``size`` entries."""
    finder = MojibakeFinder(size=5)
    most = 0
    for text in _texts() * 2:
        finder.explain(text)
        most = max(most, finder.cached())
    assert 5 < most <= 4 * 5


def test_caches_forget_past_a_character_budget() -> None:
    """However large ``size``, the texts explained since the caches were emptied hold at most
    ``_HELD_CHARS`` characters: 1,000-character values are forgotten after about 4,000."""
    finder = MojibakeFinder(size=100_000)
    budget = finder_module._HELD_CHARS // 1_000
    most = 0
    for i in range(budget + 200):
        finder.explain(f"{i:06d}Jos\u00c3\u00a9 " + "a" * 988)
        most = max(most, finder.cached())
    assert budget <= most <= 3 * (budget + 1)
    assert finder.cached() < 3 * 300   # (it forgot)
    assert finder.explain("Jos\u00c3\u00a9 1" + "a" * 988) == MojibakeFinder(size=0).explain(
        "Jos\u00c3\u00a9 1" + "a" * 988)
