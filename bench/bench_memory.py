"""Memory and time of ``decode`` on a 10 MiB page (issue 12), in one run.

    .venv/bin/python bench/bench_memory.py [--quick] [--json PATH]

A 10 MiB page of Cyrillic prose in markup, served five ways: UTF-8 and windows-1251 with the
charset in the header, both without it (the detector decides), and UTF-8 with one bad byte in
the middle (nothing decodes strictly: the lossy path, which also maps the page's segments).
Per case, in a warm process (the first call pays for imports and index tables): the
tracemalloc peak during ``decode`` as a multiple of the size of the text it returns (target:
a small multiple), and the median seconds of ``decode`` against w3lib's ``html_to_unicode`` on
the same bytes and header.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from w3lib.encoding import html_to_unicode  # noqa: E402

from encoding_core import decode  # noqa: E402

PROSE = "Съешь же ещё этих мягких французских булок, да выпей чаю. " * 20


def cases(size: int) -> dict[str, tuple[bytes, str | None]]:
    block = f"<div class=\"post\"><p>{PROSE}</p><a href=\"/next\">далее</a></div>\n"
    page = "<html><head><title>Новости</title></head><body>\n" + block * (
        size // len(block.encode()) + 1) + "</body></html>"
    utf8, cp1251 = page.encode(), page.encode("cp1251")
    middle = len(utf8) // 2
    return {"utf-8, declared": (utf8, "text/html; charset=utf-8"),
            "windows-1251, declared": (cp1251, "text/html; charset=windows-1251"),
            "utf-8, undeclared": (utf8, "text/html"),
            "windows-1251, undeclared": (cp1251, "text/html"),
            "utf-8, one bad byte": (utf8[:middle] + b"\xff" + utf8[middle:],
                                    "text/html; charset=utf-8")}


def measure(page: bytes, content_type: str | None, repeats: int) -> dict[str, Any]:
    # Every call gets a fresh bytes object: what decode remembers of its last body (per
    # thread, by object) must not carry from one call to the next, as no crawl decodes a page
    # twice.
    def fresh() -> bytes:
        return bytes(bytearray(page))

    decode(fresh(), content_type)   # warm: imports, index tables
    body = fresh()
    tracemalloc.start()
    decided = decode(body, content_type)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    text, decision = sys.getsizeof(decided.text), f"{decided.encoding} ({decided.decided_by})"
    del decided
    ours, theirs = [], []
    for _ in range(repeats):
        body = fresh()
        started = time.perf_counter()
        decode(body, content_type)
        ours.append(time.perf_counter() - started)
        started = time.perf_counter()
        html_to_unicode(content_type, body)
        theirs.append(time.perf_counter() - started)
    return {"body_mib": round(len(body) / 2**20, 1), "text_mib": round(text / 2**20, 1),
            "peak_mib": round(peak / 2**20, 1), "peak_vs_text": round(peak / text, 2),
            "decision": decision,
            "seconds": round(statistics.median(ours), 3),
            "w3lib_seconds": round(statistics.median(theirs), 3),
            "time_ratio": round(statistics.median(theirs) / statistics.median(ours), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one timing pass")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "out" / "memory.json")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else 5
    result = {name: measure(body, ct, repeats) for name, (body, ct) in cases(10 << 20).items()}
    print("decode on a 10 MiB page: tracemalloc peak / returned text (target: a small "
          "multiple); time ratio w3lib / ours (>= 1.0: ours faster)")
    for name, row in result.items():
        print(f"   {name:<26} text {row['text_mib']:5.1f} MiB  peak {row['peak_mib']:6.1f} MiB "
              f"x{row['peak_vs_text']:<5} {row['seconds']:6.3f} s  w3lib "
              f"{row['w3lib_seconds']:6.3f} s  ratio {row['time_ratio']:<5} {row['decision']}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
