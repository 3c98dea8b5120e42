"""Undo HTTP content codings (gzip, deflate, br) incrementally, under a size cap.

A few kilobytes of gzip or brotli can expand to gigabytes. ``read_body`` therefore never asks a
decompressor for more than 64 KiB at a time and counts both the bytes received and the bytes
produced; past ``max_bytes`` it stops with ``BodyTooLargeError``, so memory stays near the cap.
Used by live fetches and by WARC records that were stored still compressed.

Differences from browsers (and the Fetch Standard's "handle content codings"):

==========================================  ============================================
browsers                                    here
==========================================  ============================================
an unknown coding fails the load            the body is kept as received, with a note
any number of codings is undone             at most ``limits.MAX_CODINGS``; more is an error
a truncated compressed stream shows what    the same, plus a note saying it was cut short
decoded so far
==========================================  ============================================
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import brotli

from ..errors import FetchError
from .limits import MAX_CODINGS

__all__ = ["Body", "BodyTooLargeError", "ContentDecodingError", "TooManyCodingsError",
           "parse_codings", "read_body"]

_CHUNK = 64 * 1024
_GZIP_MAGIC = b"\x1f\x8b"
_SUPPORTED = frozenset({"gzip", "x-gzip", "deflate", "br"})


class BodyTooLargeError(FetchError):
    """The body (received, or after decompression) is over the size cap."""


class ContentDecodingError(FetchError):
    """The body does not decode with the Content-Encoding the server declared."""


class TooManyCodingsError(FetchError):
    """The Content-Encoding lists more codings than are undone (``limits.MAX_CODINGS``).

    Not a ``ContentDecodingError``: the body is not mislabelled, it is refused, so a stored
    record is not "used as stored" either.
    """


@dataclass(frozen=True, slots=True)
class Body:
    """A body with its content codings removed."""

    data: bytes
    raw_length: int                  # bytes received, before decoding
    codings: tuple[str, ...] = ()    # codings removed, in the order the server applied them
    notes: tuple[str, ...] = ()


class _Decoder(Protocol):
    def feed(self, data: bytes) -> Iterator[bytes]: ...
    def complete(self) -> bool: ...


class _Inflater:
    """gzip (concatenated members too) or deflate (zlib-wrapped, or raw as some servers send)."""

    def __init__(self, coding: str) -> None:
        self._gzip = coding != "deflate"
        self._d: zlib._Decompress | None = None
        self._pending = b""
        self._members = 0
        self._done = False

    def _wbits(self, head: bytes) -> int:
        if self._gzip:
            return 16 + zlib.MAX_WBITS
        zlib_header = head[0] & 0x0F == 8 and int.from_bytes(head[:2], "big") % 31 == 0
        return zlib.MAX_WBITS if zlib_header else -zlib.MAX_WBITS

    def feed(self, data: bytes) -> Iterator[bytes]:
        data, self._pending = self._pending + data, b""
        while True:
            if self._d is None:
                if self._done or not data:
                    return  # bytes after the last member are ignored, as browsers do
                if len(data) < 2:
                    self._pending = data
                    return
                if self._members and data[:2] != _GZIP_MAGIC:
                    self._done = True
                    continue
                self._d = zlib.decompressobj(self._wbits(data))
            out = self._d.decompress(data, _CHUNK)
            if out:
                yield out
            if self._d.eof:
                data, self._d = self._d.unused_data, None
                self._members += 1
                self._done = not self._gzip
                continue
            data = self._d.unconsumed_tail
            if not data and len(out) < _CHUNK:
                return

    def complete(self) -> bool:
        return self._d is None and not self._pending


class _Unbrotli:
    def __init__(self) -> None:
        self._d = brotli.Decompressor()
        self._fed = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        self._fed = self._fed or bool(data)
        out: bytes = self._d.process(data, output_buffer_limit=_CHUNK)
        while True:
            if out:
                yield out
            if self._d.can_accept_more_data():
                return
            out = self._d.process(b"", output_buffer_limit=_CHUNK)

    def complete(self) -> bool:
        return not self._fed or bool(self._d.is_finished())


def parse_codings(values: Sequence[str]) -> tuple[str, ...]:
    """The codings named by Content-Encoding header values, in the order applied.

    >>> parse_codings(["gzip, identity", "BR"])
    ('gzip', 'br')
    """
    names = (part.strip().lower() for value in values for part in value.split(","))
    return tuple(name for name in names if name and name != "identity")


def _through(decoder: _Decoder, pieces: Iterator[bytes]) -> Iterator[bytes]:
    for piece in pieces:
        yield from decoder.feed(piece)


def read_body(chunks: Iterable[bytes], content_encoding: Sequence[str], max_bytes: int) -> Body:
    """Read ``chunks``, undo the content codings, and stop past ``max_bytes`` either way.

    >>> import gzip
    >>> read_body([gzip.compress(b"caf\\xc3\\xa9")], ["gzip"], 100).data
    b'caf\\xc3\\xa9'
    """
    codings = parse_codings(content_encoding)
    if len(codings) > MAX_CODINGS:
        # a deviation: browsers set no such limit (each coding nests one more decoder here)
        raise TooManyCodingsError(
            f"the Content-Encoding lists {len(codings):,} codings ({', '.join(codings[:3])}, "
            f"...), more than the {MAX_CODINGS} undone here: a hostile or broken server; "
            "nothing was kept")
    if not codings and isinstance(chunks, list | tuple) and len(chunks) == 1:
        if len(chunks[0]) > max_bytes:  # one stored payload (WARC): nothing to stream
            raise BodyTooLargeError(
                f"the body is larger than the cap of {max_bytes:,} bytes ({len(chunks[0]):,}): "
                "raise max_bytes if you need this page")
        return Body(bytes(chunks[0]), len(chunks[0]))
    unknown = [c for c in codings if c not in _SUPPORTED]
    notes: list[str] = []
    if unknown:
        notes.append(f"Content-Encoding {', '.join(unknown)} is not supported here: the body "
                     "is kept as received (still encoded)")
        codings = ()
    decoders: list[_Decoder] = [_Unbrotli() if c == "br" else _Inflater(c)
                                for c in reversed(codings)]
    received = 0
    buffer = io.BytesIO()

    def counted() -> Iterator[bytes]:
        nonlocal received
        for chunk in chunks:
            received += len(chunk)
            if received > max_bytes:
                raise BodyTooLargeError(
                    f"the body is larger than the cap of {max_bytes:,} bytes (stopped after "
                    f"{received:,}): raise max_bytes if you need this page")
            yield chunk

    pieces: Iterator[bytes] = counted()
    for decoder in decoders:
        pieces = _through(decoder, pieces)
    try:
        for piece in pieces:
            if buffer.tell() + len(piece) > max_bytes:
                raise BodyTooLargeError(
                    f"the body decompresses to more than the cap of {max_bytes:,} bytes (from "
                    f"{received:,} bytes received): a compression bomb or a very large page; "
                    "nothing was kept")
            buffer.write(piece)
    except (zlib.error, brotli.error) as exc:
        raise ContentDecodingError(
            f"the body does not decode as Content-Encoding {', '.join(codings)} ({exc}): the "
            "server mislabels its compression; nothing was kept") from exc
    if not all(d.complete() for d in decoders):
        notes.append("the compressed body ends early (truncated): only what decoded is kept")
    return Body(buffer.getvalue(), received, codings, tuple(notes))
