"""Pure-Python WHATWG encoders for the multi-byte (CJK) encodings, and pointer byte formulas.

Each encoder follows its Encoding Standard algorithm in "fatal" mode: ``None`` as soon as a
character has no bytes (a lone surrogate never has). The index tables come in as strings, one
character per pointer (``_cjk.NUL_CP`` where the index has no code point); the reverse maps are
built by ``index_pointers`` and ``big5_pointers``.

Spec snapshot: https://encoding.spec.whatwg.org/commit-snapshots/a985b62a9b45/
"""

from __future__ import annotations

from collections.abc import Sequence

from ._cjk_chinese import gb18030_ranges_pointer
from ._cjk_common import NUL_CP

__all__ = [
    "big5_pointer_bytes",
    "big5_pointers",
    "encode_big5",
    "encode_euc_jp",
    "encode_euc_kr",
    "encode_gb18030",
    "encode_iso_2022_jp",
    "encode_shift_jis",
    "euc_jp_pointer_bytes",
    "euc_kr_pointer_bytes",
    "gb18030_pointer_bytes",
    "index_pointers",
    "shift_jis_pointer_bytes",
]

def gb18030_pointer_bytes(pointer: int) -> bytes:
    """The two bytes of index gb18030 ``pointer`` (gb18030 encoder, step 7)."""
    trailing = pointer % 190
    return bytes((pointer // 190 + 0x81, trailing + (0x40 if trailing < 0x3F else 0x41)))


def big5_pointer_bytes(pointer: int) -> bytes:
    """The two bytes of index Big5 ``pointer`` (Big5 encoder, steps 5-8)."""
    trailing = pointer % 157
    return bytes((pointer // 157 + 0x81, trailing + (0x40 if trailing < 0x3F else 0x62)))


def shift_jis_pointer_bytes(pointer: int) -> bytes:
    """The two bytes of index jis0208 ``pointer`` in Shift_JIS (Shift_JIS encoder, steps 9-13)."""
    leading, trailing = divmod(pointer, 188)
    return bytes((leading + (0x81 if leading < 0x1F else 0xC1),
                  trailing + (0x40 if trailing < 0x3F else 0x41)))


def euc_jp_pointer_bytes(pointer: int) -> bytes:
    """The two bytes of index jis0208 (or jis0212) ``pointer`` < 8836 in EUC-JP."""
    return bytes((pointer // 94 + 0xA1, pointer % 94 + 0xA1))


def euc_kr_pointer_bytes(pointer: int) -> bytes:
    """The two bytes of index EUC-KR ``pointer`` (EUC-KR encoder, steps 5-7)."""
    return bytes((pointer // 190 + 0x81, pointer % 190 + 0x41))


def index_pointers(index: str, skip: range | None = None) -> dict[str, int]:
    """Implements Encoding "index pointer" for every code point: the first pointer of each."""
    pointers: dict[str, int] = {}
    for pointer, char in enumerate(index):
        if char != NUL_CP and (skip is None or pointer not in skip):
            pointers.setdefault(char, pointer)
    return pointers


def big5_pointers(index: str) -> dict[str, int]:
    """Implements Encoding "index Big5 pointer" for every code point: https://encoding.spec.whatwg.org/#index-big5-pointer"""
    first = (0xA1 - 0x81) * 157  # no HKSCS extensions
    pointers = index_pointers(index, skip=range(first))
    for char in "\u2550\u255e\u2561\u256a\u5341\u5345":  # the last pointer for these
        pointers[char] = index.rindex(char)
    return pointers


# gb18030 encoder, step 5: Private Use code points that GB18030-2005 encoded as two bytes
_GB18030_PUA = dict(zip(
    "\ue78d\ue78e\ue78f\ue790\ue791\ue792\ue793\ue794\ue795\ue796"
    "\ue81e\ue826\ue82b\ue82c\ue832\ue843\ue854\ue864",
    (b"\xa6\xd9", b"\xa6\xda", b"\xa6\xdb", b"\xa6\xdc", b"\xa6\xdd", b"\xa6\xde", b"\xa6\xdf",
     b"\xa6\xec", b"\xa6\xed", b"\xa6\xf3", b"\xfe\x59", b"\xfe\x61", b"\xfe\x66", b"\xfe\x67",
     b"\xfe\x6d", b"\xfe\x7e", b"\xfe\x90", b"\xfe\xa0"),
    strict=True,
))


def _is_surrogate(char: str) -> bool:
    return "\ud800" <= char <= "\udfff"


def encode_gb18030(
    text: str, pointers: dict[str, int], ranges: tuple[Sequence[int], Sequence[int]], is_gbk: bool
) -> bytes | None:
    """Implements Encoding "gb18030 encoder" (and GBK's): https://encoding.spec.whatwg.org/#gb18030-encoder"""
    out = bytearray()
    for char in text:
        if char < "\x80":
            out.append(ord(char))
        elif char == "\ue5e5" or _is_surrogate(char):
            return None
        elif is_gbk and char == "\u20ac":
            out.append(0x80)
        elif char in _GB18030_PUA:
            out += _GB18030_PUA[char]
        elif char in pointers:
            out += gb18030_pointer_bytes(pointers[char])
        elif is_gbk:
            return None
        else:
            pointer = gb18030_ranges_pointer(ord(char), ranges)
            b1, pointer = divmod(pointer, 12600)
            b2, pointer = divmod(pointer, 1260)
            b3, b4 = divmod(pointer, 10)
            out += bytes((b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30))
    return bytes(out)


def encode_big5(text: str, pointers: dict[str, int]) -> bytes | None:
    """Implements Encoding "Big5 encoder": https://encoding.spec.whatwg.org/#big5-encoder"""
    out = bytearray()
    for char in text:
        if char < "\x80":
            out.append(ord(char))
        elif char in pointers:
            out += big5_pointer_bytes(pointers[char])
        else:
            return None
    return bytes(out)


def _jis_common(char: str) -> str:
    return "\uff0d" if char == "\u2212" else char


def encode_euc_jp(text: str, pointers: dict[str, int]) -> bytes | None:
    """Implements Encoding "EUC-JP encoder": https://encoding.spec.whatwg.org/#euc-jp-encoder"""
    out = bytearray()
    for char in text:
        if char < "\x80":
            out.append(ord(char))
        elif char == "\xa5":
            out.append(0x5C)
        elif char == "\u203e":
            out.append(0x7E)
        elif "\uff61" <= char <= "\uff9f":
            out += bytes((0x8E, ord(char) - 0xFF61 + 0xA1))
        elif _jis_common(char) in pointers:
            out += euc_jp_pointer_bytes(pointers[_jis_common(char)])
        else:
            return None
    return bytes(out)


def encode_shift_jis(text: str, pointers: dict[str, int]) -> bytes | None:
    """Implements Encoding "Shift_JIS encoder": https://encoding.spec.whatwg.org/#shift_jis-encoder

    ``pointers`` is "index Shift_JIS pointer" (index jis0208 without pointers 8272-8835).
    """
    out = bytearray()
    for char in text:
        if char <= "\x80":
            out.append(ord(char))
        elif char == "\xa5":
            out.append(0x5C)
        elif char == "\u203e":
            out.append(0x7E)
        elif "\uff61" <= char <= "\uff9f":
            out.append(ord(char) - 0xFF61 + 0xA1)
        elif _jis_common(char) in pointers:
            out += shift_jis_pointer_bytes(pointers[_jis_common(char)])
        else:
            return None
    return bytes(out)


def encode_euc_kr(text: str, pointers: dict[str, int]) -> bytes | None:
    """Implements Encoding "EUC-KR encoder": https://encoding.spec.whatwg.org/#euc-kr-encoder"""
    out = bytearray()
    for char in text:
        if char < "\x80":
            out.append(ord(char))
        elif char in pointers:
            out += euc_kr_pointer_bytes(pointers[char])
        else:
            return None
    return bytes(out)


def encode_iso_2022_jp(text: str, pointers: dict[str, int], katakana: str) -> bytes | None:
    """Implements Encoding "ISO-2022-JP encoder": https://encoding.spec.whatwg.org/#iso-2022-jp-encoder

    ``katakana`` is index ISO-2022-JP katakana as a string.
    """
    out = bytearray()
    state = "ascii"  # or "roman", or "jis0208"
    for char in text:
        if char in "\x0e\x0f\x1b":  # an error in every state (step 3, after step 6 in jis0208)
            return None
        if char < "\x80" and (state == "ascii" or char not in "\\~"):
            if state == "jis0208":
                out += b"\x1b(B"
                state = "ascii"
            out.append(ord(char))
            continue
        if char < "\x80":  # "\\" or "~" in the Roman or jis0208 state
            out += b"\x1b(B"
            state = "ascii"
            out.append(ord(char))
            continue
        if char in "\xa5\u203e":
            if state != "roman":
                out += b"\x1b(J"
                state = "roman"
            out.append(0x5C if char == "\xa5" else 0x7E)
            continue
        char = _jis_common(char)
        if "\uff61" <= char <= "\uff9f":
            char = katakana[ord(char) - 0xFF61]
        pointer = pointers.get(char)
        if pointer is None:
            return None
        if state != "jis0208":
            out += b"\x1b$B"
            state = "jis0208"
        out += bytes((pointer // 94 + 0x21, pointer % 94 + 0x21))
    if state != "ascii":
        out += b"\x1b(B"
    return bytes(out)
