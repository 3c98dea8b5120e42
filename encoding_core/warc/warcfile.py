"""WARC import: list the response records of a crawl's WARC file, and read one to diagnose.

Crawlers already write WARC (ISO 28500; https://iipc.github.io/warc-specifications/). FastWARC
reads the records (gzip per record or whole-file, or uncompressed, detected from the bytes);
the HTTP message inside a record is split, and its payload brought to what the decoder should
see, by ``http_message`` (whose names are re-exported here).

A file that is not WARC raises ``WarcFormatError``; a file damaged or cut short after some
good records lists those records and says where it stopped (``WarcListing.problem``).

Differences from the WARC 1.1 specification:

======================================  ===================================================
WARC 1.1                                here
======================================  ===================================================
a record's block may be any size        a block over the size cap is listed, not read
======================================  ===================================================
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, cast

from ..errors import EncodingCoreError
from ..extras import needs_extra
from ..fetch.codings import BodyTooLargeError
from ..fetch.http_message import Headers, HttpMessage, body_for_decoder, is_html, parse_http_message
from ..fetch.models import Capture, Exchange
from ..limits import MAX_BODY_BYTES

with needs_extra("warc", "reading WARC files"):
    from fastwarc.warc import ArchiveIterator, WarcRecordType

__all__ = ["HttpMessage", "StoredRecord", "UnreadableRecord", "WarcFormatError", "WarcListing",
           "WarcResponse", "is_html", "iter_captures", "iter_indexed_captures", "list_responses",
           "parse_http_message", "read_records", "read_response", "record_error"]

WarcSource = str | os.PathLike[str] | bytes | BinaryIO
HEAD_BYTES = 64 * 1024
_TYPES = {"response": WarcRecordType.response, "request": WarcRecordType.request,
          "metadata": WarcRecordType.metadata, "warcinfo": WarcRecordType.warcinfo,
          "resource": WarcRecordType.resource, "revisit": WarcRecordType.revisit}


class WarcFormatError(EncodingCoreError, ValueError):
    """A file that is not WARC, or is damaged; ``records_read`` good records came before."""

    def __init__(self, message: str, records_read: int = 0) -> None:
        super().__init__(message)
        self.records_read = records_read


@dataclass(frozen=True, slots=True)
class StoredRecord:
    """One WARC record: its WARC headers and (the first bytes of) its block."""

    index: int                 # position among the records of the types asked for
    offset: int                # where the record starts in the (compressed) file
    record_type: str
    headers: Headers
    block: bytes               # the whole block, or its first bytes (see ``complete``)
    length: int                # the whole block's length
    #: each header's last value by its name in lower case (a record is asked for up to five)
    _last: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_last", {k.lower(): v for k, v in self.headers})

    @property
    def complete(self) -> bool:
        """True when ``block`` holds the whole block."""
        return len(self.block) == self.length

    def header(self, name: str) -> str | None:
        """The last value of WARC header ``name`` (case-insensitive), or None.

        >>> StoredRecord(0, 0, "response", (("WARC-Date", "a"), ("warc-date", "b")), b"", 0
        ...              ).header("WARC-DATE")
        'b'
        """
        return self._last.get(name.lower())


@dataclass(frozen=True, slots=True)
class WarcResponse:
    """One response record, as listed."""

    index: int
    offset: int
    url: str
    date: str | None
    status: int | None
    content_type: str | None   # repeated headers combined with ", "
    length: int                # payload bytes as stored
    record_id: str | None


@dataclass(frozen=True, slots=True)
class UnreadableRecord:
    """A response record whose body could not be brought to the decoder, and why.

    A batch names it and goes on to the next record (one poison record never ends a report).
    """

    index: int
    url: str
    reason: str


@dataclass(frozen=True, slots=True)
class WarcListing:
    """The response records of a file, and what stopped the listing early, if anything."""

    responses: tuple[WarcResponse, ...]
    problem: str | None = None
    skipped: int = 0           # response records that hold no HTTP response (dns:, ...)


def _open(source: WarcSource) -> tuple[BinaryIO, bool]:
    """A binary stream over ``source``, and whether it was opened here (to close)."""
    if isinstance(source, bytes | bytearray):
        return io.BytesIO(source), False
    if isinstance(source, str | os.PathLike):
        try:
            return open(source, "rb"), True
        except OSError as exc:
            raise WarcFormatError(f"cannot open {os.fspath(source)!r}: {exc.strerror}") from exc
    if source.seekable():
        source.seek(0)
    return source, False


def read_records(source: WarcSource, *, types: Sequence[str] = ("response",),
                 keep: int = HEAD_BYTES, select: Callable[[int], bool] | None = None,
                 ) -> Iterator[StoredRecord]:
    """The records of ``types`` in file order, each with up to ``keep`` bytes of its block.

    Records ``select`` rejects come with an empty block (still checked for completeness).
    Raises ``WarcFormatError`` for a file that is not WARC, or where a record is cut short.
    """
    kinds = 0
    for name in types:
        kinds |= int(_TYPES[name])
    stream, opened = _open(source)
    # A bitmask of record types is an int at run time; the stub types it as one member.
    records = ArchiveIterator(stream, record_types=cast(WarcRecordType, kinds), parse_http=False,
                              fsspec_args=False)
    index = 0
    try:
        for record in records:
            wanted = select is None or select(index)
            declared = record.headers.get("Content-Length")
            expected = int(declared) if declared and declared.isdigit() else -1
            kept, length = _read_block(record.reader, keep if wanted else 0, max(expected, 0))
            if expected < 0 or length < expected:
                got = f"{length:,} of {declared} bytes" if declared else "no WARC headers"
                raise WarcFormatError(
                    f"record {index + 1} (at byte {record.stream_pos:,}) is cut short ({got}): "
                    "the file is truncated or damaged", index)
            yield StoredRecord(index, record.stream_pos, str(record.record_type).lower(),
                               tuple(record.headers.to_tuples()), kept, length)
            index += 1
    except OSError as exc:
        where = f"after {index} good records" if index else "at its start"
        raise WarcFormatError(f"the file is not valid WARC {where} ({exc})", index) from exc
    finally:
        if opened:
            stream.close()


def _read_block(reader: Any, keep: int, declared: int) -> tuple[bytes, int]:
    """Up to ``keep`` bytes of a record block, and the block's whole length (as read)."""
    kept: bytes = reader.read(min(keep, declared)) if keep else b""
    rest: int = reader.consume()
    return kept, len(kept) + rest


def _entry(record: StoredRecord) -> tuple[WarcResponse, HttpMessage] | None:
    message = parse_http_message(record.block)
    if message.status is None:
        return None
    values = message.header_values("content-type")
    head = len(record.block) - len(message.body)
    return WarcResponse(
        index=record.index, offset=record.offset, url=record.header("WARC-Target-URI") or "",
        date=record.header("WARC-Date"), status=message.status,
        content_type=", ".join(values) if values else None, length=record.length - head,
        record_id=record.header("WARC-Record-ID")), message


def list_responses(source: WarcSource, *, limit: int | None = None) -> WarcListing:
    """The HTTP response records of a WARC file (URL, status, Content-Type, size).

    Raises ``WarcFormatError`` when not even the first record reads; later damage ends the
    listing with ``problem`` set.
    """
    entries: list[WarcResponse] = []
    skipped = 0
    try:
        for record in read_records(source):
            found = _entry(record)
            if found is None:
                skipped += 1
                continue
            entries.append(found[0])
            if limit is not None and len(entries) >= limit:
                break
    except WarcFormatError as exc:
        if not exc.records_read:
            raise
        return WarcListing(tuple(entries), f"{exc}; listed the records before it", skipped)
    if not entries and not skipped:
        raise WarcFormatError("no response records: the file is empty or holds none")
    return WarcListing(tuple(entries), None, skipped)


def _capture(record: StoredRecord, message: HttpMessage, max_bytes: int) -> Capture:
    body = body_for_decoder(message, max_bytes)
    parts = message.start_line.split(" ", 2)
    url = record.header("WARC-Target-URI") or ""
    exchange = Exchange(url=url, status=message.status or 0,
                        reason=parts[2] if len(parts) > 2 else "", http_version=parts[0],
                        headers=message.headers, address=record.header("WARC-IP-Address"))
    return Capture(requested_url=url, exchanges=(exchange,), body=body.data,
                   fetched_at=record.header("WARC-Date") or "", raw_length=body.raw_length,
                   content_codings=body.codings, notes=body.notes)


def _too_large(record: StoredRecord, max_bytes: int) -> BodyTooLargeError:
    return BodyTooLargeError(
        f"record {record.index + 1} ({record.header('WARC-Target-URI')}) holds {record.length:,}"
        f" bytes, over the cap of {max_bytes:,}: raise max_bytes to read it")


def read_response(source: WarcSource, index: int, *, max_bytes: int = MAX_BODY_BYTES,
                  ) -> Capture:
    """The response record ``index`` (``WarcResponse.index``) as a Capture, ready to decode."""
    for record in read_records(source, keep=max_bytes + HEAD_BYTES,
                               select=lambda i: i == index):
        if record.index != index:
            continue
        if not record.complete:
            raise _too_large(record, max_bytes)
        message = parse_http_message(record.block)
        if message.status is None:
            raise WarcFormatError(f"record {index + 1} holds no HTTP response")
        return _capture(record, message, max_bytes)
    raise WarcFormatError(f"the file has no response record number {index + 1}")


def iter_captures(source: WarcSource, *, max_bytes: int = MAX_BODY_BYTES,
                  html_only: bool = True) -> Iterator[Capture | str | UnreadableRecord]:
    """Every HTTP response as a Capture; a skipped record as a short reason instead, and a
    record whose body cannot be read (``UnreadableRecord``) named with why.

    Damage after good records ends the iteration with ``WarcFormatError``.
    """
    for _, item in iter_indexed_captures(source, max_bytes=max_bytes, html_only=html_only):
        yield item


def iter_indexed_captures(source: WarcSource, *, max_bytes: int = MAX_BODY_BYTES,
                          html_only: bool = True,
                          ) -> Iterator[tuple[int, Capture | str | UnreadableRecord]]:
    """``iter_captures`` with each record's index (``WarcResponse.index``, for
    ``read_response``), so a report row can reopen exactly its record."""
    for record in read_records(source, keep=max_bytes + HEAD_BYTES):
        message = parse_http_message(record.block)
        values = message.header_values("content-type")
        if message.status is None:
            yield record.index, "not an HTTP response"
        elif html_only and not is_html(", ".join(values) if values else None):
            yield record.index, "not HTML"
        elif not record.complete:
            yield record.index, "over the size cap"
        else:
            try:
                capture: Capture | str | UnreadableRecord = _capture(record, message, max_bytes)
            except BodyTooLargeError:
                capture = "over the size cap"
            except Exception as exc:  # any: one record must not end the batch
                capture = UnreadableRecord(record.index, record.header("WARC-Target-URI") or "",
                                           record_error(exc))
            yield record.index, capture


def record_error(exc: Exception) -> str:
    """An error as one short line for a report: our own errors by their message, any other
    with its type first (it is a bug to report).

    >>> record_error(RecursionError("maximum recursion depth exceeded"))
    'RecursionError: maximum recursion depth exceeded'
    """
    text = " ".join(str(exc).split())
    text = text[:300] + " ..." if len(text) > 300 else text
    return text if isinstance(exc, EncodingCoreError) and text else \
        f"{type(exc).__name__}: {text}".rstrip(": ")
