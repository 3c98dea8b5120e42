"""Write tests/cases/conflicts_snapshot.json: every check's findings on a few thousand pages.

Usage: python scripts/make_conflict_snapshot.py

The checks (``encoding_core/decision/checks*``) must report exactly what they reported when
this snapshot was taken: the same conflicts (kind, severity, message, advice, suggested
encoding, mojibake count) in the same order, the same ``needs_review``, and the decision's
source as its JSON form writes it (``"http-header-lossy"``, ``"lossy": true``). It was first
taken from ``find_conflicts`` as one 170-line function, before the checks were split; run it
again only when a finding is meant to change, and say why in the commit.

The pages: every case file in ``tests/cases/`` that holds bodies (decided with its header,
override, site default and detector), the generated corpus (``bench/corpus.py``) undeclared,
the served pages of ``decisions_served.json`` (``make_decision_fixture.served_pages``), and the
silent-wrong shapes of ``bench/silent_pages.py`` (one page per language and encoding), a few
wide and mixed pages, and 1,134 combinations of bodies, declarations, headers and overrides
that make many checks report on one page (so that their order is pinned too). Each
page is kept as a short hash of its findings; ``sample`` holds, readable, the first page that
produced each conflict kind.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT, ROOT / "bench", ROOT / "scripts"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import corpus  # noqa: E402
import silent_pages  # noqa: E402
from make_decision_fixture import served_pages  # noqa: E402

from encoding_core import Decoded, decode  # noqa: E402
from encoding_core.decision.decode import DEFAULT_DETECTOR  # noqa: E402
from tests.conformance import case_body, load_cases  # noqa: E402

OUT = ROOT / "tests" / "cases" / "conflicts_snapshot.json"
#: The case files whose cases carry a body (``body`` or ``body_hex``) to decide.
CASE_FILES = ("conflicts.json", "crawler_pages.json", "regressions.json", "silent_wrongs.json")

#: (set, key, body, content_type, decode's keyword arguments)
Page = tuple[str, str, bytes, "str | None", dict[str, Any]]


def pages() -> Iterator[Page]:
    """Every page of the snapshot, in its order (decided in this order: memos see the same)."""
    for name in CASE_FILES:
        for case in load_cases(name):
            if "body" not in case and "body_hex" not in case:
                continue
            kwargs = {"override": case.get("override"), "site_default": case.get("site_default"),
                      "detector": DEFAULT_DETECTOR if case.get("detector", True) else None}
            yield (name, case["label"], case_body(case), case.get("content_type"), kwargs)
    for sample in corpus.build_corpus(quick=False):
        yield ("corpus", sample.id, sample.body, None, {})
    for key, body, content_type in served_pages():
        yield ("served", key, body, content_type, {})
    for i, page in enumerate(silent_pages.shapes(silent_pages.Material(), per_pair=1)):
        yield ("silent", f"{i}/{page.shape}/{page.label}", page.body, page.content_type, {})
    yield from _extra()
    yield from _combinations()


def _extra() -> Iterator[Page]:
    """A few shapes the sets above meet rarely: wide text without a BOM, a lossy mixed page."""
    text = "<html><p>Grüße aus Köln, Łódź und Zürich — “quoted”</p></html>\n" * 8
    for encoding in ("utf-16le", "utf-16be", "utf-32le", "utf-32be"):
        body = text.encode(encoding.replace("-", "_"))
        for content_type in (None, "text/html; charset=windows-1252", "text/html; charset=utf-8"):
            yield ("extra", f"{encoding}/{content_type}", body, content_type, {})
    mixed = ("<p>Grüße aus Köln</p>\n".encode() * 6 + "<p>Résumé: café</p>\n".encode("cp1252") * 3
             + "<p>naïve — “ok”</p>\n".encode() * 6)
    for content_type in (None, "text/html; charset=utf-8", "text/html; charset=iso-8859-1"):
        yield ("extra", f"mixed/{content_type}", mixed, content_type, {})
        yield ("extra", f"mixed-cut/{content_type}", mixed[:-3], content_type, {})
        yield ("extra", f"mixed-nodetector/{content_type}", mixed, content_type,
               {"detector": None, "site_default": "windows-1251"})


_COMBINED_BODIES = {
    "utf-8": "<p>Grüße aus Köln, café ’ crème</p>".encode(),
    "windows-1252": "<p>Grüße aus Köln, café ’ crème</p>".encode("cp1252"),
    "utf-8-cut": "<p>Grüße aus Köln, café ’ crème ’</p> ’".encode()[:-1],
    "iso-2022-jp": b"<p>\x1b$B$3$s$K$A$O\x1b(B</p>",
    "png": bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"),
    "utf-16le": "<p>Grüße aus Köln, wide text</p>".encode("utf-16-le"),
    "bom-utf-8": "\ufeff<p>Grüße aus Köln</p>".encode(),
    "mixed": "<p>Grüße – naïve – crème</p>".encode() * 3 + "<p>it’s café</p>".encode("cp1252"),
    "koi8-r": "<p>Привет, как дела? Всё хорошо, спасибо.</p>".encode("koi8-r") * 2,
}
_COMBINED_PREFIXES = {
    "none": b"",
    "skipped-meta": b'<meta charset="bogus"><meta charset="windows-1251">',
    "meta-utf-8": b'<meta charset="utf-8">',
    "xml-latin2": b'<?xml version="1.0" encoding="iso-8859-2"?>',
    "late-meta": b"<!-- padding -->" * 70 + b'<meta charset="koi8-r">',
    "replacement-meta": b'<meta charset="iso-2022-kr">',
}
_COMBINED_HEADERS = (None, "text/html; charset=utf-8", "text/html; charset=iso-8859-1",
                     "text/html; charset=shift_jis",
                     "text/html; charset=utf-8, text/html; charset=windows-1251",
                     "text/html; charset=nonsense", "text/html; charset=hz-gb-2312")


def _combinations() -> Iterator[Page]:
    """Bodies, declarations, headers and overrides combined, so that many checks report on
    one page and their order is pinned, not only each one's findings."""
    for body_name, body in _COMBINED_BODIES.items():
        for prefix_name, prefix in _COMBINED_PREFIXES.items():
            page = (b"\xef\xbb\xbf" + prefix + body[3:] if body.startswith(b"\xef\xbb\xbf")
                    else prefix + body)
            for content_type in _COMBINED_HEADERS:
                for override in (None, "nonsense", "utf-8"):
                    yield ("combined", f"{body_name}/{prefix_name}/{content_type}/{override}",
                           page, content_type, {"override": override})


def findings(decided: Decoded) -> dict[str, Any]:
    """What the snapshot keeps of a decision: its findings and its source as JSON says it."""
    data = decided.to_dict(include_text=False)
    return {"source": data["source"], "lossy": data["lossy"],
            "needs_review": decided.needs_review,
            "conflicts": [[c.kind, str(c.severity), c.message, c.advice, c.suggested_encoding,
                           c.mojibake_removed] for c in decided.conflicts]}


def digest(found: dict[str, Any]) -> str:
    """A short hash of one page's findings."""
    text = json.dumps(found, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def snapshot() -> dict[str, Any]:
    """{"sets": {set: [hash, ...]}, "sample": {kind: {page, findings}}}: hashes in ``pages``'
    order (the keys are not kept, to keep the file small: the test names them)."""
    sets: dict[str, list[str]] = {}
    sample: dict[str, dict[str, Any]] = {}
    for group, key, body, content_type, kwargs in pages():
        found = findings(decode(body, content_type, **kwargs))
        sets.setdefault(group, []).append(digest(found))
        for conflict in found["conflicts"]:
            sample.setdefault(conflict[0], {"page": f"{group}/{key}", "findings": found})
    return {"sets": sets, "sample": dict(sorted(sample.items()))}


def main() -> int:
    data = snapshot()
    lines = ["{", ' "sets": {']
    groups = []
    for group, rows in data["sets"].items():
        body = ",\n".join(", ".join(json.dumps(h) for h in rows[i:i + 8])
                           for i in range(0, len(rows), 8))
        groups.append(f"  {json.dumps(group)}: [\n{body}\n  ]")
    lines += [",\n".join(groups), " },", ' "sample": '
              + json.dumps(data["sample"], ensure_ascii=False, indent=1).replace("\n", "\n ")]
    OUT.write_text("\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"wrote {OUT}: {sum(map(len, data['sets'].values()))} pages, "
          f"{len(data['sample'])} conflict kinds sampled")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
