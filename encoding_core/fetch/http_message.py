"""The HTTP message stored in a WARC record, split byte for byte, and its body as decoder input.

The HTTP message inside a record is split here, byte for byte, so repeated and oddly cased
headers survive as they do in a live fetch. A stored payload is brought to what the decoder
should see: chunked transfer coding undone and content codings removed (under the size cap),
as a browser would; when a header claims a coding the bytes do not have, they are used as
stored, with a note.

Differences from the WARC 1.1 specification:

======================================  ===================================================
WARC 1.1                                here
======================================  ===================================================
header lines end in CRLF                LF-only HTTP header lines are accepted too
======================================  ===================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from .codings import Body, ContentDecodingError, read_body

__all__ = ["Headers", "HttpMessage", "body_for_decoder", "is_html", "parse_http_message"]

#: Raw headers as received: (name, value) pairs in order, case and repeats kept (latin-1).
Headers = tuple[tuple[str, str], ...]
_HTML = frozenset({"text/html", "application/xhtml+xml"})


@dataclass(frozen=True, slots=True)
class HttpMessage:
    """An HTTP message as stored: start line, raw headers, body bytes."""

    start_line: str
    headers: Headers
    body: bytes

    @property
    def status(self) -> int | None:
        """The status code of a response, or None when the start line has none."""
        parts = self.start_line.split(" ", 2)
        ok = len(parts) > 1 and parts[0].startswith("HTTP/") and parts[1].isdigit()
        return int(parts[1]) if ok else None

    def header_values(self, name: str) -> tuple[str, ...]:
        """Every value of header ``name`` (case-insensitive), in order."""
        wanted = name.lower()
        return tuple(v for k, v in self.headers if k.lower() == wanted)


def parse_http_message(block: bytes) -> HttpMessage:
    """Split a stored HTTP message into start line, raw headers and body; never raises.

    >>> m = parse_http_message(b"HTTP/1.1 200 OK\\r\\nContent-Type: a\\r\\n  b\\r\\n\\r\\nhi")
    >>> m.status, m.headers, m.body
    (200, (('Content-Type', 'a b'),), b'hi')
    """
    end, gap = block.find(b"\r\n\r\n"), 4
    lf = block.find(b"\n\n", 0, end if end >= 0 else len(block))  # LF-only header lines
    if lf >= 0:
        end, gap = lf, 2
    head, body = (block, b"") if end < 0 else (block[:end], block[end + gap:])
    lines = head.replace(b"\r\n", b"\n").split(b"\n")
    headers: list[tuple[str, str]] = []
    for line in lines[1:]:
        if line[:1] in (b" ", b"\t") and headers:  # obsolete line folding
            name, value = headers[-1]
            headers[-1] = (name, f"{value} {line.strip().decode('latin-1')}")
            continue
        name_b, colon, value_b = line.partition(b":")
        if colon:
            headers.append((name_b.decode("latin-1").strip(), value_b.decode("latin-1").strip()))
    return HttpMessage(lines[0].decode("latin-1").strip(), tuple(headers), body)


def is_html(content_type: str | None) -> bool:
    """True for an HTML MIME type (essence text/html or application/xhtml+xml), or none.

    >>> is_html("text/html; charset=utf-8"), is_html("image/png"), is_html(None)
    (True, False, True)
    """
    if content_type is None:
        return True
    return content_type.split(",")[0].split(";")[0].strip().lower() in _HTML


def _dechunk(data: bytes) -> bytes | None:
    """Undo chunked transfer coding; None when the bytes are not chunked."""
    out, pos = bytearray(), 0
    while True:
        eol = data.find(b"\n", pos)
        if eol < 0:
            return None
        try:
            size = int(data[pos:eol].split(b";", 1)[0].strip(), 16)
        except ValueError:
            return None
        if size == 0:
            return bytes(out)
        chunk = data[eol + 1: eol + 1 + size]
        if len(chunk) < size:
            return None
        out += chunk
        pos = eol + 1 + size + (2 if data[eol + 1 + size: eol + 3 + size] == b"\r\n" else 1)


def body_for_decoder(message: HttpMessage, max_bytes: int) -> Body:
    """The stored body as the decoder should see it: chunking undone, content codings removed.

    - ``Transfer-Encoding: chunked`` is undone; a payload that is not chunked is used as stored.
    - Then the ``Content-Encoding`` codings are removed; a payload that does not decode so is
      used as stored (the crawler probably decoded it).

    ``raw_length`` is the payload's length after dechunking; the notes say what was used as
    stored, then what ``read_body`` noted. Raises ``BodyTooLargeError`` past ``max_bytes``.
    """
    notes: list[str] = []
    payload = message.body
    if any("chunked" in v.lower() for v in message.header_values("transfer-encoding")):
        dechunked = _dechunk(payload)
        if dechunked is None:
            notes.append("Transfer-Encoding: chunked, but the payload is not: used as stored")
        payload = payload if dechunked is None else dechunked
    codings = message.header_values("content-encoding")
    try:
        body = read_body([payload], codings, max_bytes)
    except ContentDecodingError:
        body = read_body([payload], [], max_bytes)
        notes.append(f"Content-Encoding {', '.join(codings)}, but the payload is not encoded "
                     "so: used as stored (the crawler probably decoded it)")
    return Body(body.data, len(payload), body.codings, (*notes, *body.notes))
