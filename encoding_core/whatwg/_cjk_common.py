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

The helpers here (``ascii_run``, ``malformed``) run once per ASCII run or per malformed sequence;
each decoder keeps its per-character path (pointer lookup, append) inline, since a helper call
per character costs about 5% on CJK text.

Spec snapshot: https://encoding.spec.whatwg.org/commit-snapshots/a985b62a9b45/
"""

from __future__ import annotations

import re

__all__ = ["NUL_CP", "REPLACEMENT", "ascii_run", "malformed"]

#: Marks "no code point" in an index string (U+FFFE is a noncharacter no index contains).
NUL_CP = "\ufffe"

#: What a decoder emits for each malformed sequence (replacement mode).
REPLACEMENT = "\ufffd"

_ASCII_RUN = re.compile(rb"[\x00-\x7f]+")


def ascii_run(data: bytes, pos: int, one: bool, out: list[str]) -> int:
    """Append the ASCII byte at ``pos`` (``one``) or the ASCII run there to ``out``; return its end.

    >>> out: list[str] = []
    >>> ascii_run(b"ab\\x81c", 0, True, out), ascii_run(b"ab\\x81c", 0, False, out), out
    (1, 2, ['a', 'ab'])
    """
    if one:
        out.append(chr(data[pos]))
        return pos + 1
    match = _ASCII_RUN.match(data, pos)
    assert match is not None
    out.append(match.group().decode("ascii"))
    return match.end()


def malformed(out: list[str], errors: list[int], start: int, resume: int) -> int:
    """Record the malformed sequence at ``start`` (a decoder's "return error"); return ``resume``.

    ``resume`` is where decoding goes on: after the bytes the sequence consumed, so before any
    byte the decoder restores to the I/O queue (the two-byte decoders' ASCII trail byte).

    >>> out: list[str] = []
    >>> errors: list[int] = []
    >>> malformed(out, errors, 3, 4), out, errors
    (4, ['\\ufffd'], [3])
    """
    out.append(REPLACEMENT)
    errors.append(start)
    return resume
