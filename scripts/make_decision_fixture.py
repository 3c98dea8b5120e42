"""Write tests/cases/decisions_corpus.json and decisions_served.json: decisions, to pin them.

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
import realworld  # noqa: E402

from encoding_core import Decoded, decode  # noqa: E402

OUT = ROOT / "tests" / "cases" / "decisions_corpus.json"
SERVED = ROOT / "tests" / "cases" / "decisions_served.json"


def served_pages() -> list[tuple[str, bytes, str | None]]:
    """(key, body, Content-Type) of every page ``decisions_served.json`` pins, in order."""
    pages = [(f"realworld/{i}/{p.family}/{p.shape}/{p.encoding}/{p.served}", p.body,
              p.content_type) for i, p in enumerate(realworld.pages())]
    for sample in corpus.build_corpus(quick=False)[::4]:
        for label in (sample.encoding, "iso-8859-1"):
            pages.append((f"corpus/{sample.id}/{label}", sample.body,
                          f"text/html; charset={label}"))
    return pages


def _pinned(decided: Decoded) -> list[object]:
    return [decided.encoding, decided.decided_by, sorted(c.kind for c in decided.conflicts),
            decided.needs_review]


def decisions() -> dict[str, list[object]]:
    """Page id -> [encoding, source, conflict kinds, needs_review]."""
    found: dict[str, list[object]] = {}
    for sample in corpus.build_corpus(quick=False):
        found[sample.id] = _pinned(decode(sample.body))
    return found


def served() -> dict[str, list[object]]:
    """Served page key -> [encoding, source, conflict kinds, needs_review]."""
    return {key: _pinned(decode(body, content_type)) for key, body, content_type in served_pages()}


def _write(path: Path, found: dict[str, list[object]]) -> None:
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in found.items()]
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"wrote {path}")


def main() -> int:
    _write(OUT, dict(sorted(decisions().items())))
    _write(SERVED, served())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
