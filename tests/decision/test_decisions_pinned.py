"""Every page of the generated bench corpus is decided as it was when the fixture was written.

Speed work on ``decode`` (fast paths, byte-level tests in front of the Python checks) must not
change one decision: encoding, source, conflict kinds and ``needs_review`` are compared for all
2,960 pages (``scripts/make_decision_fixture.py`` writes the fixture; the corpus is seeded, so
the same code gives the same bytes).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from encoding_core import decode

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "cases" / "decisions_corpus.json"


def test_every_corpus_page_is_decided_as_pinned():
    """The same encoding, source, conflict kinds and needs_review for every page."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import corpus
    finally:
        sys.path.remove(str(ROOT / "bench"))
    pinned = json.loads(FIXTURE.read_text("utf-8"))
    changed = {}
    samples = corpus.build_corpus(quick=False)
    assert len(samples) == len(pinned) == 2960
    for sample in samples:
        decided = decode(sample.body)
        now = [decided.encoding, decided.source, sorted(c.kind for c in decided.conflicts),
               decided.needs_review]
        if now != pinned[sample.id]:
            changed[sample.id] = (pinned[sample.id], now)
    assert changed == {}
