"""Benchmark of live fetch and host reports (issue 3 targets), in one run.

    .venv/bin/python bench/bench_fetch.py [--quick] [--repeats N] [--json PATH]

A local server runs in its own process (so it does not share the GIL with what is measured).

1. Memory: a fresh process fetches, with the default 10 MiB cap, a server sending 1 GiB
   (announced by Content-Length, and not announced), and 1 GiB of zeros as a gzip and as a
   brotli bomb. Peak RSS growth over the process's state just before the fetch, and the
   tracemalloc peak. Target: under twice the cap.
2. Speed: a 1 MiB page through ``fetch_page`` against a bare ``httpx.get`` of it, interleaved,
   medians. Target: at most 1.5x.
3. Host report over a 1,000-record WARC file (pages from ``bench/corpus.py`` under 25 hosts;
   header charset right, absent or wrong): ``report_from_warc`` against FastWARC's reader plus
   w3lib's ``html_to_unicode`` on the same records, per record. Target: at least as fast.
   Also shown: the report with no detector (w3lib uses none by default); w3lib with chardet
   as its ``auto_detect_fun`` (like for like: what a w3lib user who needs detection writes);
   and reading alone, FastWARC's bare iterator and ``iter_captures``, to show the floor.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import httpx  # noqa: E402

from encoding_core.fetch.client import BodyTooLargeError, FetchSettings, fetch_page  # noqa: E402
from encoding_core.limits import MAX_BODY_BYTES  # noqa: E402

GIB = 1 << 30
CAP = MAX_BODY_BYTES
SETTINGS = FetchSettings(allowed_networks=("127.0.0.1/32",), total_timeout=120)


def serve() -> int:
    """The server process: print the port, serve until stdin closes."""
    from tests.httpserver import ScriptedServer, _head, _stream, endless, gzip_bomb, respond

    def gib(conn: Any) -> None:
        head = _head(200, "OK", [("Content-Type", "text/html"), ("Content-Length", str(GIB))])
        block = b"a" * (1 << 20)
        _stream(head, (block for _ in range(1024)))(conn)

    page = (b"<html><head><meta charset=utf-8></head><body>"
            + ("<p>Caf\u00e9 na pra\u00e7a, \u201cquoted\u201d text. " * 20 + "</p>\n")
            .encode() * 2000)[: 1 << 20]
    routes = {"/1mib": respond(page, headers=[("Content-Type", "text/html; charset=utf-8")]),
              "/gib-announced": gib, "/gib-unannounced": endless(),
              "/gzip-bomb": gzip_bomb(GIB, "gzip"), "/brotli-bomb": gzip_bomb(GIB, "br")}
    with ScriptedServer(routes=routes) as server:
        print(f"PORT {server.port}", flush=True)
        sys.stdin.read()
    return 0


def _rss_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def measure(url: str) -> int:
    """A child process: fetch ``url`` once; print peak memory growth as JSON."""
    with contextlib.suppress(Exception):  # warm up: imports, SSL context, first connection
        fetch_page(url.rsplit("/", 1)[0] + "/1mib", settings=SETTINGS)
    reset = True
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets the peak RSS (Linux)
    except OSError:
        reset = False
    before = _rss_kib("VmRSS")
    tracemalloc.start()
    started = time.perf_counter()
    try:
        fetch_page(url, settings=SETTINGS)
        outcome = "fetched"
    except BodyTooLargeError as exc:
        outcome = f"BodyTooLargeError: {str(exc)[:70]}..."
    seconds = time.perf_counter() - started
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    peak = _rss_kib("VmHWM")
    print(json.dumps({"outcome": outcome, "seconds": round(seconds, 3),
                      "rss_growth_mib": round((peak - before) / 1024, 1) if reset else None,
                      "peak_rss_mib": round(peak / 1024, 1),
                      "tracemalloc_peak_mib": round(traced / (1 << 20), 1)}))
    return 0


def memory(base: str) -> dict[str, Any]:
    results = {}
    for case in ("gib-announced", "gib-unannounced", "gzip-bomb", "brotli-bomb"):
        out = subprocess.run([sys.executable, __file__, "--measure", f"{base}/{case}"],
                             capture_output=True, text=True, timeout=600, check=True)
        results[case] = json.loads(out.stdout.strip().splitlines()[-1])
    return results


def speed(base: str, repeats: int) -> dict[str, Any]:
    url = f"{base}/1mib"
    context = httpx.create_ssl_context()  # fetch_page reuses one; httpx.get makes one per call
    runs: dict[str, Callable[[], bytes]] = {
        "fetch_page": lambda: fetch_page(url, settings=SETTINGS).body,
        "httpx.get": lambda: httpx.get(url).content,
        "httpx.get, prepared SSL context": lambda: httpx.get(url, verify=context).content,
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(3):  # warm-up
        for fn in runs.values():
            fn()
    for _ in range(repeats):
        for name, fn in runs.items():  # interleaved, so drift hits every tool
            started = time.perf_counter()
            assert len(fn()) == 1 << 20
            times[name].append(time.perf_counter() - started)
    ms = {name: statistics.median(t) * 1000 for name, t in times.items()}
    return {"ms": {name: round(v, 2) for name, v in ms.items()},
            "ratio": round(ms["fetch_page"] / ms["httpx.get"], 2),
            "ratio_prepared_context": round(ms["fetch_page"]
                                            / ms["httpx.get, prepared SSL context"], 2),
            "target": "<= 1.5", "repeats": repeats}


def build_warc(path: Path, records: int = 1000, start: int = 0) -> None:
    """``records`` response records from the corpus, under 25 hosts, headers right/absent/wrong
    (``start``: the first record's number, so that several files hold different records)."""
    import corpus
    from fastwarc.warc import WarcRecord, WarcRecordType

    samples = corpus.build_corpus("dev")
    rng = random.Random(3 + start)
    with path.open("wb") as out:
        for i in range(start, start + records):
            sample = samples[(i * 7) % len(samples)]
            roll = rng.random()
            charset = ("; charset=" + sample.encoding if roll < 0.5 else
                       "" if roll < 0.9 else "; charset=iso-8859-1")
            head = f"HTTP/1.1 200 OK\r\nContent-Type: text/html{charset}\r\n\r\n".encode()
            record = WarcRecord()
            record.init_headers(WarcRecordType.response)
            record.headers.append("WARC-Target-URI",
                                  f"http://{sample.lang}-{i % 25}.example/{i}")
            record.is_http = True
            record.set_bytes_payload(head + sample.body)
            buffer = io.BytesIO()
            record.write(buffer)
            out.write(gzip.compress(buffer.getvalue(), compresslevel=6))


def report_speed(path: Path, repeats: int) -> dict[str, Any]:
    from fastwarc.warc import ArchiveIterator, WarcRecordType
    from w3lib.encoding import html_to_unicode

    from encoding_core.warc.hostreport import report_from_warc
    from encoding_core.warc.warcfile import iter_captures

    def peer() -> int:
        count = 0
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream, record_types=WarcRecordType.response):
                body = record.reader.read()
                html_to_unicode(record.http_headers.get("Content-Type"), body)
                count += 1
        return count

    def peer_detecting() -> int:  # like for like: w3lib's hook for a detector, with chardet
        import chardet

        def guess(body: bytes) -> str | None:
            found = chardet.detect(body)["encoding"]
            return str(found) if found else None

        count = 0
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream, record_types=WarcRecordType.response):
                html_to_unicode(record.http_headers.get("Content-Type"), record.reader.read(),
                                auto_detect_fun=guess)
                count += 1
        return count

    def peer_chardetng() -> int:  # the same, with the fastest detector there is (Rust)
        from chardetng_py import detect

        count = 0
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream, record_types=WarcRecordType.response):
                html_to_unicode(record.http_headers.get("Content-Type"), record.reader.read(),
                                auto_detect_fun=lambda body: detect(body, allow_utf8=True))
                count += 1
        return count

    def fastwarc_alone() -> int:
        with path.open("rb") as stream:
            return sum(len(record.reader.read()) >= 0 for record in
                       ArchiveIterator(stream, record_types=WarcRecordType.response))

    runs: dict[str, Callable[[], int]] = {
        "w3lib html_to_unicode + FastWARC": peer,
        "report_from_warc": lambda: len(report_from_warc(path).records),
        "report_from_warc, no detector": lambda: len(report_from_warc(path, detector=None)
                                                     .records),
        "w3lib + chardet + FastWARC": peer_detecting,
        "w3lib + chardetng + FastWARC": peer_chardetng,
        # where the time goes: reading alone, ours and FastWARC's
        "  reading: FastWARC alone": fastwarc_alone,
        "  reading: iter_captures alone": lambda: sum(1 for _ in iter_captures(path)),
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    counts = {}
    for _ in range(repeats):
        for name, fn in runs.items():  # interleaved, so drift hits every tool
            started = time.perf_counter()
            counts[name] = fn()
            times[name].append(time.perf_counter() - started)
    base = statistics.median(times["w3lib html_to_unicode + FastWARC"])
    return {name: {"records": counts[name], "seconds": round(statistics.median(t), 3),
                   "ms_per_record": round(statistics.median(t) / counts[name] * 1000, 3),
                   "vs_peer": round(statistics.median(t) / base, 2)}
            for name, t in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--repeats", type=int, default=None)
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "out" / "fetch.json")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--measure", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return serve()
    if args.measure:
        return measure(args.measure)
    repeats = args.repeats or (5 if args.quick else 30)
    server = subprocess.Popen([sys.executable, __file__, "--serve"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base = f"http://127.0.0.1:{server.stdout.readline().split()[1]}"
        result: dict[str, Any] = {"cap_mib": CAP >> 20}
        result["memory"] = memory(base)
        print(f"1. Memory with a {CAP >> 20} MiB cap (target: growth under {2 * CAP >> 20} MiB)")
        for case, row in result["memory"].items():
            print(f"   {case:<16} RSS growth {row['rss_growth_mib']} MiB, tracemalloc peak "
                  f"{row['tracemalloc_peak_mib']} MiB, {row['seconds']} s: {row['outcome']}")
        result["speed"] = speed(base, repeats)
        s = result["speed"]
        print(f"2. 1 MiB local page, median of {repeats} (target: ratio <= 1.5)")
        for name, value in s["ms"].items():
            print(f"   {name:<34} {value:>7} ms")
        print(f"   ratio {s['ratio']} (vs httpx.get), {s['ratio_prepared_context']} (vs httpx.get "
              "with a prepared SSL context)")
    finally:
        assert server.stdin is not None
        server.stdin.close()
        server.wait(timeout=30)
    with tempfile.TemporaryDirectory() as tmp:
        warc = Path(tmp) / "crawl.warc.gz"
        build_warc(warc)
        result["host_report"] = report_speed(warc, max(1, repeats // 10))
    print("3. Host report over a 1,000-record WARC (target: report_from_warc vs_peer <= 1.0)")
    for name, row in result["host_report"].items():
        print(f"   {name:<34} {row['ms_per_record']:>7} ms/record  x{row['vs_peer']}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
