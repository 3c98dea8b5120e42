"""Write tests/cases/decisions_corpus.json: every bench-corpus page's decision, to pin it.

Usage: python scripts/make_decision_fixture.py

Performance work on ``decode`` must not change a decision: this records, for every page of
the generated corpus (``bench/corpus.py``, deterministic), the encoding, the source, the
conflict kinds and ``needs_review``; ``tests/decision/test_decisions_pinned.py`` decides the
same pages again and compares. Run it again only when a decision is meant to change, and say
why in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402

from encoding_core import decode  # noqa: E402

OUT = ROOT / "tests" / "cases" / "decisions_corpus.json"


def decisions() -> dict[str, list[object]]:
    """Page id -> [encoding, source, conflict kinds, needs_review]."""
    found: dict[str, list[object]] = {}
    for sample in corpus.build_corpus(quick=False):
        decided = decode(sample.body)
        found[sample.id] = [decided.encoding, decided.source,
                            sorted(c.kind for c in decided.conflicts), decided.needs_review]
    return found


def main() -> int:
    rows = sorted(decisions().items())
    lines = [f"  {json.dumps(page)}: {json.dumps(decision)}" for page, decision in rows]
    OUT.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
