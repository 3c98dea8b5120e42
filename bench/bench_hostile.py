"""Hostile shapes (issue 28) at growing sizes: seconds and peak memory per size, so growth shows.

    .venv/bin/python bench/bench_hostile.py [--quick] [--shape NAME ...] [--json PATH]

Each shape is built at 10 KB, 100 KB, 1 MB and 10 MB (``--quick``: 10 KB to 1 MB) and run once
in a warm process (a first call at the smallest size pays for imports and tables). Per size:
the seconds of one run, the tracemalloc peak of a second run, and both divided by the input
size: a linear shape keeps its per-byte columns flat as the size grows tenfold.

- ``csv-header-a``: a CSV header of columns all named ``a`` (``_column_names``: was cubic);
- ``codings``: a Content-Encoding of ``gzip, gzip, ...`` as long as the size (was a
  ``RecursionError`` past about 1,000; refused at ``fetch.limits.MAX_CODINGS`` now);
- ``mixed-page``: ``("é".encode() + b"x\\xe9y") * N`` through ``decode`` (was 48 s and
  140 bytes of memory per input byte at 10 MB);
- ``quarantine``: a quarantine file of the size read by ``read_quarantine`` (was read whole
  on every Fetch render);
- ``report-json-nested``: a host report JSON nested as deep as the size allows (was a
  ``RecursionError``);
- ``unclosed-comments``: ``<!--x`` repeated after a Hebrew title (the quick detectors
  disagree: the ensemble's 80 KB sample is taken) through ``decode``: the samples' markup
  was stripped by a pattern that read to the end from each unclosed opener (15.4 s at 80 KB,
  3.3 s at 40 KB; ``detect.strip_markup`` since 2026-12-07: 28 ms).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from encoding_core import decode  # noqa: E402
from encoding_core.errors import EncodingCoreError  # noqa: E402
from encoding_core.fetch.codings import read_body  # noqa: E402
from encoding_core.fields.csvscan import _column_names  # noqa: E402
from encoding_core.warc.hostreport import report_from_json  # noqa: E402
from encoding_core.warc.instrument import read_quarantine  # noqa: E402

SIZES = (10_000, 100_000, 1_000_000, 10_000_000)
QUICK_SIZES = (10_000, 100_000, 1_000_000)
_TMP = Path(tempfile.mkdtemp(prefix="bench-hostile-"))
_LINE = json.dumps({"host": "a.example", "encoding": "utf-8", "source": "fallback",
                    "count": 30, "time": "2026-01-01T00:00:00Z", "url": "http://a.example/p"})


def _quarantine(size: int) -> Path:
    path = _TMP / f"quarantine-{size}.jsonl"
    path.write_text((_LINE + "\n") * (size // (len(_LINE) + 1)))
    return path


def _refused(fn: Callable[[], Any]) -> Callable[[], Any]:
    def run() -> None:
        with contextlib.suppress(ValueError, EncodingCoreError):   # refused: what is measured
            fn()
    return run


#: shape -> (build the input of about ``size`` bytes, the call to measure on it)
SHAPES: dict[str, tuple[Callable[[int], Any], Callable[[Any], Callable[[], Any]]]] = {
    "csv-header-a": (lambda n: ["a"] * (n // 2), lambda names: lambda: _column_names(names)),
    "codings": (lambda n: ", ".join(["gzip"] * (n // 6)),
                lambda header: _refused(lambda: read_body([b"x"], [header], 1 << 20))),
    "mixed-page": (lambda n: ("é".encode() + b"x\xe9y") * (n // 5),
                   lambda body: lambda: decode(body)),
    "quarantine": (_quarantine, lambda path: lambda: read_quarantine(path)),
    "report-json-nested": (lambda n: '{"hosts": ' + "[" * (n // 2) + "]" * (n // 2) + "}",
                           lambda text: _refused(lambda: report_from_json(text))),
    "unclosed-comments": (lambda n: "<title>שלום</title>\n".encode("cp1255")
                          + b"<!--x" * (n // 5), lambda body: lambda: decode(body)),
}


def measure(shape: str, sizes: tuple[int, ...]) -> list[dict[str, Any]]:
    """Seconds and peak memory of ``shape`` at each size (warm: one run at the first size)."""
    build, call = SHAPES[shape]
    call(build(sizes[0]))()
    rows = []
    for size in sizes:
        run = call(build(size))
        gc.collect()
        start = time.perf_counter()
        run()
        seconds = time.perf_counter() - start
        tracemalloc.start()
        run()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append({"shape": shape, "bytes": size, "seconds": round(seconds, 4),
                     "us_per_kb": round(seconds / size * 1e9, 2),
                     "peak_bytes": peak, "peak_per_byte": round(peak / size, 2)})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 KB to 1 MB only")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES), default=None,
                        help="only this shape (repeatable; default: every shape)")
    parser.add_argument("--json", type=Path, default=None, help="write the rows here")
    args = parser.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else SIZES
    rows = [row for shape in (args.shape or SHAPES) for row in measure(shape, sizes)]
    print(f"{'shape':<20} {'bytes':>11} {'seconds':>9} {'us/KB':>9} {'peak MB':>9} "
          f"{'peak/byte':>10}")
    for row in rows:
        print(f"{row['shape']:<20} {row['bytes']:>11,} {row['seconds']:>9.3f} "
              f"{row['us_per_kb']:>9.2f} {row['peak_bytes'] / 1e6:>9.2f} "
              f"{row['peak_per_byte']:>10.2f}")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
