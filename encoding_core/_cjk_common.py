"""What the pure-Python WHATWG multi-byte decoders share: their calling convention and helpers.

Every decoder (``_cjk_chinese.py``, ``_cjk_japanese_korean.py``) is a ``decode_*(data, pos, one,
out, errors, *, <index tables>) -> int`` over index tables passed in as strings (one character
per pointer, ``NUL_CP`` where the index has no code point). It appends the decoded text to
``out`` and the error offsets to ``errors``, and returns the position where it stopped.

An "I/O queue restore" is a step back of the read position, so every decoder is a plain loop over
``data`` from ``pos``. With ``one=True`` a decoder stops after one item (a code point or an error)
and returns the position where its state is initial again; that is how ``_decoders_cjk.py``'s
codec error handler hands control back to Python's codec. Error offsets are the byte offset of the
first byte of each malformed sequence (where the decoder was last in its initial state).

Spec snapshot: https://encoding.spec.whatwg.org/commit-snapshots/a985b62a9b45/
"""

from __future__ import annotations

import re

__all__ = ["NUL_CP", "REPLACEMENT", "ascii_run"]

#: Marks "no code point" in an index string (U+FFFE is a noncharacter no index contains).
NUL_CP = "\ufffe"

#: What a decoder emits for each malformed sequence (replacement mode).
REPLACEMENT = "\ufffd"

_ASCII_RUN = re.compile(rb"[\x00-\x7f]+")


def ascii_run(data: bytes, pos: int, out: list[str]) -> int:
    """Append the run of ASCII bytes at ``pos`` (at least one) to ``out``; return its end.

    >>> out: list[str] = []
    >>> ascii_run(b"ab\\x81c", 0, out), out
    (2, ['ab'])
    """
    match = _ASCII_RUN.match(data, pos)
    assert match is not None
    out.append(match.group().decode("ascii"))
    return match.end()
