"""Declared pages by family: ``decode`` against w3lib, and the Python calls a decision makes.

    .venv/bin/python bench/bench_walk.py [--quick] [--repeats N] [--code PATH] [--json PATH]

Issue 27, items 1 and 3 (one walk of the body, the records built once, cheaply). Each page is
decoded ``--repeats`` times by ``decode`` and by w3lib's ``html_to_unicode``, alternately,
and its fastest time kept (``bench_declared.measure``, which also times the codec floor: the
one strict decode no decision can do without). Pages: the real-world-shaped set's declared
pages (charset in the header) by language family, and the generated corpus's declared pages
(``<meta>`` or BOM) by size. ``ratio`` = w3lib's time / ours, same run.

Beside the times, a count that no neighbour on the machine can move: the Python function
calls (``cProfile``) one ``decode`` makes, per page, on a fresh copy of each page's bytes,
after each page was decoded once (so a decision the trace memo remembers counts as
remembered, as the second page of a site does in a crawl).

``--cold`` turns the trace memo off (every page walked, as the first page of each site is);
by default it is on, warmed by each page's first decode, as in ``bench_declared``.

``--code PATH`` imports ``encoding_core`` from another checkout (``/work/main``: the code
before), so two versions run back to back with this same script.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib
import json
import pstats
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))


def _code(argv: list[str] | None) -> Path:
    """The checkout to import ``encoding_core`` from (read before anything imports it)."""
    args = sys.argv[1:] if argv is None else argv
    return Path(args[args.index("--code") + 1]).resolve() if "--code" in args else ROOT


def sets(quick: bool) -> dict[str, list[tuple[bytes, str | None]]]:
    """Set name -> (body, Content-Type) of its declared pages."""
    import corpus
    import realworld

    found: dict[str, list[tuple[bytes, str | None]]] = defaultdict(list)
    for page in realworld.pages():
        if page.served == "declared":
            kind = "UTF-8" if page.encoding == "utf-8" else "legacy"
            found[f"real-world, {page.family}, {kind}"].append((page.body, page.content_type))
    for sample in corpus.build_corpus(quick=quick):
        if sample.declared or sample.encoding.startswith("utf-16"):
            found[f"generated, {sample.size}"].append((sample.body, None))
    return dict(sorted(found.items()))


class _NoMemo:
    """A trace memo that remembers nothing (``--cold``), for the code before issue 27's walk
    step (``recall(body, opinions, override)``) and after it (``recall(body, key[, skip])``,
    and the compiled front's read of ``known``)."""

    def __init__(self) -> None:
        self.known: dict[object, object] = {}

    def recall(self, *args: object) -> object:
        # a key is a plain tuple or None; the old step's second argument is the Opinions
        new = args[1] is None or type(args[1]) is tuple
        return None if new else (None, None)

    def remember(self, *args: object, **kwargs: object) -> None:
        return None


def calls_per_page(pages: list[tuple[bytes, str | None]]) -> float:
    """The Python calls one ``decode`` makes, on average over ``pages`` (see the module)."""
    from encoding_core import decode

    for body, content_type in pages:
        decode(body, content_type)
    profile = cProfile.Profile()
    for body, content_type in pages:
        fresh = bytes(bytearray(body))
        profile.enable()
        decode(fresh, content_type)
        profile.disable()
    stats = pstats.Stats(profile)
    calls: int = stats.total_calls   # type: ignore[attr-defined]
    return calls / len(pages)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="quick corpus, 3 repeats")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--code", type=Path, default=None,
                        help="the checkout whose encoding_core is measured (default: this one)")
    parser.add_argument("--cold", action="store_true", help="no trace memo: every page walked")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(_code(argv)))
    import encoding_core  # (first: ``bench_declared`` puts this checkout on the path)
    from encoding_core.speedups import speedups

    bench_declared = importlib.import_module("bench_declared")

    if args.cold:
        from encoding_core.decision import decode as decode_module
        decode_module._TRACES = _NoMemo()   # type: ignore[assignment]
    repeats = args.repeats or (3 if args.quick else 9)
    print(f"encoding_core from {Path(encoding_core.__file__).parent} ({speedups()}); "
          f"per page the fastest of {repeats}; trace memo {'off' if args.cold else 'on'}")
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0, 0.0])
    results = {}
    gc.disable()
    try:
        for name, pages in sets(args.quick).items():
            calls = calls_per_page(pages)
            ours, theirs, floor = bench_declared.measure(pages, repeats)
            for group in (name.split(",")[0], name.split(",")[0] + ", " + name.split(", ")[-1]):
                total = totals[group]
                for i, value in enumerate((ours, theirs, floor, calls * len(pages), len(pages))):
                    total[i] += value
            results[name] = {"pages": len(pages), "ours_s": ours, "w3lib_s": theirs,
                             "floor_s": floor, "calls": calls}
            print(f"   {name:34} {len(pages):4} pages  ours {ours / len(pages) * 1e6:6.1f} us  "
                  f"w3lib {theirs / len(pages) * 1e6:6.1f}  floor "
                  f"{floor / len(pages) * 1e6:6.1f}  ratio {theirs / ours:.2f}  "
                  f"calls {calls:5.1f}")
    finally:
        gc.enable()
    for group, (ours, theirs, floor, calls, count) in sorted(totals.items()):
        if group.startswith("generated, ") and group != "generated, all":
            continue
        print(f"   {group + ', all' if ',' not in group else group:34}  ratio "
              f"{theirs / ours:.2f}  (ours - floor) / floor {(ours - floor) / floor:.1f}  "
              f"calls {calls / count:5.1f}")
        results[f"{group}, all"] = {"ratio": theirs / ours, "calls": calls / count}
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
