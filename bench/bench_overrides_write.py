"""Overrides writes under contention (issue 28): four processes proposing into one file at once.

    .venv/bin/python bench/bench_overrides_write.py [--quick] [--entries N] [--each N] [--json PATH]

A file of ``--entries`` (160) entries; four processes each propose ``--each`` (8) entries into it
at the same time, twice in the same run: with the store's fast paths (a proposal appended to
the file's text, a store reading only what other writers appended: ``overrides.file``'s
``appended_text`` and ``extend_document``) and with them switched off (every write parses and
dumps the whole file, as before). Per run: the wall time until all four are done and the
longest single write; the ratio of the two runs is the number to read (seconds move with load).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from encoding_core.overrides import file as file_module  # noqa: E402
from encoding_core.overrides import store as store_module  # noqa: E402
from encoding_core.overrides.store import OverrideStore  # noqa: E402

REASON = "The header says iso-8859-1 but the body has been UTF-8 since the migration."


def _propose(store: OverrideStore, host: str, author: str) -> None:
    store.propose(host=host, encoding="utf-8", reason=REASON, author=author,
                  review_by=date.today() + timedelta(days=30))


def _writer(path: str, author: str, each: int, fast: bool, out: Any) -> None:
    if not fast:   # the write path before issue 28: whole-file parse and dump every time
        store_module.appended_text = lambda doc, before: None   # type: ignore[assignment]
        store_module.extend_document = lambda doc, text: None   # type: ignore[assignment]
    store = OverrideStore(path, lock_timeout=600)
    longest = 0.0
    for n in range(each):
        start = time.perf_counter()
        _propose(store, f"h{n}.{author}.example.com", author)
        longest = max(longest, time.perf_counter() - start)
    out.put(longest)


def run(entries: int, each: int, fast: bool) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench-overrides-"))
    path = folder / "overrides.yaml"
    seed = OverrideStore(path)
    for n in range(entries):
        _propose(seed, f"old{n}.example.com", "eve")
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    workers = [context.Process(target=_writer, args=(str(path), a, each, fast, out))
               for a in ("ada", "bob", "carol", "dan")]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    longest = max(out.get() for _ in workers)
    for worker in workers:
        worker.join()
    wall = time.perf_counter() - start
    found = len(OverrideStore(path).entries())
    assert found == entries + 4 * each, found
    return {"fast": fast, "entries": entries, "writes": 4 * each, "seconds": round(wall, 2),
            "longest_write": round(longest, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=160)
    parser.add_argument("--each", type=int, default=8)
    parser.add_argument("--quick", action="store_true", help="80 entries, 4 writes each")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.quick:
        args.entries, args.each = 80, 4
    assert file_module.appended_text is store_module.appended_text
    rows = [run(args.entries, args.each, fast) for fast in (True, False)]
    for row in rows:
        print(f"{'fast paths' if row['fast'] else 'whole file':<11} {row['writes']} writes into "
              f"{row['entries']} entries: {row['seconds']:.2f} s, longest write "
              f"{row['longest_write']:.2f} s")
    print(f"ratio (whole file / fast paths): {rows[1]['seconds'] / rows[0]['seconds']:.1f}x")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
