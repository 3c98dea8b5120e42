"""Declared pages, decode against w3lib, page by page: the minimum of several decodes of each.

    .venv/bin/python bench/bench_declared.py [--quick] [--repeats N] [--json PATH]

``run.py``'s throughput is a median over passes of whole sets; on shared cores a pass that
meets a busy neighbour moves it (0.33x and 0.49x in two runs of the same code). Here each
page is decoded ``--repeats`` times by each tool, alternately, and its fastest time kept: the
sum over pages is what an undisturbed machine would take, so two versions of ``decode`` can
be compared in one run each. Sets: the generated corpus's declared pages (``<meta>`` or BOM,
no header), by size; the real-world-shaped set's declared pages (charset in the header), by
kind of encoding.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402
import realworld  # noqa: E402
from w3lib.encoding import html_to_unicode  # noqa: E402

from encoding_core import decode  # noqa: E402

_CJK = frozenset({"chinese", "japanese", "korean", "taiwanese"})


def sets(quick: bool) -> dict[str, list[tuple[bytes, str | None]]]:
    """Set name -> (body, Content-Type) of its pages."""
    found: dict[str, list[tuple[bytes, str | None]]] = defaultdict(list)
    for sample in corpus.build_corpus(quick=quick):
        if sample.declared or sample.encoding.startswith("utf-16"):
            found[f"generated, {sample.size}"].append((sample.body, None))
    for page in realworld.pages():
        if page.served == "declared":
            kind = ("UTF-8" if page.encoding == "utf-8" else
                    "CJK" if page.family in _CJK else "single-byte")
            found[f"real-world, {kind}"].append((page.body, page.content_type))
    return dict(found)


def measure(pages: list[tuple[bytes, str | None]], repeats: int) -> tuple[float, float]:
    """(our seconds, w3lib's seconds): per page the fastest of ``repeats``, summed."""
    ours = theirs = 0.0
    clock = time.perf_counter
    for page, content_type in pages:
        best_ours = best_theirs = float("inf")
        # a fresh bytes object each time: what decode remembers of its last body (per thread,
        # by object) must not carry from one repeat to the next, as no crawl decodes a page twice
        for body in [bytes(bytearray(page)) for _ in range(repeats)]:
            started = clock()
            decode(body, content_type)
            between = clock()
            html_to_unicode(content_type, body)
            best_ours = min(best_ours, between - started)
            best_theirs = min(best_theirs, clock() - between)
        ours += best_ours
        theirs += best_theirs
    return ours, theirs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="quick corpus, 3 repeats")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 9)
    print(f"Declared pages, per page the fastest of {repeats} decodes (target: ratio >= 1.0)")
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    results = {}
    gc.disable()
    try:
        for name, pages in sets(args.quick).items():
            ours, theirs = measure(pages, repeats)
            group = totals[name.split(",")[0]]
            group[0] += ours
            group[1] += theirs
            results[name] = {"pages": len(pages), "ours_s": ours, "w3lib_s": theirs}
            print(f"   {name:26} {len(pages):5} pages  ours {ours / len(pages) * 1e6:7.1f} us  "
                  f"w3lib {theirs / len(pages) * 1e6:6.1f} us a page  ratio {theirs / ours:.2f}")
    finally:
        gc.enable()
    for group, (ours, theirs) in totals.items():
        print(f"   {group + ', all':26}  ratio {theirs / ours:.2f}")
        results[f"{group}, all"] = {"ratio": theirs / ours}
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
