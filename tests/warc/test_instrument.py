"""Tests for warc.instrument: seed 000's counters on a real /metrics endpoint, the quarantine."""

from __future__ import annotations

import json

import httpx
from prometheus_client import CollectorRegistry, start_http_server

from encoding_core import decode
from encoding_core.warc.instrument import QuarantineRead, read_quarantine, record_decode

GOOD = "<p>café “quoted”</p>".encode()
BROKEN = "é".encode() * 50 + b"\xff" * 25   # 25 malformed bytes: over the threshold


def test_counters_are_scraped_from_a_real_metrics_endpoint(tmp_path):
    """Decisions by host and source, replacements by host, conflicts by kind, on /metrics."""
    registry = CollectorRegistry()
    server, thread = start_http_server(0, addr="127.0.0.1", registry=registry)
    try:
        port = server.server_address[1]
        record_decode(decode(GOOD, "text/html; charset=utf-8"), "a.example", registry=registry)
        record_decode(decode(GOOD, "text/html; charset=utf-8"), "a.example", registry=registry)
        record_decode(decode(BROKEN, "text/html; charset=utf-8"), "b.example",
                      registry=registry)
        text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    finally:
        server.shutdown()
        server.server_close()   # the listening socket too (filterwarnings = error)
        thread.join(timeout=5)
    assert ('encoding_triage_decode_source_total{host="a.example",source="http-header"} 2.0'
            in text)
    assert 'encoding_triage_decode_replacements_total{host="b.example"} 25.0' in text
    assert 'encoding_triage_decode_conflicts_total{kind="lossy"} 1.0' in text


def test_a_page_past_20_replacements_is_quarantined(tmp_path):
    """Seed 000: more than 20 replacements on a page writes a quarantine line; fewer do not."""
    path = tmp_path / "quarantine.jsonl"
    registry = CollectorRegistry()
    assert record_decode(decode(GOOD, "text/html; charset=utf-8"), "a.example",
                         registry=registry, quarantine=path) is None
    entry = record_decode(decode(BROKEN, "text/html; charset=utf-8"), "b.example",
                          registry=registry, quarantine=path, url="http://b.example/x")
    assert entry is not None and (entry.host, entry.count) == ("b.example", 25)
    line = json.loads(path.read_text("utf-8"))
    assert line["host"] == "b.example" and line["encoding"] == "utf-8"
    assert line["source"] == "http-header-lossy" and line["url"] == "http://b.example/x"


def test_a_damaged_quarantine_file_is_read_around(tmp_path):
    """A line cut short or edited by hand is counted, not fatal; a missing file is empty."""
    path = tmp_path / "quarantine.jsonl"
    record_decode(decode(BROKEN, "text/html; charset=utf-8"), "b.example",
                  registry=CollectorRegistry(), quarantine=path)
    with path.open("a", encoding="utf-8") as out:
        out.write('{"host": "c.example", "enc\n[1, 2]\n')
    read = read_quarantine(path)
    entries, bad = read.entries, read.bad
    assert [e.host for e in entries] == ["b.example"] and bad == 2
    assert not read.partial and read.coverage() is None
    assert read.file_bytes == read.read_bytes == path.stat().st_size
    assert read_quarantine(tmp_path / "none.jsonl") == QuarantineRead()


def test_each_fresh_registry_gets_its_own_counters():
    """200 registries made and dropped one after another each record (an id reused by a new
    registry must not hand it the counters of a dead one)."""
    recorded = 0
    decoded = decode(GOOD, "text/html; charset=utf-8")
    for _ in range(200):
        registry = CollectorRegistry()
        record_decode(decoded, "a.example", registry=registry)
        value = registry.get_sample_value("encoding_triage_decode_source_total",
                                          {"host": "a.example", "source": "http-header"})
        recorded += value == 1.0
        del registry   # freed before the next is made: its id is free to be reused
    assert recorded == 200


def test_a_long_quarantine_file_is_read_from_its_tail(tmp_path):
    """A 24 MB quarantine file (read whole on every Fetch render before: 760 MB for 360 MB) is
    read from its newest QUARANTINE_TAIL_BYTES: memory a small multiple of that, the newest
    entry there, the line cut by the limit not counted as bad; a line nested 100,000 deep is
    one bad line, not a RecursionError."""
    import tracemalloc

    from encoding_core.warc.limits import QUARANTINE_TAIL_BYTES

    path = tmp_path / "quarantine.jsonl"
    line = json.dumps({"host": "old.example", "encoding": "utf-8", "source": "fallback",
                       "count": 30, "time": "2026-01-01T00:00:00Z", "url": "x" * 120}) + "\n"
    path.write_text(line * (24 * 2**20 // len(line)) + "[" * 100_000 + "]" * 100_000 + "\n"
                    + line.replace("old.example", "new.example"))
    tracemalloc.start()
    try:
        read = read_quarantine(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    entries, bad = read.entries, read.bad
    assert entries[-1].host == "new.example" and bad == 1
    # the result says only the newest part was read (the Fetch page shows it as text)
    assert read.partial and read.read_bytes == QUARANTINE_TAIL_BYTES
    assert read.coverage() == (f"Only the newest 4.0 MiB of this "
                               f"{path.stat().st_size / 2**20:,.1f} MiB file are shown: older "
                               "entries are left out.")
    assert len(entries) < QUARANTINE_TAIL_BYTES // len(line) + 2
    assert peak < 3 * QUARANTINE_TAIL_BYTES, f"{peak:,} bytes"
