"""The CJK codec floor: the compiled WHATWG decoders against their reference, Python's codecs
and w3lib, page by page, in one run.

    .venv/bin/python bench/bench_cjk_floor.py [--quick] [--repeats N] [--json PATH]

For each CJK page (the real-world-shaped set's, served with their charset; the generated
corpus's, by encoding) and each of four decodes, the fastest of ``--repeats`` (alternating, so
a busy neighbour hits all four alike), summed over the pages:

- *reference*: ``_decoders_cjk.decode_cjk_codec`` (Python's codec, the WHATWG decoder on its
  errors, fix-ups): the floor before issue 27, and the floor still without a compiler;
- *compiled*: ``_cjk_c`` (``decode_strict``, else ``decode`` with its offsets): the floor now;
- *codec*: Python's closest codec, ``bytes.decode(codec, "replace")`` (not WHATWG's answer on a
  few characters; what a library that trusts its codecs pays);
- *w3lib*: ``html_to_unicode(content_type, body)``, all it does for a page (what Scrapy runs).

Ratios: ``ref/comp`` (how much faster the floor got), ``comp/codec`` (below 1.0: faster than
Python's codec), ``w3lib/comp`` (how much room a decision at w3lib's speed has left).
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from array import array
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402
import realworld  # noqa: E402
from w3lib.encoding import html_to_unicode  # noqa: E402

from encoding_core.whatwg._cjk_compiled import compiled_decoder  # noqa: E402
from encoding_core.whatwg._decoders_cjk import decode_cjk_codec  # noqa: E402

_CJK = ("gbk", "gb18030", "big5", "euc-jp", "iso-2022-jp", "shift_jis", "euc-kr")
# WHATWG name -> the Python codec closest to it
_CODEC = {"gbk": "gb18030", "gb18030": "gb18030", "big5": "big5hkscs", "euc-jp": "euc_jp",
          "iso-2022-jp": "iso2022_jp", "shift_jis": "cp932", "euc-kr": "cp949"}
_TOOLS = ("reference", "compiled", "codec", "w3lib")

Page = tuple[bytes, str]   # body, WHATWG encoding


def sets(quick: bool) -> dict[str, list[Page]]:
    """Set name -> its CJK pages."""
    found: dict[str, list[Page]] = defaultdict(list)
    for page in realworld.pages():
        if page.served == "declared" and page.encoding in _CJK:
            found["real-world CJK"].append((page.body, page.encoding))
    for sample in corpus.build_corpus(quick=quick):
        if sample.encoding in _CJK:
            found[f"generated, {sample.encoding}"].append((sample.body, sample.encoding))
    return dict(found)


def _compiled(body: bytes, encoding: str) -> str:
    decoder = compiled_decoder(encoding)
    assert decoder is not None
    found = decoder.decode_strict(body)
    return found if isinstance(found, str) else decoder.decode(body, array("I"))


def measure(pages: list[Page], repeats: int) -> dict[str, float]:
    """Tool -> seconds: per page the fastest of ``repeats``, summed."""
    totals = dict.fromkeys(_TOOLS, 0.0)
    clock = time.perf_counter
    for body, encoding in pages:
        content_type = f"text/html; charset={encoding}"
        codec = _CODEC[encoding]
        best = dict.fromkeys(_TOOLS, float("inf"))
        for _ in range(repeats):
            t0 = clock()
            decode_cjk_codec(body, encoding)
            t1 = clock()
            _compiled(body, encoding)
            t2 = clock()
            body.decode(codec, "replace")
            t3 = clock()
            html_to_unicode(content_type, body)
            t4 = clock()
            for tool, took in zip(_TOOLS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
                best[tool] = min(best[tool], took)
        for tool in _TOOLS:
            totals[tool] += best[tool]
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="quick corpus, 5 repeats")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if compiled_decoder("gbk") is None:
        print("the compiled decoders are not built (or ENCODING_TRIAGE_PURE is set)")
        return 1
    repeats = args.repeats or (5 if args.quick else 15)
    for encoding in _CJK:   # (tables built before any timing)
        _compiled(b"\x81", encoding)
        decode_cjk_codec(b"\x81", encoding)
    print(f"CJK codec floor, per page the fastest of {repeats} decodes, us a page")
    results = {}
    gc.disable()
    try:
        for name, pages in sets(args.quick).items():
            t = measure(pages, repeats)
            per = {tool: t[tool] / len(pages) * 1e6 for tool in _TOOLS}
            results[name] = {"pages": len(pages), **{f"{k}_us": v for k, v in per.items()},
                             "ref_over_comp": t["reference"] / t["compiled"],
                             "comp_over_codec": t["compiled"] / t["codec"],
                             "w3lib_over_comp": t["w3lib"] / t["compiled"],
                             "w3lib_over_ref": t["w3lib"] / t["reference"]}
            print(f"   {name:26} {len(pages):4} pages  ref {per['reference']:7.1f}  comp "
                  f"{per['compiled']:6.1f}  codec {per['codec']:6.1f}  w3lib {per['w3lib']:6.1f}"
                  f"   ref/comp {t['reference'] / t['compiled']:5.2f}  comp/codec "
                  f"{t['compiled'] / t['codec']:4.2f}  w3lib/comp {t['w3lib'] / t['compiled']:5.2f}"
                  f"  (w3lib/ref {t['w3lib'] / t['reference']:4.2f})")
    finally:
        gc.enable()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
