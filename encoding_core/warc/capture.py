"""A capture's WARC form: how a ``Capture`` is written as WARC records and rebuilt from them.

One capture is one WARC file, ``<capture_id>.warc.gz`` (gzip per record, the layout crawlers
write), holding a ``warcinfo`` record, a ``request`` and a ``response`` record per hop
(redirects first), and a ``metadata`` record (JSON) with what WARC has no field for.
``capture_from_warc`` rebuilds the same ``Capture`` that ``capture_as_warc`` wrote: same bytes,
same headers, hence the same decision. The landing zone (``landing``) keeps these files.

Differences from WARC practice:

==========================================  ===============================================
usual                                       here
==========================================  ===============================================
payload stored as on the wire (content-     stored with content codings and chunking removed
and transfer-encoded)                       (what the decoder sees); as Common Crawl does,
                                            headers that no longer describe it are renamed
                                            ``X-Crawler-<name>``, and ``capture_from_warc``
                                            restores them
redirect bodies stored                      not read, not stored (empty payload)
==========================================  ===============================================
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import hashlib
import io
import json
from typing import Any

import httpx

from ..extras import needs_extra
from ..fetch.client import Capture, Exchange
from ..fetch.http_message import Headers, parse_http_message
from .warcfile import StoredRecord, WarcFormatError, WarcSource, read_records

with needs_extra("warc", "WARC captures"):
    from fastwarc.warc import WarcRecord, WarcRecordType

__all__ = ["SUFFIX", "capture_as_warc", "capture_from_warc"]

SOFTWARE = "encoding-triage/0.1 (encoding_core.warc.landing)"
SUFFIX = ".warc.gz"
_RENAMED = "X-Crawler-"
_ALL_TYPES = ("warcinfo", "request", "response", "metadata")


def _record(kind: WarcRecordType, date: str, block: bytes, content_type: str,
            headers: list[tuple[str, str]]) -> tuple[bytes, str]:
    """One gzip member holding one WARC record; and the record's id."""
    record = WarcRecord()
    record.init_headers(kind)
    record.headers["WARC-Date"] = date
    record.headers["Content-Type"] = content_type
    for name, value in headers:
        record.headers.append(name, value)
    record.set_bytes_payload(block)
    out = io.BytesIO()
    record.write(out, checksum_data=True)
    return gzip.compress(out.getvalue(), compresslevel=6, mtime=0), str(record.record_id)


def _stored(headers: Headers, payload_changed: bool) -> tuple[Headers, list[int]]:
    """Headers as stored beside a decoded payload, and which were renamed."""
    names = ("transfer-encoding", "content-encoding", "content-length")
    out: list[tuple[str, str]] = []
    renamed: list[int] = []
    for i, (name, value) in enumerate(headers):
        # Deviation (module docstring): the payload is stored decoded, so headers that no
        # longer describe it are renamed X-Crawler-<name>, as Common Crawl does.
        if name.lower() in names and (payload_changed or name.lower() == names[0]):
            out.append((f"{_RENAMED}{name}", value))
            renamed.append(i)
        else:
            out.append((name, value))
    return tuple(out), renamed


def _http_block(start: str, headers: Headers, body: bytes = b"") -> bytes:
    lines = [start, *(f"{k}: {v}" for k, v in headers)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def capture_as_warc(capture: Capture, capture_id: str) -> bytes:
    """The WARC file of ``capture`` kept as ``capture_id``: warcinfo, each hop, metadata."""
    parts = [_record(WarcRecordType.warcinfo, capture.fetched_at,
                     f"software: {SOFTWARE}\r\nformat: WARC File Format 1.1\r\n".encode(),
                     "application/warc-fields", [("WARC-Filename", f"{capture_id}{SUFFIX}")])[0]]
    meta: dict[str, Any] = {
        "capture_id": capture_id, "requested_url": capture.requested_url,
        "fetched_at": capture.fetched_at, "elapsed": capture.elapsed,
        "raw_length": capture.raw_length, "content_codings": list(capture.content_codings),
        "notes": list(capture.notes), "exchanges": []}
    response_id = ""
    for number, hop in enumerate(capture.exchanges, start=1):
        final = number == len(capture.exchanges)
        body = capture.body if final else b""
        headers, renamed = _stored(hop.headers, not final or bool(capture.content_codings))
        common = [("WARC-Target-URI", hop.url)]
        if hop.address:
            common.append(("WARC-IP-Address", hop.address))
        digest = base64.b32encode(hashlib.sha1(body).digest()).decode()
        response, response_id = _record(
            WarcRecordType.response, capture.fetched_at,
            _http_block(f"{hop.http_version} {hop.status} {hop.reason}", headers, body),
            "application/http; msgtype=response",
            [*common, ("WARC-Payload-Digest", f"sha1:{digest}")])
        target = httpx.URL(hop.url).raw_path.decode("ascii")
        request, _ = _record(
            WarcRecordType.request, capture.fetched_at,
            _http_block(f"GET {target} {hop.http_version}", hop.request_headers),
            "application/http; msgtype=request", [*common, ("WARC-Concurrent-To", response_id)])
        parts += [request, response]
        meta["exchanges"].append({"elapsed": hop.elapsed, "renamed": renamed})
    parts.append(_record(WarcRecordType.metadata, capture.fetched_at,
                         json.dumps(meta, ensure_ascii=False).encode(), "application/json",
                         [("WARC-Target-URI", capture.url), ("WARC-Refers-To", response_id)])[0])
    return b"".join(parts)


def _restore(headers: Headers, renamed: list[int]) -> Headers:
    out = list(headers)
    for i in renamed:
        if 0 <= i < len(out) and out[i][0].startswith(_RENAMED):
            out[i] = (out[i][0][len(_RENAMED):], out[i][1])
    return tuple(out)


def capture_from_warc(source: WarcSource, capture_id: str) -> Capture | None:
    """The capture ``capture_as_warc`` wrote, with ``capture_id``; ``None`` without a response.

    Raises ``WarcFormatError`` for a file that is not WARC, or is cut short.
    """
    records = list(read_records(source, types=_ALL_TYPES, keep=1 << 31))
    return _rebuild(records, capture_id)


def _rebuild(records: list[StoredRecord], capture_id: str) -> Capture | None:
    meta: dict[str, Any] = {}
    requests: dict[str, Headers] = {}
    responses: list[StoredRecord] = []
    for record in records:
        if record.record_type == "metadata":
            with contextlib.suppress(ValueError):
                meta = json.loads(record.block)
        elif record.record_type == "request":
            requests[record.header("WARC-Concurrent-To") or ""] = \
                parse_http_message(record.block).headers
        elif record.record_type == "response":
            responses.append(record)
    if not responses:
        return None
    hops: list[dict[str, Any]] = list(meta.get("exchanges", []))
    hops += [{}] * (len(responses) - len(hops))
    exchanges: list[Exchange] = []
    for record, hop in zip(responses, hops, strict=False):
        message = parse_http_message(record.block)
        version, _, rest = message.start_line.partition(" ")
        status, _, reason = rest.partition(" ")
        if status and not (status.isascii() and status.isdigit()):
            raise WarcFormatError(
                f"response record {len(exchanges) + 1} of capture {capture_id}: the status "
                f"{status[:40]!r} is not a number: the kept file is damaged or was edited")
        exchanges.append(Exchange(
            url=record.header("WARC-Target-URI") or "", status=int(status or 0), reason=reason,
            http_version=version, headers=_restore(message.headers, hop.get("renamed", [])),
            request_headers=requests.get(record.header("WARC-Record-ID") or "", ()),
            address=record.header("WARC-IP-Address"), elapsed=float(hop.get("elapsed", 0.0))))
    body = parse_http_message(responses[-1].block).body
    return Capture(
        requested_url=meta.get("requested_url", exchanges[0].url), exchanges=tuple(exchanges),
        body=body, fetched_at=meta.get("fetched_at", responses[-1].header("WARC-Date") or ""),
        elapsed=float(meta.get("elapsed", 0.0)), raw_length=int(meta.get("raw_length", len(body))),
        content_codings=tuple(meta.get("content_codings", ())), notes=tuple(meta.get("notes", ())),
        capture_id=capture_id)
