"""Every page of the bench corpora is decided as it was when the fixtures were written.

Speed work on ``decode`` (fast paths, byte-level tests in front of the Python checks) must not
change one decision: encoding, source, conflict kinds and ``needs_review`` are compared for all
2,960 pages, and for pages served with a Content-Type header as a crawl meets them (the
real-world-shaped set; every fourth corpus page under its right charset and a wrong one), in
the fixture's order, so that a trace remembered for one page is tested on the next
(``scripts/make_decision_fixture.py`` writes the fixtures; the corpora are seeded, so the
same code gives the same bytes).
"""

from __future__ import annotations

import json
from pathlib import Path

from encoding_core import decode
from tests.repomodules import repo_module

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "cases" / "decisions_corpus.json"
SERVED = ROOT / "tests" / "cases" / "decisions_served.json"


def test_every_corpus_page_is_decided_as_pinned():
    """The same encoding, source, conflict kinds and needs_review for every page."""
    corpus = repo_module("corpus", "bench")
    pinned = json.loads(FIXTURE.read_text("utf-8"))
    changed = {}
    samples = corpus.build_corpus(quick=False)
    assert len(samples) == len(pinned) == 2960
    for sample in samples:
        decided = decode(sample.body)
        now = [decided.encoding, decided.decided_by, sorted(c.kind for c in decided.conflicts),
               decided.needs_review]
        if now != pinned[sample.id]:
            changed[sample.id] = (pinned[sample.id], now)
    assert changed == {}


def test_every_served_page_is_decided_as_pinned():
    """The same for every page served with a header, decided in the fixture's order."""
    served_pages = repo_module("make_decision_fixture", "scripts", "bench").served_pages
    pinned = json.loads(SERVED.read_text("utf-8"))
    pages = served_pages()
    assert [key for key, _, _ in pages] == list(pinned)
    changed = {}
    for key, body, content_type in pages:
        decided = decode(body, content_type)
        now = [decided.encoding, decided.decided_by, sorted(c.kind for c in decided.conflicts),
               decided.needs_review]
        if now != pinned[key]:
            changed[key] = (pinned[key], now)
    assert changed == {}
