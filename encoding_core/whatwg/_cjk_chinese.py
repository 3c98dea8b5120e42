"""Pure-Python WHATWG decoders for the Chinese encodings: gb18030 (and GBK), Big5.

The slow, exact path behind ``_decoders_cjk.py``; the calling convention (``one``, error offsets,
index strings with ``NUL_CP``) is in ``_cjk_common.py``. Also the "index gb18030 ranges"
lookups, which the gb18030 encoder (``_cjk_encode.py``) uses too.

Spec snapshot: https://encoding.spec.whatwg.org/commit-snapshots/a985b62a9b45/
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from ._cjk_common import NUL_CP, ascii_run, malformed

__all__ = [
    "BIG5_PAIRS",
    "decode_big5",
    "decode_gb18030",
    "gb18030_ranges_code_point",
    "gb18030_ranges_pointer",
]

#: Big5 pointers that decode to two code points (Big5 decoder, step 3.6).
BIG5_PAIRS: dict[int, str] = {
    1133: "\u00ca\u0304", 1135: "\u00ca\u030c", 1164: "\u00ea\u0304", 1166: "\u00ea\u030c",
}


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
        b = data[pos]
        if b < 0x80:
            pos = ascii_run(data, pos, one, out)
        elif b == 0x80:
            out.append("\u20ac")
            pos += 1
        elif b == 0xFF or pos + 1 >= n:  # or the end of the queue with gb18030 first set
            pos = malformed(out, errors, pos, pos + 1)
        else:
            b2 = data[pos + 1]
            if 0x30 <= b2 <= 0x39:
                if pos + 2 < n and not 0x81 <= data[pos + 2] <= 0xFE:
                    pos = malformed(out, errors, pos, pos + 1)  # restore « second, byte »
                elif pos + 3 < n and not 0x30 <= data[pos + 3] <= 0x39:
                    pos = malformed(out, errors, pos, pos + 1)  # restore « second, third, byte »
                elif pos + 3 >= n:  # the end of the queue
                    pos = malformed(out, errors, pos, n)
                else:
                    pointer = ((b - 0x81) * 12600 + (b2 - 0x30) * 1260
                               + (data[pos + 2] - 0x81) * 10 + data[pos + 3] - 0x30)
                    cp = gb18030_ranges_code_point(pointer, ranges)
                    if cp is None:
                        pos = malformed(out, errors, pos, pos + 4)
                    else:
                        out.append(chr(cp))
                        pos += 4
            else:
                c = NUL_CP
                if 0x40 <= b2 <= 0x7E or 0x80 <= b2 <= 0xFE:
                    c = index[(b - 0x81) * 190 + b2 - (0x40 if b2 < 0x7F else 0x41)]
                if c != NUL_CP:
                    out.append(c)
                    pos += 2
                else:  # an ASCII byte is restored
                    pos = malformed(out, errors, pos, pos + 1 if b2 < 0x80 else pos + 2)
        if one:
            return pos
    return pos


def decode_big5(
    data: bytes, pos: int, one: bool, out: list[str], errors: list[int], *, index: str
) -> int:
    """Implements Encoding "Big5 decoder": https://encoding.spec.whatwg.org/#big5-decoder"""
    n = len(data)
    while pos < n:
        b = data[pos]
        if b < 0x80:
            pos = ascii_run(data, pos, one, out)
        elif b == 0x80 or b == 0xFF or pos + 1 >= n:  # or a lead byte at the end of the queue
            pos = malformed(out, errors, pos, pos + 1)
        else:
            b2 = data[pos + 1]
            c = NUL_CP
            if 0x40 <= b2 <= 0x7E or 0xA1 <= b2 <= 0xFE:
                pointer = (b - 0x81) * 157 + b2 - (0x40 if b2 < 0x7F else 0x62)
                c = BIG5_PAIRS.get(pointer) or index[pointer]
            if c != NUL_CP:
                out.append(c)
                pos += 2
            else:  # an ASCII byte is restored
                pos = malformed(out, errors, pos, pos + 1 if b2 < 0x80 else pos + 2)
        if one:
            return pos
    return pos

