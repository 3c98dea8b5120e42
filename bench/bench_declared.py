"""Declared pages, decode against w3lib, page by page: the minimum of several decodes of each.

    .venv/bin/python bench/bench_declared.py [--quick] [--repeats N] [--json PATH]

``run.py``'s throughput is a median over passes of whole sets; on shared cores a pass that
meets a busy neighbour moves it (0.33x and 0.49x in two runs of the same code). Here each
page is decoded ``--repeats`` times by each tool, alternately, and its fastest time kept: the
sum over pages is what an undisturbed machine would take, so two versions of ``decode`` can
be compared in one run each. Sets: the generated corpus's declared pages (``<meta>`` or BOM,
no header), by size; the real-world-shaped set's declared pages (charset in the header), by
kind of encoding, as they are and with a ``<meta charset>`` that agrees put first in their
head (``with_meta``: the set's pages have none; most real pages have one).

Beside the two, the *codec floor*: the page's one strict decode under the encoding ``decode``
chose (``encoding_core.whatwg.decoders.decode_strict``, the WHATWG decoder, nothing else;
``decode_replace`` for a page nothing decodes strictly), timed the same way. No decision
made with these decoders can take less; ``w3lib / floor`` says how much room a ratio of 1.0
leaves for anything else (the prescan, the checks, the records). It is this library's floor,
not w3lib's: w3lib reads CJK with Python's codecs, faster than the WHATWG decoders here and
different from them on a few characters each (``whatwg/_decoders_cjk.py``).
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
from encoding_core.whatwg.decoders import (  # noqa: E402
    decode_replace,
    decode_strict,
    forget_last_calls,
)

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
            found[f"real-world + meta, {kind}"].append(
                (with_meta(page.body, page.encoding), page.content_type))
    return dict(found)


def with_meta(body: bytes, encoding: str) -> bytes:
    """``body`` with ``<meta charset="encoding">`` first in its head, as most sites write it
    beside their header's charset (the set's declared pages have none): the prescan then
    reads a declaration on every page, as it does on most pages of the web, where w3lib,
    given a header charset, never looks."""
    head = body.lower().find(b"<head>")
    at = head + len(b"<head>") if head >= 0 else 0
    return body[:at] + b'<meta charset="' + encoding.encode("ascii") + b'">' + body[at:]


def measure(pages: list[tuple[bytes, str | None]], repeats: int) -> tuple[float, float, float]:
    """(our seconds, w3lib's, the codec floor's): per page the fastest of ``repeats``, summed."""
    ours = theirs = floor = 0.0
    clock = time.perf_counter
    for page, content_type in pages:
        encoding = decode(page, content_type).encoding
        best_ours = best_theirs = best_floor = float("inf")
        # a fresh bytes object each time: what decode remembers of its last body (per thread,
        # by object) must not carry from one repeat to the next, as no crawl decodes a page twice
        for body in [bytes(bytearray(page)) for _ in range(repeats)]:
            started = clock()
            decode(body, content_type)
            between = clock()
            html_to_unicode(content_type, body)
            codec = clock()
            try:
                decode_strict(body, encoding)   # (a BOM's page: its BOM read as text, as cheap)
            except UnicodeDecodeError:
                decode_replace(body, encoding)  # (a lossy decision's one decode)
            done = clock()
            forget_last_calls()
            best_ours = min(best_ours, between - started)
            best_theirs = min(best_theirs, codec - between)
            best_floor = min(best_floor, done - codec)
        ours += best_ours
        theirs += best_theirs
        floor += best_floor
    return ours, theirs, floor


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="quick corpus, 3 repeats")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 9)
    print(f"Declared pages, per page the fastest of {repeats} decodes (target: ratio >= 1.0)")
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    results = {}
    gc.disable()
    try:
        for name, pages in sets(args.quick).items():
            ours, theirs, floor = measure(pages, repeats)
            group = totals[name.split(",")[0]]
            group[0] += ours
            group[1] += theirs
            group[2] += floor
            results[name] = {"pages": len(pages), "ours_s": ours, "w3lib_s": theirs,
                             "floor_s": floor}
            print(f"   {name:33} {len(pages):5} pages  ours {ours / len(pages) * 1e6:7.1f} us  "
                  f"w3lib {theirs / len(pages) * 1e6:6.1f} us  floor "
                  f"{floor / len(pages) * 1e6:6.1f} us a page  ratio {theirs / ours:.2f}  "
                  f"w3lib/floor {theirs / floor:.2f}")
    finally:
        gc.enable()
    for group, (ours, theirs, floor) in totals.items():
        print(f"   {group + ', all':33}  ratio {theirs / ours:.2f}  w3lib/floor "
              f"{theirs / floor:.2f}  (ours - floor) / floor {(ours - floor) / floor:.1f}")
        results[f"{group}, all"] = {"ratio": theirs / ours, "w3lib_over_floor": theirs / floor}
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
