"""Decoding bytes as the WHATWG decoders do (placeholder over Python codecs; being replaced)."""

from __future__ import annotations

import codecs

__all__ = ["decode_replace", "decode_strict", "encode_strict"]

_PY = {"windows-1252": "cp1252", "gbk": "gb18030", "utf-16le": "utf-16-le",
       "utf-16be": "utf-16-be", "x-mac-cyrillic": "mac-cyrillic", "macintosh": "mac-roman",
       "iso-8859-8-i": "iso-8859-8", "windows-874": "cp874"}


def _codec(encoding: str) -> str:
    return _PY.get(encoding, encoding)


def decode_strict(data: bytes, encoding: str) -> str:
    """Decode or raise UnicodeDecodeError (``.start`` is the byte offset of the first error)."""
    return codecs.decode(data, _codec(encoding), "strict")


def decode_replace(data: bytes, encoding: str) -> tuple[str, tuple[int, ...]]:
    """Decode with replacement; the text and the byte offsets of each malformed sequence."""
    offsets: list[int] = []
    pos = 0
    parts: list[str] = []
    while True:
        try:
            parts.append(codecs.decode(data[pos:], _codec(encoding), "strict"))
            break
        except UnicodeDecodeError as exc:
            parts.append(codecs.decode(data[pos:pos + exc.start], _codec(encoding), "strict"))
            parts.append("\ufffd")
            offsets.append(pos + exc.start)
            pos += exc.end
    return "".join(parts), tuple(offsets)


def encode_strict(text: str, encoding: str) -> bytes | None:
    """Encode, or ``None`` when some character has no bytes in ``encoding``."""
    try:
        return codecs.encode(text, _codec(encoding), "strict")
    except (UnicodeEncodeError, LookupError):
        return None
