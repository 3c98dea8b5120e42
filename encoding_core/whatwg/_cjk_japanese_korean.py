"""Pure-Python WHATWG decoders for Japanese and Korean: EUC-JP, Shift_JIS, EUC-KR, ISO-2022-JP.

The slow, exact path behind ``_decoders_cjk.py``; the calling convention (``one``, error offsets,
index strings with ``NUL_CP``) is in ``_cjk_common.py``.

Spec snapshot: https://encoding.spec.whatwg.org/commit-snapshots/a985b62a9b45/
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._cjk_common import NUL_CP, REPLACEMENT, ascii_run, malformed

__all__ = ["ISO_2022_JP_ASCII", "ISO_2022_JP_ESCAPES", "ISO_2022_JP_KATAKANA", "ISO_2022_JP_LEAD",
           "ISO_2022_JP_ROMAN", "ISO_2022_JP_RUN", "ROMAN_MAP", "decode_euc_jp", "decode_euc_kr",
           "decode_iso_2022_jp", "decode_shift_jis"]


def decode_euc_jp(
    data: bytes, pos: int, one: bool, out: list[str], errors: list[int], *,
    jis0208: str, jis0212: str,
) -> int:
    """Implements Encoding "EUC-JP decoder": https://encoding.spec.whatwg.org/#euc-jp-decoder"""
    n = len(data)
    while pos < n:
        b = data[pos]
        if b < 0x80:
            pos = ascii_run(data, pos, one, out)
        elif not (b == 0x8E or b == 0x8F or 0xA1 <= b <= 0xFE) or pos + 1 >= n:
            pos = malformed(out, errors, pos, pos + 1)  # or a lead byte at the end of the queue
        else:
            b2 = data[pos + 1]
            c = NUL_CP
            last = pos + 1  # position of the byte that completes or breaks the sequence
            if b == 0x8E and 0xA1 <= b2 <= 0xDF:
                c = chr(0xFF61 - 0xA1 + b2)
            elif b == 0x8F and 0xA1 <= b2 <= 0xFE:
                if pos + 2 < n:  # else the end of the queue: an error that consumes b2
                    last = pos + 2
                    b3 = data[last]
                    if 0xA1 <= b3 <= 0xFE:
                        c = jis0212[(b2 - 0xA1) * 94 + b3 - 0xA1]
            elif 0xA1 <= b <= 0xFE and 0xA1 <= b2 <= 0xFE:
                c = jis0208[(b - 0xA1) * 94 + b2 - 0xA1]
            if c != NUL_CP:
                out.append(c)
                pos = last + 1
            else:  # an ASCII byte is restored
                pos = malformed(out, errors, pos, last if data[last] < 0x80 else last + 1)
        if one:
            return pos
    return pos


def decode_shift_jis(
    data: bytes, pos: int, one: bool, out: list[str], errors: list[int], *, jis0208: str
) -> int:
    """Implements Encoding "Shift_JIS decoder": https://encoding.spec.whatwg.org/#shift_jis-decoder"""
    n = len(data)
    while pos < n:
        b = data[pos]
        if b < 0x80:
            pos = ascii_run(data, pos, one, out)
        elif b == 0x80:
            out.append("\x80")
            pos += 1
        elif 0xA1 <= b <= 0xDF:
            out.append(chr(0xFF61 - 0xA1 + b))
            pos += 1
        elif not (0x81 <= b <= 0x9F or 0xE0 <= b <= 0xFC) or pos + 1 >= n:
            pos = malformed(out, errors, pos, pos + 1)  # or a lead byte at the end of the queue
        else:
            b2 = data[pos + 1]
            c = NUL_CP
            if 0x40 <= b2 <= 0x7E or 0x80 <= b2 <= 0xFC:
                pointer = ((b - (0x81 if b < 0xA0 else 0xC1)) * 188
                           + b2 - (0x40 if b2 < 0x7F else 0x41))
                # pointers 8836-10715 are EUDC: the Private Use Area
                c = chr(0xE000 - 8836 + pointer) if 8836 <= pointer <= 10715 else jis0208[pointer]
            if c != NUL_CP:
                out.append(c)
                pos += 2
            else:  # an ASCII byte is restored
                pos = malformed(out, errors, pos, pos + 1 if b2 < 0x80 else pos + 2)
        if one:
            return pos
    return pos


def decode_euc_kr(
    data: bytes, pos: int, one: bool, out: list[str], errors: list[int], *, index: str
) -> int:
    """Implements Encoding "EUC-KR decoder": https://encoding.spec.whatwg.org/#euc-kr-decoder"""
    n = len(data)
    while pos < n:
        b = data[pos]
        if b < 0x80:
            pos = ascii_run(data, pos, one, out)
        elif b == 0x80 or b == 0xFF or pos + 1 >= n:  # or a lead byte at the end of the queue
            pos = malformed(out, errors, pos, pos + 1)
        else:
            b2 = data[pos + 1]
            c = index[(b - 0x81) * 190 + b2 - 0x41] if 0x41 <= b2 <= 0xFE else NUL_CP
            if c != NUL_CP:
                out.append(c)
                pos += 2
            else:  # an ASCII byte is restored
                pos = malformed(out, errors, pos, pos + 1 if b2 < 0x80 else pos + 2)
        if one:
            return pos
    return pos


# ISO-2022-JP decoder states; what each outputs (a run of it, none an error); the escape
# sequences and the state each sets. ``_decoders_cjk`` reads a well-formed input with them too.
ISO_2022_JP_ASCII, ISO_2022_JP_ROMAN, ISO_2022_JP_KATAKANA, ISO_2022_JP_LEAD = 0, 1, 2, 3
ISO_2022_JP_RUN = {
    ISO_2022_JP_ASCII: re.compile(rb"[\x00-\x0d\x10-\x1a\x1c-\x7f]+"),
    ISO_2022_JP_ROMAN: re.compile(rb"[\x00-\x0d\x10-\x1a\x1c-\x7f]+"),
    ISO_2022_JP_KATAKANA: re.compile(rb"[\x21-\x5f]+"),
    ISO_2022_JP_LEAD: re.compile(rb"(?:[\x21-\x7e][\x21-\x7e])+"),
}
ROMAN_MAP = {0x5C: 0xA5, 0x7E: 0x203E}
ISO_2022_JP_ESCAPES = {b"(B": ISO_2022_JP_ASCII, b"(J": ISO_2022_JP_ROMAN,
                       b"(I": ISO_2022_JP_KATAKANA,
                       b"$@": ISO_2022_JP_LEAD, b"$B": ISO_2022_JP_LEAD}


#: Runs of at least this many two-byte characters are given to ``bulk`` when there is one.
_BULK_PAIRS = 32


def decode_iso_2022_jp(
    data: bytes, pos: int, one: bool, out: list[str], errors: list[int], *, jis0208: str,
    bulk: Callable[[bytes], str | None] | None = None,
) -> int:
    """Implements Encoding "ISO-2022-JP decoder": https://encoding.spec.whatwg.org/#iso-2022-jp-decoder

    Runs of text in one state are matched with a regular expression and decoded in bulk; the
    escape sequences, the output flag and every error case follow the spec's state machine.
    Stateful, so it always decodes from ``pos`` to the end (``one`` is ignored). ``bulk``
    reads a long run of two-byte characters at once (``_decoders_cjk`` gives the EUC-JP fast
    path: the same jis0208 pointers, each byte + 0x80), or returns None when one of them has no
    code point, for the per-character loop to report where.
    """
    n = len(data)
    state = ISO_2022_JP_ASCII  # the decoder state at a sequence boundary; also the "output state"
    output = False  # ISO-2022-JP output flag
    while pos < n:
        match = ISO_2022_JP_RUN[state].match(data, pos)
        if match is not None:
            run = match.group()
            if state == ISO_2022_JP_LEAD:
                read = (bulk(run) if bulk is not None and len(run) >= _BULK_PAIRS * 2
                        else None)
                if read is not None:
                    out.append(read)
                for i in range(0, 0 if read is not None else len(run), 2):
                    c = jis0208[(run[i] - 0x21) * 94 + run[i + 1] - 0x21]
                    if c == NUL_CP:
                        out.append(REPLACEMENT)
                        errors.append(pos + i)
                    else:
                        out.append(c)
            elif state == ISO_2022_JP_KATAKANA:
                out.append("".join(chr(0xFF61 - 0x21 + x) for x in run))
            elif state == ISO_2022_JP_ROMAN:
                out.append(run.decode("ascii").translate(ROMAN_MAP))
            else:
                out.append(run.decode("ascii"))
            output = False
            pos = match.end()
            continue
        start = pos
        b = data[pos]
        if b == 0x1B:
            escape = data[pos + 1:pos + 3]
            new_state = ISO_2022_JP_ESCAPES.get(escape)
            if new_state is not None:
                if output:  # two escape sequences in a row: "escape" returns error
                    out.append(REPLACEMENT)
                    errors.append(start)
                state = new_state
                output = True
                pos += 3
                continue
            # "escape start" or "escape" fails: whatever followed ESC is restored and
            # decoded in the output state (at the end of the queue too)
            pos += 1
        elif state == ISO_2022_JP_LEAD and 0x21 <= b <= 0x7E:
            # "trailing byte" with a byte outside 0x21-0x7E: an ESC goes on to "escape start",
            # the end of the queue ends, any other byte is consumed with the leading byte
            pos += 1 if pos + 1 >= n or data[pos + 1] == 0x1B else 2
        else:
            pos += 1
        output = False
        out.append(REPLACEMENT)
        errors.append(start)
    return pos
