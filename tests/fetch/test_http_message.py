"""Tests for fetch.http_message: split a stored HTTP message; its body as decoder input."""

from __future__ import annotations

import gzip

import pytest

from encoding_core.fetch.codings import BodyTooLargeError
from encoding_core.fetch.http_message import body_for_decoder, parse_http_message


def test_parse_http_message_never_raises() -> None:
    """Any bytes split into start line, headers and body without raising."""
    assert parse_http_message(b"").status is None
    assert parse_http_message(b"\xff\xfe junk").status is None
    message = parse_http_message(b"HTTP/1.1 200\r\nX: 1\r\nbroken line\r\n\r\nbody")
    assert (message.status, message.headers, message.body) == (200, (("X", "1"),), b"body")


BODIES = {
    "chunked": (b"Transfer-Encoding: chunked\r\n", b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n",
                b"hello world", None),
    "not-chunked": (b"Transfer-Encoding: chunked\r\n", b"hello", b"hello",
                    "Transfer-Encoding: chunked, but the payload is not: used as stored"),
    "gzip": (b"Content-Encoding: gzip\r\n", gzip.compress(b"<p>gzipped</p>"), b"<p>gzipped</p>",
             None),
    "already-decoded": (b"Content-Encoding: gzip\r\n", b"<p>plain</p>", b"<p>plain</p>",
                        "the crawler probably decoded it"),
}


@pytest.mark.parametrize(("header", "payload", "body", "note"), BODIES.values(),
                         ids=BODIES.keys())
def test_body_for_decoder(header: bytes, payload: bytes, body: bytes, note: str | None) -> None:
    """Chunking and content codings are undone; a coding the bytes do not have is noted."""
    message = parse_http_message(b"HTTP/1.1 200 OK\r\n" + header + b"\r\n" + payload)
    result = body_for_decoder(message, 1000)
    assert result.data == body
    assert (note is None) == (not result.notes)
    if note:
        assert note in result.notes[0]


def test_body_for_decoder_raw_length_is_after_dechunking() -> None:
    """raw_length counts the payload once the chunk framing is gone."""
    message = parse_http_message(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                 b"5\r\nhello\r\n0\r\n\r\n")
    assert body_for_decoder(message, 1000).raw_length == 5


def test_body_for_decoder_cap() -> None:
    """A body over the cap raises BodyTooLargeError."""
    message = parse_http_message(b"HTTP/1.1 200 OK\r\n\r\n" + b"x" * 11)
    with pytest.raises(BodyTooLargeError, match="cap of 10 bytes"):
        body_for_decoder(message, 10)
