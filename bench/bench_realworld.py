"""The real-world-shaped set (``realworld.py``): decisions per family, speed against w3lib on the
declared pages, and the mojibake finder against ftfy on the same fields, in one run.

Usage: ``.venv/bin/python bench/bench_realworld.py [--repeats N] [--json FILE]``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import ftfy  # noqa: E402
import realworld  # noqa: E402
from ftfy.badness import is_bad  # noqa: E402
from w3lib.encoding import html_to_unicode  # noqa: E402

from encoding_core import decode, find_mojibake  # noqa: E402
from encoding_core.decision.detect import default_detector  # noqa: E402
from encoding_core.decision.segments import segment_map  # noqa: E402


def decisions(pages: list[realworld.Page]) -> dict[str, dict[str, list[int]]]:
    """family -> served -> [pages, right, wrong, wrong flagged needs_review]."""
    table: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0] * 4))
    for page in pages:
        decided = decode(page.body, page.content_type)
        if page.served == "mixed":
            found = segment_map(page.body, default_detector)
            right = found is not None and found.text == page.text
        else:
            right = decided.text == page.text
        row = table[page.family][page.served]
        row[0] += 1
        row[1] += right
        row[2] += not right
        row[3] += (not right) and decided.needs_review
    return table


def _best(fn: Any, bodies: list[tuple[bytes, str]], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        # fresh bytes objects each pass: what decode remembers of its last body (per thread,
        # by object) must not carry from one pass to the next, as no crawl decodes a page twice
        fresh = [(bytes(bytearray(body)), content_type) for body, content_type in bodies]
        started = time.perf_counter()
        for body, content_type in fresh:
            fn(body, content_type)
        best = min(best, time.perf_counter() - started)
    return best


def speed(pages: list[realworld.Page], repeats: int) -> dict[str, tuple[float, float, int]]:
    """family -> (our seconds, w3lib's seconds, bytes) over its declared pages."""
    by_family: dict[str, list[tuple[bytes, str]]] = defaultdict(list)
    for page in pages:
        if page.served == "declared":
            by_family[page.family].append((page.body, page.content_type))
    result = {}
    for family, bodies in by_family.items():
        ours = _best(lambda b, c: decode(b, c), bodies, repeats)
        theirs = _best(lambda b, c: html_to_unicode(c, b), bodies, repeats)
        result[family] = (ours, theirs, sum(len(b) for b, _ in bodies))
    return result


def finder() -> dict[str, Any]:
    """False alarms on clean fields, recall and exact repairs on damaged ones: ours and ftfy."""
    clean, damaged = realworld.fields()
    found = [find_mojibake(text) for text, _, _ in damaged]
    return {
        "clean": len(clean),
        "false_alarms": {"ours": sum(find_mojibake(t) is not None for t in clean),
                         "ftfy": sum(map(is_bad, clean))},
        "damaged": len(damaged),
        "recall": {"ours": sum(f is not None for f in found),
                   "ftfy": sum(is_bad(t) for t, _, _ in damaged)},
        "exact_repairs": {"ours": sum(f is not None and f.repaired == truth
                                      for f, (_, _, truth) in zip(found, damaged, strict=True)),
                          "ftfy": sum(ftfy.fix_encoding(t) == truth for t, _, truth in damaged)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="fewer timing passes")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    repeats = 2 if args.quick else args.repeats
    pages = realworld.pages()
    print(f"real-world-shaped set: {len(pages)} pages, {len(realworld.FAMILIES)} families "
          "(written apart from the tuning prose)")
    table = decisions(pages)
    print("\nDecision right (text as meant) per family and how served; wrong ones flagged "
          "needs_review in brackets")
    kinds = ("declared", "undeclared", "utf16-no-bom", "mixed")
    print(f"{'family':<12}" + "".join(f"{k:>18}" for k in kinds))
    totals = defaultdict(lambda: [0] * 4)
    for family in realworld.FAMILIES:
        cells = []
        for kind in kinds:
            n, right, wrong, flagged = table[family][kind]
            for i, v in enumerate((n, right, wrong, flagged)):
                totals[kind][i] += v
            cells.append(f"{right}/{n} [{flagged}/{wrong}]" if n else "-")
        print(f"{family:<12}" + "".join(f"{c:>18}" for c in cells))
    print(f"{'all':<12}" + "".join(
        f"{f'{t[1]}/{t[0]} [{t[3]}/{t[2]}]':>18}" for t in (totals[k] for k in kinds)))
    fast = speed(pages, repeats)
    print("\nDeclared pages (charset in the header): decode vs w3lib html_to_unicode, time ratio "
          "(w3lib / ours; target >= 1.0, no family under 0.5)")
    ours_all = sum(v[0] for v in fast.values())
    theirs_all = sum(v[1] for v in fast.values())
    for family, (ours, theirs, size) in fast.items():
        print(f"  {family:<12} ours {size / ours / 1e6:7.1f} MB/s  w3lib "
              f"{size / theirs / 1e6:7.1f} MB/s  ratio {theirs / ours:5.2f}")
    print(f"  {'all':<12} ratio {theirs_all / ours_all:5.2f}")
    mojibake = finder()
    print(f"\nFinder on {mojibake['clean']} clean fields and {mojibake['damaged']} damaged ones "
          "(the same snippets)")
    for key in ("false_alarms", "recall", "exact_repairs"):
        print(f"  {key:<14} ours {mojibake[key]['ours']:>4}   ftfy {mojibake[key]['ftfy']:>4}")
    if args.json:
        args.json.write_text(json.dumps({"decisions": table, "speed": fast,
                                         "finder": mojibake}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
