"""Tests for encoding_core.warc.warcfile: list and read response records; damaged files."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
from fastwarc.warc import WarcRecord, WarcRecordType

from encoding_core.fetch.codings import BodyTooLargeError
from encoding_core.warc.warcfile import (
    WarcFormatError,
    iter_captures,
    list_responses,
    read_response,
)

HTML = "<meta charset=windows-1252><p>“quoted”</p>".encode("windows-1252")


def _record(kind: WarcRecordType, uri: str, block: bytes, http: bool = True) -> bytes:
    record = WarcRecord()
    record.init_headers(kind)
    record.headers.append("WARC-Target-URI", uri)
    if http:
        record.is_http = True
    else:
        record.headers["Content-Type"] = "text/dns"
    record.set_bytes_payload(block)
    out = io.BytesIO()
    record.write(out, checksum_data=True)
    return out.getvalue()


RECORDS = [
    (WarcRecordType.warcinfo, "", b"software: test\r\n", False),
    (WarcRecordType.request, "http://a.example/", b"GET / HTTP/1.1\r\nHost: a.example\r\n\r\n",
     True),
    (WarcRecordType.response, "http://a.example/",
     b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=iso-8859-1\r\n"
     b"content-type: text/html; charset=utf-8\r\n\r\n" + HTML, True),
    (WarcRecordType.response, "dns:a.example", b"20250101 a.example. 60 IN A 192.0.2.1\n", False),
    (WarcRecordType.response, "http://b.example/chunked",
     b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n", True),
    (WarcRecordType.response, "http://b.example/gzip",
     b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"
     + gzip.compress(b"<p>gzipped</p>"), True),
    (WarcRecordType.response, "http://b.example/already-decoded",
     b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n<p>plain</p>",
     True),
    (WarcRecordType.response, "http://c.example/lf",
     b"HTTP/1.0 404 Not Found\nContent-Type: text/html\n\n<p>missing</p>", True),
    (WarcRecordType.response, "http://c.example/logo.png",
     b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n", True),
]
BLOCKS = [_record(kind, uri, block, http) for kind, uri, block, http in RECORDS]
PLAIN = b"".join(BLOCKS)
PER_RECORD_GZIP = b"".join(gzip.compress(b) for b in BLOCKS)
WHOLE_GZIP = gzip.compress(PLAIN)
LAYOUTS = {"plain": PLAIN, "per-record-gzip": PER_RECORD_GZIP, "whole-file-gzip": WHOLE_GZIP}


@pytest.mark.parametrize("data", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_list_responses_any_layout(data: bytes) -> None:
    """Uncompressed, per-record and whole-file gzip list the same HTTP responses."""
    listing = list_responses(data)
    assert [r.url for r in listing.responses] == [
        "http://a.example/", "http://b.example/chunked", "http://b.example/gzip",
        "http://b.example/already-decoded", "http://c.example/lf", "http://c.example/logo.png"]
    assert [r.status for r in listing.responses] == [200, 200, 200, 200, 404, 200]
    first = listing.responses[0]
    assert first.content_type == "text/html; charset=iso-8859-1, text/html; charset=utf-8"
    assert first.length == len(HTML)
    assert listing.skipped == 1 and listing.problem is None


def test_list_from_path_and_upload(tmp_path: Path) -> None:
    """A path and a file-like upload (read twice) list the same records."""
    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(PER_RECORD_GZIP)
    upload = io.BytesIO(PER_RECORD_GZIP)
    assert list_responses(path) == list_responses(upload) == list_responses(upload)
    assert len(list_responses(str(path), limit=2).responses) == 2


def test_read_response_keeps_raw_headers() -> None:
    """A record reads as a Capture with the repeated Content-Type and exact bytes."""
    capture = read_response(PER_RECORD_GZIP, 0)
    assert capture.body == HTML
    assert capture.headers[1] == ("content-type", "text/html; charset=utf-8")
    assert capture.content_type == "text/html; charset=iso-8859-1, text/html; charset=utf-8"
    assert capture.url == "http://a.example/" and capture.fetched_at.startswith("20")


@pytest.mark.parametrize(("position", "body", "note"), [
    (1, b"hello world", None),
    (2, b"<p>gzipped</p>", None),
    (3, b"<p>plain</p>", "the crawler probably decoded it"),
    (4, b"<p>missing</p>", None),
], ids=["chunked", "gzip", "already-decoded", "lf-only"])
def test_read_response_brings_payload_to_decoder_bytes(position: int, body: bytes,
                                                       note: str | None) -> None:
    """Chunking and content codings are undone; a false Content-Encoding is noted."""
    capture = read_response(PLAIN, list_responses(PLAIN).responses[position].index)
    assert capture.body == body
    assert (note is None) == (not capture.notes)
    if note:
        assert note in capture.notes[0]


def test_read_response_limits() -> None:
    """A record over the cap, or a number past the end, is refused clearly."""
    with pytest.raises(BodyTooLargeError, match="cap of 10 bytes"):
        read_response(PLAIN, 0, max_bytes=10)
    with pytest.raises(WarcFormatError, match="no response record number 100"):
        read_response(PLAIN, 99)


def test_iter_captures_skips_what_is_not_html() -> None:
    """Host-report iteration gives HTML responses as captures and reasons for the rest."""
    items = list(iter_captures(WHOLE_GZIP))
    reasons = [item for item in items if isinstance(item, str)]
    assert reasons == ["not an HTTP response", "not HTML"]
    assert len(items) - len(reasons) == 5


MALFORMED = {
    "garbage": (bytes(range(256)) * 4, "not valid WARC at its start"),
    "text": (b"url,status\nhttp://a.example/,200\n", "not valid WARC at its start"),
    "gzip-of-text": (gzip.compress(b"just some text\n" * 20), "not valid WARC at its start"),
    "empty": (b"", "no response records"),
    "cut-in-first-response": (PLAIN[: len(BLOCKS[0]) + len(BLOCKS[1]) + 200], "cut short"),
}


@pytest.mark.parametrize(("data", "message"), MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_files_raise_clear_errors(data: bytes, message: str) -> None:
    """Files that are not WARC, or break in the first record, raise WarcFormatError."""
    with pytest.raises(WarcFormatError, match=message):
        list_responses(data)


TRUNCATED = {
    "plain": PLAIN[: len(PLAIN) - 30],
    "per-record-gzip": PER_RECORD_GZIP[: len(PER_RECORD_GZIP) - 30],
    "whole-file-gzip": WHOLE_GZIP[: len(WHOLE_GZIP) // 2],
    "trailing-garbage": PLAIN + b"this is not a record\r\n\r\n",
}


@pytest.mark.parametrize("data", TRUNCATED.values(), ids=TRUNCATED.keys())
def test_damage_after_good_records_lists_them(data: bytes) -> None:
    """A file cut short or damaged later lists the good records and says where it stopped."""
    listing = list_responses(data)
    assert listing.problem is not None
    assert "listed the records before it" in listing.problem
    assert listing.responses[0].url == "http://a.example/"


def test_missing_path() -> None:
    """A path that does not exist is a WarcFormatError saying so."""
    with pytest.raises(WarcFormatError, match="cannot open"):
        list_responses("/nonexistent/crawl.warc.gz")
