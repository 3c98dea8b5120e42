"""Benchmark of the Scrapy middleware (issue 25): a real crawl with and without it, side by side.

    .venv/bin/python bench/bench_crawl.py [--quick] [--pages N] [--repeats N] [--json PATH]

A loopback server (``tests/httpserver.py``, in this process) serves ``--pages`` URLs (2,000)
cycling through a set of pages with their own Content-Type headers: ``realworld`` (the
real-world-shaped set, ``realworld.pages()``: 227 pages, declared, undeclared, UTF-16
without a BOM, mixed), then ``declared`` (its 131 pages with a right header charset: where
Scrapy's own decode is cheapest, so the middleware's cost shows most). Each
crawl runs in a fresh process (``tests/crawlers/scrapyrun.py``: Twisted's reactor cannot be
restarted), 16 requests at a time, and its spider reads ``response.text`` of every page, as
a spider does. Configurations (quick: the first two), interleaved ``--repeats`` times
(quick: once), medians:

- ``scrapy``: no middleware, Scrapy decodes ``text`` itself (w3lib, charset-normalizer);
- ``middleware``: ``EncodingTriageMiddleware`` at 585 with its defaults (decided text,
  meta dict, stats);
- ``middleware+prometheus``: the same, with ``record_decode``'s counters.

Pages per second from the first request to the last response (wall), and per CPU second of
the crawling process over the same span (steadier on a shared machine); the middleware's
cost as ratios (``scrapy``'s pages/s over the configuration's: 1.10 means 10 % more time per
page) and as CPU milliseconds per page.
Beside it, in this process, the decoding alone per page on the same bodies: ``decide_body``
against Scrapy's own ``TextResponse.text`` and w3lib's ``html_to_unicode`` without detection.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import realworld  # noqa: E402
from w3lib.encoding import html_to_unicode  # noqa: E402

from encoding_core.crawlers.media import decide_body  # noqa: E402
from tests.crawlers.scrapyrun import run_crawl  # noqa: E402
from tests.httpserver import ScriptedServer, respond  # noqa: E402

MIDDLEWARE = {"encoding_core.crawlers.scrapy.EncodingTriageMiddleware": 585}
CONFIGS: dict[str, dict[str, Any]] = {
    "scrapy": {},
    "middleware": {"DOWNLOADER_MIDDLEWARES": MIDDLEWARE},
    "middleware+prometheus": {"DOWNLOADER_MIDDLEWARES": MIDDLEWARE,
                              "ENCODING_TRIAGE_PROMETHEUS": True},
}


def _site(page_set: str) -> list[realworld.Page]:
    """The pages of a set: ``realworld`` (all 227), ``declared`` (a right header charset)."""
    site = realworld.pages()
    return site if page_set == "realworld" else [p for p in site if p.served == "declared"]


def crawl_speeds(page_set: str, pages: int, repeats: int, configs: tuple[str, ...]
                 ) -> dict[str, Any]:
    """Pages per wall second and per CPU second of the crawling process, per configuration
    (medians over ``repeats`` interleaved runs), and the cost ratios against ``scrapy``."""
    site = _site(page_set)
    routes = {f"/p/{i}": respond(site[i % len(site)].body,
                                 headers=(("Content-Type", site[i % len(site)].content_type),))
              for i in range(pages)}
    wall: dict[str, list[float]] = {name: [] for name in configs}
    cpu: dict[str, list[float]] = {name: [] for name in configs}
    with ScriptedServer("127.0.0.1", routes) as server, \
            tempfile.TemporaryDirectory() as tmp:
        urls = [server.url(f"/p/{i}") for i in range(pages)]
        for repeat in range(repeats):
            for name in configs:
                folder = Path(tmp) / f"{name}-{repeat}"
                folder.mkdir()
                out = run_crawl(folder, urls, CONFIGS[name], record=False, timeout=1800)
                assert len(out["responses"]) == pages, (name, len(out["responses"]))
                wall[name].append(pages / out["seconds"])
                cpu[name].append(pages / out["cpu_seconds"])
                print(f"  {page_set:<9} {name:<22} run {repeat + 1}: {wall[name][-1]:7.1f} "
                      f"pages/s, {cpu[name][-1]:7.1f} pages per CPU second", flush=True)
    per_wall = {name: statistics.median(r) for name, r in wall.items()}
    per_cpu = {name: statistics.median(r) for name, r in cpu.items()}
    return {"pages": pages, "distinct_pages": len(site), "repeats": repeats,
            "pages_per_second": per_wall, "pages_per_cpu_second": per_cpu,
            "runs": {"wall": wall, "cpu": cpu},
            "cost_ratio_wall": {n: per_wall["scrapy"] / v for n, v in per_wall.items()},
            "cost_ratio_cpu": {n: per_cpu["scrapy"] / v for n, v in per_cpu.items()},
            "cpu_ms_per_page": {n: 1000 / v for n, v in per_cpu.items()}}


def decision_alone(page_set: str, pages: int) -> dict[str, float]:
    """Microseconds per page on the same bodies: ``decide_body``; Scrapy's own
    ``TextResponse.text`` (w3lib, and charset-normalizer when nothing is declared); w3lib's
    ``html_to_unicode`` alone (no detection)."""
    from scrapy.http import TextResponse

    site = _site(page_set)
    bodies = [(site[i % len(site)].body, site[i % len(site)].content_type)
              for i in range(pages)]
    tools: dict[str, Any] = {
        "decide_body": lambda b, c: decide_body(b, c),
        "Scrapy TextResponse.text": lambda b, c: TextResponse(
            "http://x.example/", headers={"Content-Type": c}, body=b).text,
        "w3lib html_to_unicode": lambda b, c: html_to_unicode(c, b)}
    out: dict[str, float] = {}
    for name, fn in tools.items():
        fn(*bodies[0])     # imports and first-call caches are not the per-page cost
        start = time.perf_counter()
        for body, content_type in bodies:
            fn(body, content_type)
        out[name] = (time.perf_counter() - start) / pages * 1e6
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run of each configuration")
    parser.add_argument("--pages", type=int, default=2000, help="URLs crawled (default 2000)")
    parser.add_argument("--repeats", type=int, default=None, help="runs per configuration")
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 3)
    configs = ("scrapy", "middleware") if args.quick else tuple(CONFIGS)
    print(f"Scrapy crawl of {args.pages:,} loopback pages, {repeats} run(s) per configuration")
    results: dict[str, Any] = {}
    for page_set in ("realworld", "declared"):
        results[page_set] = {"crawl": crawl_speeds(page_set, args.pages, repeats, configs),
                             "decision_alone_us": decision_alone(page_set, args.pages)}
    for page_set, found in results.items():
        speeds = found["crawl"]
        print(f"\n{page_set} ({speeds['distinct_pages']} distinct pages)")
        print(f"{'configuration':<24} {'pages/s':>8} {'ratio':>6} {'pages/CPU s':>12} "
              f"{'CPU ms/page':>12} {'ratio':>6}")
        for name, pps in speeds["pages_per_second"].items():
            print(f"{name:<24} {pps:8.1f} {speeds['cost_ratio_wall'][name]:6.2f} "
                  f"{speeds['pages_per_cpu_second'][name]:12.1f} "
                  f"{speeds['cpu_ms_per_page'][name]:12.2f} "
                  f"{speeds['cost_ratio_cpu'][name]:6.2f}")
        print("the decoding alone, per page (in this process):")
        for name, micros in found["decision_alone_us"].items():
            print(f"  {name:<26} {micros:8.1f} us")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
