"""Undeclared pages (no header charset, no ``<meta>``): decode against resiliparse and chardetng.

    .venv/bin/python bench/bench_undeclared.py [--quick] [--repeats N] [--json PATH]

Issue 27's target: undeclared pages at least resiliparse's throughput, with accuracy no lower
on both corpora. Sets: the generated corpus's undeclared pages (``corpus.py``: no ``<meta>``,
UTF-16 with its BOM) and the real-world-shaped set's undeclared pages (``realworld.py``:
served as ``text/html`` with no charset and no ``<meta>``).

- accuracy: a tool is right when its text is the page's text, as ``bench_realworld`` and
  ``run.py`` score it (an encoding that gives the same text, windows-1252 for iso-8859-15
  on a page without the eight characters they differ in, is right too);
- time: per page, ``decode(body, "text/html")`` and each peer run alternately ``--repeats``
  times, the fastest kept and summed (as ``bench_declared.py``): resiliparse is
  ``bytes_to_str(body, detect_encoding(body))`` (uchardet, then its decode), chardetng is
  ``chardetng_py.detect`` over the whole body, then a WHATWG decode of its answer;
- ``ours, both detectors``: ``decode`` with ``default_detector(one_detector_when_sure=False)``
  (the quick path asks uchardet on every page it sees; ``ours`` asks it only where chardetng's
  answer is not sure: ``decision/_agreement.py``'s rule 0, on by default since 2026-12-07);
- detectors asked: the share of pages on which ``decode`` asked a statistical detector, two
  or more of them (the quick path's chardetng and uchardet, or the ensemble), and the
  ensemble (chardet, uchardet, charset-normalizer). Counted in a pass of its own, untimed;
- ``ours: its detectors alone``: the floor of the ``ours`` row, the same calls of the
  third-party detectors that ``decode`` made on each page (recorded in the counting pass,
  with the same arguments), replayed alone and timed as the tools are. Where it is above
  resiliparse's whole time, no work of ours around the detectors reaches parity.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import corpus  # noqa: E402
import realworld  # noqa: E402
from chardetng_py import detect as chardetng_detect  # noqa: E402
from resiliparse.parse.encoding import bytes_to_str, detect_encoding  # noqa: E402

from encoding_core import decode  # noqa: E402
from encoding_core.decision import _agreement, detect  # noqa: E402
from encoding_core.decision._voters import whatwg_name  # noqa: E402
from encoding_core.decision.detect import Detection, default_detector  # noqa: E402
from encoding_core.whatwg.decoders import decode_replace, forget_last_calls  # noqa: E402

Page = tuple[bytes, str]   # (body, the text it holds)


def sets(quick: bool) -> dict[str, list[Page]]:
    """Set name -> its undeclared pages."""
    generated = [(s.body, s.text) for s in corpus.build_corpus(quick=quick) if not s.declared]
    real = [(p.body, p.text) for p in realworld.pages() if p.served == "undeclared"]
    return {"generated": generated, "real-world": real}


def ours(body: bytes) -> str:
    return decode(body, "text/html").text


def _both_detectors(body: bytes) -> Detection | None:
    return default_detector(body, one_detector_when_sure=False)


def ours_both_detectors(body: bytes) -> str:
    return decode(body, "text/html", detector=_both_detectors).text


def resiliparse(body: bytes) -> str:
    return str(bytes_to_str(body, detect_encoding(body)))


def chardetng(body: bytes) -> str:
    encoding = whatwg_name(chardetng_detect(body, allow_utf8=True), body) or "windows-1252"
    return decode_replace(body, encoding)[0]


TOOLS: dict[str, Callable[[bytes], str]] = {
    "ours": ours, "ours, both detectors": ours_both_detectors, "resiliparse": resiliparse,
    "chardetng": chardetng}
#: ``decode`` as each of our rows calls it (its detectors counted by ``accuracy``).
OURS = {"ours": ours, "ours, both detectors": ours_both_detectors}


FLOOR = "ours: its detectors alone"
#: A detector call ``decode`` made: the function and its arguments (replayed by ``FLOOR``).
Call = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]


@contextmanager
def counting(asked: list[str], calls: list[Call] | None = None) -> Iterator[None]:
    """Record in ``asked`` each statistical detector ``decode`` asks (quick path, ensemble),
    and in ``calls`` (when given) each call with its arguments."""
    first, second, consult = (_agreement.chardetng_answer, _agreement.resiliparse_answer,
                              detect.consult)
    made = calls if calls is not None else []

    def chardetng_answer(part: bytes, data: bytes = b"") -> str | None:
        asked.append("chardetng")
        made.append((first, (part, data), {}))
        return first(part, data)

    def resiliparse_answer(part: bytes, data: bytes = b"") -> str | None:
        asked.append("uchardet")
        made.append((second, (part, data), {}))
        return second(part, data)

    def ensemble(*args: Any, **kwargs: Any) -> Any:
        asked.append("ensemble")
        made.append((consult, args, kwargs))
        return consult(*args, **kwargs)

    _agreement.chardetng_answer = chardetng_answer       # type: ignore[assignment]
    _agreement.resiliparse_answer = resiliparse_answer   # type: ignore[assignment]
    detect.consult = ensemble                            # type: ignore[assignment]
    try:
        yield
    finally:
        _agreement.chardetng_answer, _agreement.resiliparse_answer = first, second
        detect.consult = consult


def accuracy(pages: list[Page]) -> dict[str, Any]:
    """Pages right per tool; per row of ours, how many pages asked two or more detectors (the
    quick path's both, or the ensemble) and the ensemble."""
    right = dict.fromkeys(TOOLS, 0)
    two = dict.fromkeys(OURS, 0)
    ensemble = dict.fromkeys(OURS, 0)
    wrong: dict[str, list[int]] = {name: [] for name in OURS}
    replays: list[list[Call]] = []
    for n, (body, text) in enumerate(pages):
        for name, tool in TOOLS.items():
            asked: list[str] = []
            calls: list[Call] = []
            with counting(asked, calls):
                found = tool(body)
            if name == "ours":
                replays.append(calls)
            forget_last_calls()
            right[name] += found == text
            if name in OURS:
                two[name] += len(asked) >= 2
                ensemble[name] += "ensemble" in asked
                if found != text:
                    wrong[name].append(n)
    return {"pages": len(pages), "right": right, "wrong": wrong,
            "asked_two_or_more": two, "asked_the_ensemble": ensemble, "replays": replays}


def speed(pages: list[Page], repeats: int, replays: list[list[Call]]) -> dict[str, float]:
    """Seconds per tool over the pages: per page the fastest of ``repeats``, summed; and the
    ``FLOOR`` row: each page's recorded detector calls, replayed alone."""
    total = dict.fromkeys([*TOOLS, FLOOR], 0.0)
    clock = time.perf_counter
    for (page, _text), calls in zip(pages, replays, strict=True):
        best = dict.fromkeys(total, float("inf"))
        # a fresh bytes object each time: what decode remembers of its last body (per thread,
        # by object) must not carry from one repeat to the next, as no crawl decodes a page twice
        for body in [bytes(bytearray(page)) for _ in range(repeats)]:
            for name, tool in TOOLS.items():
                started = clock()
                tool(body)
                best[name] = min(best[name], clock() - started)
            forget_last_calls()
            started = clock()
            for function, args, kwargs in calls:
                function(*args, **kwargs)
            best[FLOOR] = min(best[FLOOR], clock() - started)
        for name in total:
            total[name] += best[name]
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="quick corpus, 3 repeats")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 7)
    report: dict[str, Any] = {}
    print(f"{'set':<11} {'tool':<26} {'pages':>5} {'right':>5} {'us/page':>8} "
          f"{'resiliparse/it':>14} {'2+ detectors':>12} {'ensemble':>8}")
    for name, pages in sets(args.quick).items():
        found = accuracy(pages)
        gc.collect()
        seconds = speed(pages, repeats, found.pop("replays"))
        found["seconds"] = seconds
        report[name] = found
        n = found["pages"]
        for tool in seconds:
            asked = (f"{found['asked_two_or_more'][tool] / n:>12.1%} "
                     f"{found['asked_the_ensemble'][tool] / n:>8.1%}" if tool in OURS else "")
            right = found["right"][tool] if tool in TOOLS else "-"
            print(f"{name:<11} {tool:<26} {n:>5} {right:>5} "
                  f"{1e6 * seconds[tool] / n:>8.1f} "
                  f"{seconds['resiliparse'] / seconds[tool]:>13.2f}x {asked}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
