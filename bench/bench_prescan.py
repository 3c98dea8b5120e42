"""The prescan, page by page: the pure-Python reference, the compiled one, and w3lib's regex.

    .venv/bin/python bench/bench_prescan.py [--quick] [--repeats N] [--hostile]

``find_declaration_reference`` (``whatwg/prescan.py``, what runs under ENCODING_TRIAGE_PURE=1),
the compiled ``find_declaration`` (``whatwg/_prescan_c.pyx``) and w3lib's
``html_body_declared_encoding`` (its ``<meta>`` regex over the first 4096 bytes, what Scrapy
runs) in one process, each page timed ``--repeats`` times by each in turn and its fastest time
kept (summed over the pages), as ``bench_declared.py`` does. Sets: the real-world-shaped set
(``realworld.py``) by how its pages are served, and the generated corpus (``corpus.py``) by
size, declared (``<meta>``) or not. The two prescans are checked to give the same
``Declaration`` on every page first. w3lib answers a narrower question (a label, no late
search, no skipped labels, no XML declaration, no comments skipped): it is the peer for speed,
not for answers.

``--hostile``: the two prescans on shapes built to be slow (``<`` * n, ``<meta `` * n, an
unterminated comment or quote...) at n and 4n bytes; time must grow about 4x, not 16x.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402
import realworld  # noqa: E402
from w3lib.encoding import html_body_declared_encoding  # noqa: E402

from encoding_core.whatwg import prescan  # noqa: E402

Tool = Callable[[bytes], object]


def _compiled() -> Tool:
    """The compiled prescan, or an exit saying it is not built."""
    module = prescan._C
    if module is None:
        raise SystemExit("the compiled prescan is not in use: build it "
                         "(setup.py build_ext --inplace) and unset ENCODING_TRIAGE_PURE")
    return module.find_declaration


def sets(quick: bool) -> dict[str, list[bytes]]:
    """Set name -> the bodies of its pages."""
    found: dict[str, list[bytes]] = defaultdict(list)
    for page in realworld.pages():
        found[f"real-world, {page.served}"].append(page.body)
    for sample in corpus.build_corpus(quick=quick):
        declared = "declared" if sample.declared else "undeclared"
        found[f"generated, {sample.size}, {declared}"].append(sample.body)
    return dict(found)


def measure(pages: list[bytes], tools: dict[str, Tool], repeats: int) -> dict[str, float]:
    """Tool name -> seconds: per page the fastest of ``repeats`` calls, summed."""
    total = dict.fromkeys(tools, 0.0)
    clock = time.perf_counter
    for page in pages:
        best = dict.fromkeys(tools, float("inf"))
        for _ in range(repeats):
            for name, tool in tools.items():
                started = clock()
                tool(page)
                best[name] = min(best[name], clock() - started)
        for name in tools:
            total[name] += best[name]
    return total


def pages_run(quick: bool, repeats: int) -> None:
    """The two sets: microseconds a page for each tool, and the ratios."""
    compiled = _compiled()
    tools: dict[str, Tool] = {"reference": prescan.find_declaration_reference,
                              "compiled": compiled, "w3lib": html_body_declared_encoding}
    print(f"find_declaration per page, the fastest of {repeats} calls (us a page)")
    print(f"   {'set':36} {'pages':>5} {'reference':>10} {'compiled':>9} {'w3lib':>7}"
          f" {'ref/comp':>9} {'w3lib/comp':>11}")
    totals: dict[str, dict[str, float]] = defaultdict(lambda: dict.fromkeys(tools, 0.0))
    counts: dict[str, int] = defaultdict(int)
    gc.disable()
    try:
        for name, pages in sets(quick).items():
            for page in pages:
                assert compiled(page) == prescan.find_declaration_reference(page), name
            took = measure(pages, tools, repeats)
            for group in (name.split(",")[0], "all"):
                counts[group] += len(pages)
                for tool in tools:
                    totals[group][tool] += took[tool]
            _row(name, len(pages), took)
    finally:
        gc.enable()
    for group, took in totals.items():
        _row(group + ", all", counts[group], took)


def _row(name: str, count: int, took: dict[str, float]) -> None:
    """One line of the table."""
    each = {tool: seconds / count * 1e6 for tool, seconds in took.items()}
    print(f"   {name:36} {count:5} {each['reference']:10.2f} {each['compiled']:9.2f}"
          f" {each['w3lib']:7.2f} {each['reference'] / each['compiled']:8.1f}x"
          f" {each['w3lib'] / each['compiled']:10.1f}x")


def hostile_shapes(n: int) -> dict[str, bytes]:
    """Shapes of about ``n`` bytes that a careless scanner would take quadratic time on."""
    return {
        "'<' * n": b"<" * n,
        "'<meta ' * n/6": b"<meta " * (n // 6),
        "'<meta charset=' * n/14": b"<meta charset=" * (n // 14),
        "unterminated comment": b"<!--" + b"-" * n,
        "'<!--' * n/4": b"<!--" * (n // 4),
        "unterminated quote": b'<meta charset="' + b"x" * n,
        "'<a ' + 'b=c ' * n/4": b"<a " + b"b=c " * (n // 4),
        "'<!' * n/2": b"<!" * (n // 2),
        "content 'charset ' * n/8": (b'<meta http-equiv=content-type content="'
                                     + b"charset " * (n // 8) + b'">'),
    }


def hostile_run(quick: bool) -> None:
    """Each shape at n and 4n bytes: seconds, and how much 4n took over n."""
    compiled = _compiled()
    n = 1 << 16 if quick else 1 << 17  # 4n stays under the late search's 1 MiB
    tools: dict[str, Tool] = {"reference": prescan.find_declaration_reference,
                              "compiled": compiled}
    print(f"hostile shapes, n = {n:,} bytes: ms at n and 4n (growth; linear is about 4x)")
    small, large = hostile_shapes(n), hostile_shapes(4 * n)
    for name in small:
        cells = []
        for tool_name, tool in tools.items():
            at_n = _best(tool, small[name])
            at_4n = _best(tool, large[name])
            cells.append(f"{tool_name} {at_n * 1e3:8.2f} {at_4n * 1e3:8.2f} ms"
                         f" ({at_4n / at_n:4.1f}x)")
        print(f"   {name:28} " + "   ".join(cells))


def _best(tool: Tool, body: bytes, repeats: int = 3) -> float:
    """The fastest of ``repeats`` calls, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        tool(body)
        best = min(best, time.perf_counter() - started)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="quick corpus, 5 repeats")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--hostile", action="store_true", help="the hostile shapes only")
    args = parser.parse_args(argv)
    if args.hostile:
        hostile_run(args.quick)
        return 0
    pages_run(args.quick, args.repeats or (5 if args.quick else 15))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
