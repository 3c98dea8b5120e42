"""WARC files for tests, written with FastWARC: one gzip member per response record."""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterable

from fastwarc.warc import WarcRecord, WarcRecordType


def response_record(url: str, content_type: str, body: bytes, *, compress: bool = True,
                    status: str = "200 OK", headers: tuple[tuple[str, str], ...] = ()) -> bytes:
    """One WARC response record holding ``HTTP/1.1 <status>`` with that Content-Type (and any
    other ``headers``) and body."""
    record = WarcRecord()
    record.init_headers(WarcRecordType.response)
    record.headers.append("WARC-Target-URI", url)
    record.is_http = True
    extra = "".join(f"{name}: {value}\r\n" for name, value in headers)
    record.set_bytes_payload(f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n{extra}"
                             "\r\n".encode() + body)
    out = io.BytesIO()
    record.write(out)
    return gzip.compress(out.getvalue()) if compress else out.getvalue()


def warc_file(pages: Iterable[tuple[str, str, bytes]], *, compress: bool = True) -> bytes:
    """A WARC file of (url, content_type, body) responses."""
    return b"".join(response_record(u, c, b, compress=compress) for u, c, b in pages)


#: A Content-Encoding of 1,000 codings (about 6 KB of header): undoing it would nest 1,000
#: decoders, so it is refused (issue 28).
POISON_CODINGS = ", ".join(["gzip"] * 1_000)


def poison_warc(good: int = 50, *, at: int | None = None) -> tuple[bytes, str]:
    """A WARC file of ``good`` UTF-8 pages with one poison record (1,000 content codings) in the
    middle (or at ``at``); and the poison record's URL."""
    at = good // 2 if at is None else at
    bad_url = "http://poison.example/gzip-1000"
    pages = [response_record(f"http://good{i % 5}.example/{i}", "text/html; charset=utf-8",
                             f"<p>page {i} café</p>".encode()) for i in range(good)]
    pages.insert(at, response_record(bad_url, "text/html", gzip.compress(b"<p>x</p>"),
                                     headers=(("Content-Encoding", POISON_CODINGS),)))
    return b"".join(pages), bad_url
