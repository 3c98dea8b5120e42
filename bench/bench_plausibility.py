"""The compiled plausibility scorer (issue 27): pure against compiled, in one process.

    .venv/bin/python bench/bench_plausibility.py [--quick] [--repeats N] [--json PATH]

``implausibility`` is the tie-breaker the undeclared path asks a few times a page. Two
measures, each the two implementations alternated in one run, so the ratios compare:

- per call: every ``(text, max_words)`` that ``decode`` hands ``implausibility`` on the
  undeclared pages (the real-world-shaped set, ``realworld.py``, and the generated corpus,
  ``corpus.py``), recorded once, then scored by ``implausibility_reference`` and by the
  compiled ``_plausibility_c.implausibility``, the fastest of ``--repeats`` per call. The
  reference's word cache (``_word_score``) is either warm (a long-running process that has
  seen these words) or cleared before each call (a page of new words);
- per page: ``decode(body, "text/html")`` on the same undeclared pages, with the compiled
  scorer and with the reference (``_plausibility._C`` set to None), alternately.

Both trees' whole undeclared path: ``bench/bench_undeclared.py --quick``, run in /work/main
and in this tree back to back.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402
import realworld  # noqa: E402

from encoding_core import decode  # noqa: E402
from encoding_core.decision import _agreement, _plausibility, conflicts_text, rare_latin  # noqa: E402

_CALLERS = (_agreement, conflicts_text, rare_latin)   # the modules that import implausibility


def undeclared_pages(quick: bool) -> dict[str, list[bytes]]:
    """Set name -> the bodies of its undeclared pages."""
    return {"real-world": [p.body for p in realworld.pages() if p.served == "undeclared"],
            "generated": [s.body for s in corpus.build_corpus(quick=quick) if not s.declared]}


def recorded_calls(bodies: list[bytes]) -> list[tuple[str, int]]:
    """Every (text, max_words) that ``decode`` asks ``implausibility`` about on ``bodies``."""
    calls: list[tuple[str, int]] = []
    scorer = _plausibility.implausibility

    def recording(text: str, max_words: int = _plausibility.MAX_WORDS) -> tuple[float, int]:
        calls.append((text, max_words))
        return scorer(text, max_words)

    for module in _CALLERS:
        module.implausibility = recording  # type: ignore[attr-defined]
    try:
        for body in bodies:
            decode(bytes(bytearray(body)), "text/html")   # a fresh object: no memo
    finally:
        for module in _CALLERS:
            module.implausibility = scorer  # type: ignore[attr-defined]
    return calls


def per_call(calls: list[tuple[str, int]], repeats: int) -> dict[str, float]:
    """Seconds summed over the calls (each call's fastest of ``repeats``)."""
    compiled = _plausibility._C
    assert compiled is not None, "build the extension first (setup.py build_ext --inplace)"
    reference = _plausibility.implausibility_reference
    clear = _plausibility._cached_word_score.cache_clear
    clock = time.perf_counter
    sums = dict.fromkeys(("compiled", "pure warm", "pure cold"), 0.0)
    for text, max_words in calls:
        assert compiled.implausibility(text, max_words) == reference(text, max_words)
        best = dict.fromkeys(sums, float("inf"))
        for _ in range(repeats):
            t0 = clock()
            compiled.implausibility(text, max_words)
            t1 = clock()
            reference(text, max_words)
            t2 = clock()
            clear()
            t3 = clock()
            reference(text, max_words)
            t4 = clock()
            for key, spent in (("compiled", t1 - t0), ("pure warm", t2 - t1),
                               ("pure cold", t4 - t3)):
                best[key] = min(best[key], spent)
        for key, spent in best.items():
            sums[key] += spent
    return sums


def per_page(bodies: list[bytes], repeats: int) -> dict[str, float]:
    """Seconds summed over the pages of ``decode``, compiled scorer and reference."""
    compiled = _plausibility._C
    clock = time.perf_counter
    sums = {"compiled": 0.0, "pure": 0.0}
    for body in bodies:
        best = dict.fromkeys(sums, float("inf"))
        for _ in range(repeats):
            for key, scorer in (("compiled", compiled), ("pure", None)):
                _plausibility._C = scorer
                fresh = bytes(bytearray(body))
                t0 = clock()
                decode(fresh, "text/html")
                best[key] = min(best[key], clock() - t0)
        _plausibility._C = compiled
        for key, spent in best.items():
            sums[key] += spent
    return sums


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the quick corpus")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", type=Path, help="write the numbers here")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    show: Callable[[str], None] = print
    show(f"{'set':<12} {'calls':>6} {'compiled us':>12} {'pure warm us':>13} "
         f"{'pure cold us':>13} {'warm/comp':>10} {'cold/comp':>10}")
    for name, bodies in undeclared_pages(args.quick).items():
        calls = recorded_calls(bodies)
        sums = per_call(calls, args.repeats)
        n = max(len(calls), 1)
        show(f"{name:<12} {len(calls):>6} {sums['compiled'] / n * 1e6:>12.2f} "
             f"{sums['pure warm'] / n * 1e6:>13.2f} {sums['pure cold'] / n * 1e6:>13.2f} "
             f"{sums['pure warm'] / sums['compiled']:>10.1f} "
             f"{sums['pure cold'] / sums['compiled']:>10.1f}")
        results[name] = {"calls": len(calls), "pages": len(bodies), "per_call": sums}
    show("")
    show(f"{'set':<12} {'pages':>6} {'decode compiled ms':>19} {'decode pure ms':>15} "
         f"{'pure/comp':>10}")
    for name, bodies in undeclared_pages(args.quick).items():
        sums = per_page(bodies, args.repeats)
        show(f"{name:<12} {len(bodies):>6} {sums['compiled'] * 1e3:>19.1f} "
             f"{sums['pure'] * 1e3:>15.1f} {sums['pure'] / sums['compiled']:>10.3f}")
        results[name]["decode"] = sums
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
