"""Landing zone: every capture kept as a WARC file for a few days, so it can be re-decoded.

Seed 000: "raw bytes are retained briefly in the landing zone so a mis-decode can be re-run
without a recrawl". Each capture is one file, ``<capture_id>.warc.gz`` (gzip per record, the
layout crawlers write), holding a ``warcinfo`` record, a ``request`` and a ``response`` record
per hop (redirects first), and a ``metadata`` record (JSON) with what WARC has no field for.
``reopen`` rebuilds the same ``Capture``: same bytes, same headers, hence the same decision.

The capture id starts with the fetch time (``20250101T120000Z-1a2b3c4d5e6f``); files older
than ``retention_days`` by that time are deleted by ``purge``, which runs on every ``keep``
and ``recent``. Only files named like captures are ever deleted.

Differences from WARC practice:

==========================================  ===============================================
usual                                       here
==========================================  ===============================================
payload stored as on the wire (content-     stored with content codings and chunking removed
and transfer-encoded)                       (what the decoder sees); as Common Crawl does,
                                            headers that no longer describe it are renamed
                                            ``X-Crawler-<name>``, and ``reopen`` restores them
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
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from fastwarc.warc import WarcRecord, WarcRecordType

from .errors import EncodingCoreError
from .fetch import Capture, Exchange, FetchSettings, fetch_page
from .http_message import Headers, parse_http_message
from .warcfile import StoredRecord, WarcFormatError, read_records

__all__ = ["CaptureSummary", "LandingZone", "LandingZoneError", "configured_zone",
           "fetch_and_keep", "keep", "new_capture_id", "purge", "recent", "reopen"]

SOFTWARE = "encoding-triage/0.1 (encoding_core.landing)"
_ID = re.compile(r"^(\d{8}T\d{6}Z)-[0-9a-f]{12}$")
_SUFFIX = ".warc.gz"
_RENAMED = "X-Crawler-"
_ALL_TYPES = ("warcinfo", "request", "response", "metadata")


class LandingZoneError(EncodingCoreError, LookupError):
    """A capture that is not (or no longer) in the landing zone, or cannot be read."""


@dataclass(frozen=True, slots=True)
class LandingZone:
    """Where captures are kept, and for how long."""

    folder: Path
    retention_days: float = 7.0

    def __post_init__(self) -> None:
        if self.retention_days <= 0:
            raise ValueError("retention_days must be positive")

    def path(self, capture_id: str) -> Path:
        """The file of ``capture_id``; refuses anything not shaped like a capture id."""
        if not _ID.match(capture_id):
            raise LandingZoneError(f"{capture_id!r} is not a capture id")
        return Path(self.folder) / f"{capture_id}{_SUFFIX}"


@dataclass(frozen=True, slots=True)
class CaptureSummary:
    """One kept capture, as listed."""

    capture_id: str
    url: str
    status: int
    fetched_at: str
    body_length: int
    content_type: str | None


def configured_zone(config: Mapping[str, Any] | None = None,
                    environ: Mapping[str, str] | None = None) -> LandingZone:
    """The landing zone from the app's config, then the environment, then the defaults.

    - folder: ``landing_dir`` in ``config``, else ``$ENCODING_TRIAGE_LANDING``, else
      ``landing`` in ``$ENCODING_TRIAGE_DATA``, else ``./landing``;
    - retention: ``retention_days`` in ``config``, else ``$ENCODING_TRIAGE_RETENTION_DAYS``,
      else 7.

    >>> configured_zone({}, {"ENCODING_TRIAGE_DATA": "/srv/triage"})
    LandingZone(folder=PosixPath('/srv/triage/landing'), retention_days=7.0)
    """
    config = config or {}
    env = environ if environ is not None else os.environ
    folder = config.get("landing_dir") or env.get("ENCODING_TRIAGE_LANDING") or (
        Path(env["ENCODING_TRIAGE_DATA"]) / "landing" if env.get("ENCODING_TRIAGE_DATA")
        else "landing")
    days = config.get("retention_days") or env.get("ENCODING_TRIAGE_RETENTION_DAYS") or 7
    try:
        return LandingZone(Path(folder), float(days))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad landing zone settings: {exc}") from exc


def new_capture_id(fetched_at: str) -> str:
    """A capture id for a fetch made at ``fetched_at`` (ISO 8601, UTC).

    >>> new_capture_id("2025-01-02T03:04:05Z")[:17]
    '20250102T030405Z-'
    """
    when = datetime.fromisoformat(fetched_at.replace("Z", "+00:00")).astimezone(UTC)
    return f"{when:%Y%m%dT%H%M%SZ}-{secrets.token_hex(6)}"


def _id_time(capture_id: str) -> datetime | None:
    match = _ID.match(capture_id)
    if match is None:
        return None
    return datetime.strptime(match.group(1), "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)


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
        if name.lower() in names and (payload_changed or name.lower() == names[0]):
            out.append((f"{_RENAMED}{name}", value))
            renamed.append(i)
        else:
            out.append((name, value))
    return tuple(out), renamed


def _http_block(start: str, headers: Headers, body: bytes = b"") -> bytes:
    lines = [start, *(f"{k}: {v}" for k, v in headers)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def _warc(capture: Capture, capture_id: str) -> bytes:
    parts = [_record(WarcRecordType.warcinfo, capture.fetched_at,
                     f"software: {SOFTWARE}\r\nformat: WARC File Format 1.1\r\n".encode(),
                     "application/warc-fields", [("WARC-Filename", f"{capture_id}{_SUFFIX}")])[0]]
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


def keep(capture: Capture, zone: LandingZone) -> Capture:
    """Write ``capture`` to the landing zone (atomically); the capture with its id set."""
    capture_id = new_capture_id(capture.fetched_at)
    path = zone.path(capture_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.tmp")
    partial.write_bytes(_warc(capture, capture_id))
    os.replace(partial, path)
    purge(zone)
    return replace(capture, capture_id=capture_id)


def fetch_and_keep(url: str, zone: LandingZone, settings: FetchSettings | None = None
                   ) -> Capture:
    """``fetch_page`` then ``keep``; a capture that could not be kept says so in its notes."""
    capture = fetch_page(url, settings=settings)
    try:
        return keep(capture, zone)
    except OSError as exc:
        note = f"not kept in the landing zone ({zone.folder}): {exc.strerror or exc}"
        return replace(capture, notes=(*capture.notes, note))


def _restore(headers: Headers, renamed: list[int]) -> Headers:
    out = list(headers)
    for i in renamed:
        if 0 <= i < len(out) and out[i][0].startswith(_RENAMED):
            out[i] = (out[i][0][len(_RENAMED):], out[i][1])
    return tuple(out)


def _rebuild(records: list[StoredRecord], capture_id: str) -> Capture:
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
        raise LandingZoneError(f"capture {capture_id} holds no response record")
    hops: list[dict[str, Any]] = list(meta.get("exchanges", []))
    hops += [{}] * (len(responses) - len(hops))
    exchanges = []
    for record, hop in zip(responses, hops, strict=False):
        message = parse_http_message(record.block)
        version, _, rest = message.start_line.partition(" ")
        status, _, reason = rest.partition(" ")
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


def reopen(capture_id: str, zone: LandingZone) -> Capture:
    """The capture kept under ``capture_id``, exactly as it was fetched."""
    path = zone.path(capture_id)
    if not path.is_file():
        raise LandingZoneError(
            f"capture {capture_id} is not in {zone.folder}: captures are kept "
            f"{zone.retention_days:g} days, so it may have expired; fetch the URL again")
    try:
        records = list(read_records(path, types=_ALL_TYPES, keep=1 << 31))
    except WarcFormatError as exc:
        raise LandingZoneError(f"capture {capture_id} cannot be read: {exc}") from exc
    return _rebuild(records, capture_id)


def purge(zone: LandingZone, *, now: datetime | None = None) -> tuple[str, ...]:
    """Delete captures older than the retention period; the ids deleted."""
    folder = Path(zone.folder)
    if not folder.is_dir():
        return ()
    cutoff = (now or datetime.now(UTC)) - timedelta(days=zone.retention_days)
    deleted = []
    for entry in folder.iterdir():
        name = entry.name.removeprefix(".").removesuffix(".tmp")
        capture_id = name.removesuffix(_SUFFIX)
        when = _id_time(capture_id) if name.endswith(_SUFFIX) else None
        if when is not None and when < cutoff:
            entry.unlink(missing_ok=True)
            deleted.append(capture_id)
    return tuple(sorted(deleted))


def recent(zone: LandingZone, *, limit: int = 20) -> tuple[CaptureSummary, ...]:
    """The newest kept captures (after purging expired ones), newest first."""
    purge(zone)
    folder = Path(zone.folder)
    if not folder.is_dir():
        return ()
    ids = sorted((p.name.removesuffix(_SUFFIX) for p in folder.glob(f"*{_SUFFIX}")
                  if _ID.match(p.name.removesuffix(_SUFFIX))), reverse=True)
    summaries = []
    for capture_id in ids[:limit]:
        try:
            records = list(read_records(zone.path(capture_id), types=("response",)))
        except (WarcFormatError, LandingZoneError):
            continue  # expired or damaged meanwhile: not listed
        if not records:
            continue
        last = records[-1]
        message = parse_http_message(last.block)
        values = message.header_values("content-type")
        summaries.append(CaptureSummary(
            capture_id, last.header("WARC-Target-URI") or "", message.status or 0,
            last.header("WARC-Date") or "", last.length - (len(last.block) - len(message.body)),
            ", ".join(values) if values else None))
    return tuple(summaries)
