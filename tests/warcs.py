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
