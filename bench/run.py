"""Benchmark encoding_core against its peers, side by side, in one run.

Usage: ``.venv/bin/python bench/run.py [--quick] [--repeats N] [--out DIR]``

1. Decode throughput (MB/s and docs/s, the median of ``--repeats`` passes) on the corpus's
   pages with a declaration (``<meta>`` or BOM) and without: ``encoding_core.decode`` vs
   w3lib ``html_to_unicode``, bs4 ``UnicodeDammit``, charset-normalizer
   ``from_bytes(...).best()`` and resiliparse ``detect_encoding`` + ``bytes_to_str``.
2. Detection accuracy on the undeclared pages: a tool is right when its answer decodes the
   bytes to the same text as the truth (not the same label: windows-1252 and iso-8859-15
   are both right for a text without the eight characters where they differ). Whole
   documents, and 200-byte prefixes cut back to a character boundary (so every tool sees
   valid bytes); an extra column cuts at exactly 200 bytes. "No answer" on an ASCII-only
   input is right (nothing to detect); otherwise it is wrong.
3. Runs the other bench scripts (``OTHER_SCRIPTS``: mojibake, fetch, real-world set, memory,
   Spark) when they exist.

Everything is also written to ``bench/out/results.json``. See bench/README.md.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

import corpus  # noqa: E402
import peers  # noqa: E402

from encoding_core import decode  # noqa: E402
from encoding_core.whatwg.decoders import decode_replace, decode_strict  # noqa: E402

PREFIX = 200
OTHER_SCRIPTS = ("bench_declared.py", "bench_mojibake.py", "bench_fetch.py", "bench_realworld.py",
                 "bench_memory.py", "bench_spark.py", "bench_crawl.py",
                 "bench_silent.py", "bench_imports.py", "bench_hostile.py")


def throughput(samples: list[corpus.Sample], repeats: int) -> dict[str, dict[str, Any]]:
    """Median seconds, MB/s and docs/s per decoder, on declared and undeclared pages."""
    sets = {"declared": [s.body for s in samples if s.declared or s.encoding.startswith("utf-16")],
            "undeclared": [s.body for s in samples
                           if not s.declared and not s.encoding.startswith("utf-16")]}
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(repeats):
        for name, fn in peers.DECODERS.items():  # interleaved, so drift hits every tool
            for set_name, bodies in sets.items():
                times.setdefault((name, set_name), []).append(_timed(fn, bodies))
    out: dict[str, dict[str, Any]] = {}
    for (name, set_name), runs in times.items():
        bodies = sets[set_name]
        median = statistics.median(runs)
        out.setdefault(name, {})[set_name] = {
            "seconds": median, "docs": len(bodies), "bytes": sum(map(len, bodies)),
            "mb_s": sum(map(len, bodies)) / median / 1e6, "docs_s": len(bodies) / median}
    return out


def _timed(fn: Callable[[bytes], object], bodies: list[bytes]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        for body in bodies:
            fn(body)
        return time.perf_counter() - start
    finally:
        gc.enable()


def char_prefix(body: bytes, encoding: str, size: int = PREFIX) -> bytes:
    """The longest prefix of at most ``size`` bytes that decodes strictly (whole characters)."""
    for end in range(min(size, len(body)), max(0, size - 8), -1):
        try:
            decode_strict(body[:end], encoding)
        except UnicodeDecodeError:
            continue
        return body[:end]
    return body[:size]


def accuracy(samples: list[corpus.Sample]) -> dict[str, Any]:
    """Right / total / no-answer counts per tool, per mode and split, and the errors."""
    tools = [*peers.DETECTORS, "decode() end to end"]
    counts: dict[str, Counter[str]] = {tool: Counter() for tool in tools}
    errors: dict[str, Counter[str]] = {tool: Counter() for tool in tools}
    seconds: Counter[str] = Counter()
    for s in samples:
        if s.declared:
            continue
        cut = {"whole": s.body, "prefix": char_prefix(s.body, s.encoding),
               "prefix-raw": s.body[:PREFIX]}
        for mode, body in cut.items():
            if mode == "prefix-raw" and s.split != "test":
                continue
            truth = decode_replace(body, s.encoding)[0].removeprefix("\ufeff")
            key = f"{mode}/{s.split}"
            for tool in tools:
                start = time.perf_counter()
                if tool == "decode() end to end":
                    decoded = decode(body)
                    answer: str | None = f"{decoded.encoding} ({decoded.decided_by})"
                    text: str | None = decoded.text
                else:
                    answer = peers.DETECTORS[tool](body)
                    text = peers.text_for(body, answer)
                seconds[tool] += time.perf_counter() - start
                right = text == truth or (answer is None and body.isascii())
                counts[tool][f"{key}/total"] += 1
                counts[tool][f"{key}/right"] += right
                counts[tool][f"{key}/none"] += answer is None and not body.isascii()
                if not right and mode != "prefix-raw":
                    errors[tool][f"{mode} {s.encoding} -> {answer}"] += 1
    return {"counts": {t: dict(c) for t, c in counts.items()},
            "errors": {t: dict(e.most_common(12)) for t, e in errors.items()},
            "seconds": dict(seconds)}


def table(headers: list[str], rows: list[list[str]]) -> str:
    """Rows as an aligned plain-text table."""
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]
    line = "  ".join("-" * w for w in widths)
    fmt = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                     for i, (c, w) in enumerate(zip(r, widths, strict=True)))
           for r in [headers, *rows]]
    return "\n".join([fmt[0], line, *fmt[1:]])


def report_throughput(result: dict[str, dict[str, Any]]) -> str:
    rows = [[name, f"{v['declared']['mb_s']:.1f}", f"{v['declared']['docs_s']:.0f}",
             f"{v['undeclared']['mb_s']:.1f}", f"{v['undeclared']['docs_s']:.0f}"]
            for name, v in result.items()]
    ours, w3lib = result["encoding_core.decode"], result["w3lib html_to_unicode"]
    ratio = ours["declared"]["mb_s"] / w3lib["declared"]["mb_s"]
    d = next(iter(result.values()))
    return (f"Decode throughput (median of passes; declared: {d['declared']['docs']} docs, "
            f"{d['declared']['bytes'] / 1e6:.1f} MB; undeclared: {d['undeclared']['docs']} docs, "
            f"{d['undeclared']['bytes'] / 1e6:.1f} MB)\n"
            + table(["decoder", "decl MB/s", "decl docs/s", "undecl MB/s", "undecl docs/s"], rows)
            + f"\nTarget: decode >= w3lib on declared pages: ratio {ratio:.2f} "
            + ("MET" if ratio >= 1.0 else "NOT MET"))


COLUMNS = ("whole/dev", "whole/test", "prefix/dev", "prefix/test", "prefix-raw/test")


def rate(counts: dict[str, int], key: str) -> float:
    return counts.get(f"{key}/right", 0) / max(counts.get(f"{key}/total", 0), 1)


def report_accuracy(result: dict[str, Any]) -> str:
    counts = result["counts"]
    rows = []
    for tool, c in counts.items():
        runs = max(sum(c.get(f"{k}/total", 0) for k in COLUMNS), 1)
        rows.append([tool, *(f"{100 * rate(c, k):.1f}%" for k in COLUMNS),
                     str(sum(c.get(f"{k}/none", 0) for k in COLUMNS[:4])),
                     f"{1000 * result['seconds'][tool] / runs:.1f}"])
    n = counts["default_detector"].get("whole/test/total", 0)
    lines = [f"Detection accuracy on undeclared documents (right = same text as the truth; "
             f"{n} test docs; prefix = {PREFIX} bytes cut back to a character boundary)",
             table(["tool", *COLUMNS, "no answer", "ms/doc"], rows),
             "(no answer: None on a non-ASCII input, counted wrong; ms/doc over all columns)"]
    for ours in ("default_detector", "decode() end to end"):
        for key in COLUMNS[:4]:
            best = max(peers.TARGET_PEERS, key=lambda p: rate(counts[p], key))
            mine, theirs = rate(counts[ours], key), rate(counts[best], key)
            lines.append(f"Target {ours} >= best peer on {key}: {100 * mine:.1f}% vs "
                         f"{best} {100 * theirs:.1f}% (ratio {mine / max(theirs, 1e-9):.3f}) "
                         + ("MET" if mine >= theirs else "NOT MET"))
    lines.append("default_detector errors: " + ", ".join(
        f"{k} x{v}" for k, v in result["errors"]["default_detector"].items()))
    return "\n".join(lines)


def run_other(script: Path, quick: bool) -> dict[str, Any]:
    """Run another bench script as a subprocess; its output as it printed it."""
    cmd = [sys.executable, str(script), *(["--quick"] if quick else [])]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600, cwd=BENCH.parent)
    if quick and proc.returncode == 2 and "unrecognized arguments" in proc.stderr:
        cmd = cmd[:-1]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600,
                              cwd=BENCH.parent)
    return {"command": cmd, "returncode": proc.returncode, "stdout": proc.stdout,
            "stderr": proc.stderr[-4000:]}


def versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for dist in ("charset-normalizer", "resiliparse", "w3lib", "beautifulsoup4", "chardet"):
        try:
            found[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found[dist] = "absent"
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="encoding_core vs peers: speed and accuracy")
    parser.add_argument("--quick", action="store_true", help="small corpus, fewer passes")
    parser.add_argument("--repeats", type=int, default=None, help="timing passes (median)")
    parser.add_argument("--out", type=Path, default=BENCH / "out")
    parser.add_argument("--load", action="store_true",
                        help="also the load test (bench_load.py: a server, real Chromium)")
    args = parser.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 5)
    started = time.time()
    samples = corpus.build_corpus(quick=args.quick)
    print(f"Corpus: {len(samples)} pages, {len({(s.lang, s.encoding) for s in samples})} "
          f"language/encoding pairs, {sum(len(s.body) for s in samples) / 1e6:.1f} MB "
          f"({'quick' if args.quick else 'full'}; dev and test splits)\n")
    speed = throughput(samples, repeats)
    print(report_throughput(speed), "\n", flush=True)
    acc = accuracy(samples)
    print(report_accuracy(acc), "\n", flush=True)
    others = {}
    for name in OTHER_SCRIPTS:
        script = BENCH / name
        if script.exists():
            print(f"== {name} ==", flush=True)
            others[name] = run_other(script, args.quick)
            print(others[name]["stdout"].rstrip() or others[name]["stderr"].rstrip(), "\n")
    if args.load:   # several minutes, a browser per user: only when asked for
        print("== bench_load.py ==", flush=True)
        others["bench_load.py"] = run_other(BENCH / "bench_load.py", args.quick)
        print(others["bench_load.py"]["stdout"].rstrip()
              or others["bench_load.py"]["stderr"].rstrip(), "\n")
    args.out.mkdir(parents=True, exist_ok=True)
    result = {"quick": args.quick, "repeats": repeats, "versions": versions(),
              "seconds": round(time.time() - started, 1), "throughput": speed,
              "accuracy": acc, "others": others}
    (args.out / "results.json").write_text(json.dumps(result, indent=1, default=str))
    print(f"Written {args.out / 'results.json'} in {result['seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
