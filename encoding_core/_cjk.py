"""Pure-Python WHATWG decoders for the multi-byte (CJK) encodings (encoders: ``_cjk_encode.py``).

This is the slow, exact path behind ``decoders.py``: each decoder follows its Encoding Standard
algorithm step by step, over index tables passed in as strings (one character per pointer,
``NUL_CP`` where the index has no code point). ``decoders.py`` runs Python's C codecs first and
calls in here only for the byte sequences where those codecs fail or disagree with WHATWG.

An "I/O queue restore" is a step back of the read position, so every decoder is a plain loop over
``data`` from ``pos``. With ``one=True`` a decoder stops after one item (a code point or an error)
and returns the position where its state is initial again; that is how ``decoders.py``'s codec
error handler hands control back to Python's codec. Error offsets are the byte offset of the
first byte of each malformed sequence (where the decoder was last in its initial state).

Spec snapshot: https://encoding.spec.whatwg.org/commit-snapshots/a985b62a9b45/
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

__all__ = [
    "BIG5_PAIRS",
    "NUL_CP",
    "decode_big5",
    "decode_euc_jp",
    "decode_euc_kr",
    "decode_gb18030",
    "decode_iso_2022_jp",
    "decode_shift_jis",
    "gb18030_ranges_code_point",
    "gb18030_ranges_pointer",
]

#: Marks "no code point" in an index string (U+FFFE is a noncharacter no index contains).
NUL_CP = "\ufffe"

#: Big5 pointers that decode to two code points (Big5 decoder, step 3.6).
BIG5_PAIRS: dict[int, str] = {
    1133: "\u00ca\u0304", 1135: "\u00ca\u030c", 1164: "\u00ea\u0304", 1166: "\u00ea\u030c",
}

_ASCII_RUN = re.compile(rb"[\x00-\x7f]+")
_REPLACEMENT = "\ufffd"


def _ascii_run(data: bytes, pos: int, out: list[str]) -> int:
    match = _ASCII_RUN.match(data, pos)
    assert match is not None
    out.append(match.group().decode("ascii"))
    return match.end()


def gb18030_ranges_code_point(
    pointer: int, ranges: tuple[Sequence[int], Sequence[int]]
) -> int | None:
    """Implements Encoding "index gb18030 ranges code point": https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point

    ``ranges`` is (pointers, code points), both ascending.
    """
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    if pointer == 7457:
        return 0xE7C7
    pointers, code_points = ranges
    i = bisect_right(pointers, pointer) - 1
    return code_points[i] + pointer - pointers[i]


def gb18030_ranges_pointer(code_point: int, ranges: tuple[Sequence[int], Sequence[int]]) -> int:
    """Implements Encoding "index gb18030 ranges pointer": https://encoding.spec.whatwg.org/#index-gb18030-ranges-pointer"""
    if code_point == 0xE7C7:
        return 7457
    pointers, code_points = ranges
    i = bisect_right(code_points, code_point) - 1
    return pointers[i] + code_point - code_points[i]


def decode_gb18030(
    data: bytes, pos: int, one: bool, out: list[str], errors: list[int], *,
    index: str, ranges: tuple[Sequence[int], Sequence[int]],
) -> int:
    """Implements Encoding "gb18030 decoder" (also GBK's): https://encoding.spec.whatwg.org/#gb18030-decoder"""
    n = len(data)
    while pos < n:
        start = pos
        b = data[pos]
        if b < 0x80:
            if one:
                out.append(chr(b))
                return pos + 1
            pos = _ascii_run(data, pos, out)
            continue
        if b == 0x80:
            out.append("\u20ac")
            pos += 1
        elif b == 0xFF:
            out.append(_REPLACEMENT)
            errors.append(start)
            pos += 1
        elif pos + 1 >= n:  # end of queue with gb18030 first set
            out.append(_REPLACEMENT)
            errors.append(start)
            pos = n
        else:
            b2 = data[pos + 1]
            if 0x30 <= b2 <= 0x39:
                if pos + 2 >= n:
                    out.append(_REPLACEMENT)
                    errors.append(start)
                    pos = n
                elif not 0x81 <= data[pos + 2] <= 0xFE:
                    # restore « second, byte »: resume at the second byte
                    out.append(_REPLACEMENT)
                    errors.append(start)
                    pos = start + 1
                elif pos + 3 >= n:
                    out.append(_REPLACEMENT)
                    errors.append(start)
                    pos = n
                elif not 0x30 <= data[pos + 3] <= 0x39:
                    # restore « second, third, byte »
                    out.append(_REPLACEMENT)
                    errors.append(start)
                    pos = start + 1
                else:
                    pointer = ((b - 0x81) * 12600 + (b2 - 0x30) * 1260
                               + (data[pos + 2] - 0x81) * 10 + data[pos + 3] - 0x30)
                    cp = gb18030_ranges_code_point(pointer, ranges)
                    if cp is None:
                        out.append(_REPLACEMENT)
                        errors.append(start)
                    else:
                        out.append(chr(cp))
                    pos = start + 4
            else:
                c = NUL_CP
                if 0x40 <= b2 <= 0x7E or 0x80 <= b2 <= 0xFE:
                    c = index[(b - 0x81) * 190 + b2 - (0x40 if b2 < 0x7F else 0x41)]
                if c != NUL_CP:
                    out.append(c)
                    pos += 2
                else:
                    out.append(_REPLACEMENT)
                    errors.append(start)
                    pos += 1 if b2 < 0x80 else 2  # an ASCII byte is restored
        if one:
            return pos
    return pos


def decode_big5(
    data: bytes, pos: int, one: bool, out: list[str], errors: list[int], *, index: str
) -> int:
    """Implements Encoding "Big5 decoder": https://encoding.spec.whatwg.org/#big5-decoder"""
    n = len(data)
    while pos < n:
        start = pos
        b = data[pos]
        if b < 0x80:
            if one:
                out.append(chr(b))
                return pos + 1
            pos = _ascii_run(data, pos, out)
            continue
        if b == 0x80 or b == 0xFF:
            out.append(_REPLACEMENT)
            errors.append(start)
            pos += 1
        elif pos + 1 >= n:
            out.append(_REPLACEMENT)
            errors.append(start)
            pos = n
        else:
            b2 = data[pos + 1]
            c = NUL_CP
            if 0x40 <= b2 <= 0x7E or 0xA1 <= b2 <= 0xFE:
                pointer = (b - 0x81) * 157 + b2 - (0x40 if b2 < 0x7F else 0x62)
                c = BIG5_PAIRS.get(pointer) or index[pointer]
            if c != NUL_CP:
                out.append(c)
                pos += 2
            else:
                out.append(_REPLACEMENT)
                errors.append(start)
                pos += 1 if b2 < 0x80 else 2
        if one:
            return pos
    return pos


def decode_euc_jp(
    data: bytes, pos: int, one: bool, out: list[str], errors: list[int], *,
    jis0208: str, jis0212: str,
) -> int:
    """Implements Encoding "EUC-JP decoder": https://encoding.spec.whatwg.org/#euc-jp-decoder"""
    n = len(data)
    while pos < n:
        start = pos
        b = data[pos]
        if b < 0x80:
            if one:
                out.append(chr(b))
                return pos + 1
            pos = _ascii_run(data, pos, out)
            continue
        if not (b == 0x8E or b == 0x8F or 0xA1 <= b <= 0xFE):
            out.append(_REPLACEMENT)
            errors.append(start)
            pos += 1
        elif pos + 1 >= n:
            out.append(_REPLACEMENT)
            errors.append(start)
            pos = n
        else:
            b2 = data[pos + 1]
            c = NUL_CP
            last = pos + 1  # position of the byte that completes or breaks the sequence
            if b == 0x8E and 0xA1 <= b2 <= 0xDF:
                c = chr(0xFF61 - 0xA1 + b2)
            elif b == 0x8F and 0xA1 <= b2 <= 0xFE:
                if pos + 2 >= n:
                    out.append(_REPLACEMENT)
                    errors.append(start)
                    pos = n
                    if one:
                        return pos
                    continue
                last = pos + 2
                b3 = data[last]
                if 0xA1 <= b3 <= 0xFE:
                    c = jis0212[(b2 - 0xA1) * 94 + b3 - 0xA1]
            elif 0xA1 <= b <= 0xFE and 0xA1 <= b2 <= 0xFE:
                c = jis0208[(b - 0xA1) * 94 + b2 - 0xA1]
            if c != NUL_CP:
                out.append(c)
                pos = last + 1
            else:
                out.append(_REPLACEMENT)
                errors.append(start)
                pos = last if data[last] < 0x80 else last + 1
        if one:
            return pos
    return pos


def decode_shift_jis(
    data: bytes, pos: int, one: bool, out: list[str], errors: list[int], *, jis0208: str
) -> int:
    """Implements Encoding "Shift_JIS decoder": https://encoding.spec.whatwg.org/#shift_jis-decoder"""
    n = len(data)
    while pos < n:
        start = pos
        b = data[pos]
        if b < 0x80:
            if one:
                out.append(chr(b))
                return pos + 1
            pos = _ascii_run(data, pos, out)
            continue
        if b == 0x80:
            out.append("\x80")
            pos += 1
        elif 0xA1 <= b <= 0xDF:
            out.append(chr(0xFF61 - 0xA1 + b))
            pos += 1
        elif not (0x81 <= b <= 0x9F or 0xE0 <= b <= 0xFC):
            out.append(_REPLACEMENT)
            errors.append(start)
            pos += 1
        elif pos + 1 >= n:
            out.append(_REPLACEMENT)
            errors.append(start)
            pos = n
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
            else:
                out.append(_REPLACEMENT)
                errors.append(start)
                pos += 1 if b2 < 0x80 else 2
        if one:
            return pos
    return pos


def decode_euc_kr(
    data: bytes, pos: int, one: bool, out: list[str], errors: list[int], *, index: str
) -> int:
    """Implements Encoding "EUC-KR decoder": https://encoding.spec.whatwg.org/#euc-kr-decoder"""
    n = len(data)
    while pos < n:
        start = pos
        b = data[pos]
        if b < 0x80:
            if one:
                out.append(chr(b))
                return pos + 1
            pos = _ascii_run(data, pos, out)
            continue
        if b == 0x80 or b == 0xFF:
            out.append(_REPLACEMENT)
            errors.append(start)
            pos += 1
        elif pos + 1 >= n:
            out.append(_REPLACEMENT)
            errors.append(start)
            pos = n
        else:
            b2 = data[pos + 1]
            c = index[(b - 0x81) * 190 + b2 - 0x41] if 0x41 <= b2 <= 0xFE else NUL_CP
            if c != NUL_CP:
                out.append(c)
                pos += 2
            else:
                out.append(_REPLACEMENT)
                errors.append(start)
                pos += 1 if b2 < 0x80 else 2
        if one:
            return pos
    return pos


# ISO-2022-JP decoder states
_ASCII, _ROMAN, _KATAKANA, _LEAD = 0, 1, 2, 3
_ISO2022_TEXT = {
    _ASCII: re.compile(rb"[\x00-\x0d\x10-\x1a\x1c-\x7f]+"),
    _ROMAN: re.compile(rb"[\x00-\x0d\x10-\x1a\x1c-\x7f]+"),
    _KATAKANA: re.compile(rb"[\x21-\x5f]+"),
    _LEAD: re.compile(rb"(?:[\x21-\x7e][\x21-\x7e])+"),
}
_ROMAN_MAP = {0x5C: 0xA5, 0x7E: 0x203E}
_ESCAPES = {b"(B": _ASCII, b"(J": _ROMAN, b"(I": _KATAKANA, b"$@": _LEAD, b"$B": _LEAD}


#: Runs of at least this many two-byte characters are looked up in bulk (numpy).
_BULK_PAIRS = 32


@cache
def _codepoints(index: str) -> npt.NDArray[np.uint32]:
    return np.frombuffer(index.encode("utf-32-le"), dtype="<u4")


def _lead_run(run: bytes, index: str, out: list[str]) -> bool:
    """A run of two-byte JIS X 0208 characters in one lookup; False (nothing appended) when
    one of them has no code point, for the per-character loop to report where."""
    pairs = np.frombuffer(run, dtype=np.uint8).reshape(-1, 2).astype(np.intp) - 0x21
    found = _codepoints(index)[pairs[:, 0] * 94 + pairs[:, 1]]
    if (found == ord(NUL_CP)).any():
        return False
    out.append(found.tobytes().decode("utf-32-le"))
    return True


def decode_iso_2022_jp(
    data: bytes, pos: int, one: bool, out: list[str], errors: list[int], *, jis0208: str
) -> int:
    """Implements Encoding "ISO-2022-JP decoder": https://encoding.spec.whatwg.org/#iso-2022-jp-decoder

    Runs of text in one state are matched with a regular expression and decoded in bulk; the
    escape sequences, the output flag and every error case follow the spec's state machine.
    Stateful, so it always decodes from ``pos`` to the end (``one`` is ignored).
    """
    n = len(data)
    state = _ASCII  # the decoder state at a sequence boundary; also the "output state"
    output = False  # ISO-2022-JP output flag
    while pos < n:
        match = _ISO2022_TEXT[state].match(data, pos)
        if match is not None:
            run = match.group()
            if state == _LEAD:
                bulk = len(run) >= _BULK_PAIRS * 2 and _lead_run(run, jis0208, out)
                for i in range(0, 0 if bulk else len(run), 2):
                    c = jis0208[(run[i] - 0x21) * 94 + run[i + 1] - 0x21]
                    if c == NUL_CP:
                        out.append(_REPLACEMENT)
                        errors.append(pos + i)
                    else:
                        out.append(c)
            elif state == _KATAKANA:
                out.append("".join(chr(0xFF61 - 0x21 + x) for x in run))
            elif state == _ROMAN:
                out.append(run.decode("ascii").translate(_ROMAN_MAP))
            else:
                out.append(run.decode("ascii"))
            output = False
            pos = match.end()
            continue
        start = pos
        b = data[pos]
        if b == 0x1B:
            escape = data[pos + 1:pos + 3]
            new_state = _ESCAPES.get(escape)
            if new_state is not None:
                if output:  # two escape sequences in a row: "escape" returns error
                    out.append(_REPLACEMENT)
                    errors.append(start)
                state = new_state
                output = True
                pos += 3
                continue
            # "escape start" or "escape" fails: whatever followed ESC is restored and
            # decoded in the output state (at the end of the queue too)
            pos += 1
        elif state == _LEAD and 0x21 <= b <= 0x7E:
            # "trailing byte" with a byte outside 0x21-0x7E: an ESC goes on to "escape start",
            # the end of the queue ends, any other byte is consumed with the leading byte
            pos += 1 if pos + 1 >= n or data[pos + 1] == 0x1B else 2
        else:
            pos += 1
        output = False
        out.append(_REPLACEMENT)
        errors.append(start)
    return pos
