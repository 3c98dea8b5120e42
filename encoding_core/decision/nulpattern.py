"""UTF-16 and UTF-32 without a byte-order mark, told by where the NUL bytes are.

Text that is mostly ASCII (every HTML page: its markup) has a NUL beside every character in
UTF-16 (``<\\x00h\\x00``: at odd offsets in UTF-16LE, even ones in UTF-16BE) and three in
UTF-32. Exports from Windows tools and misconfigured servers send such bodies without a BOM;
every NUL is valid UTF-8 and valid windows-1252, so without this check they decode "strictly"
into NUL-riddled text, silently.

``nul_pattern`` counts the NUL bytes at each offset modulo 4 in the first 4 KiB (C-speed
slice counts). It errs towards silence: a pattern counts only when at least 60 % of the code
units hold it, the other positions are almost never NUL (at most 5 %), there are 16 units or
more, and the reading has almost no control characters. Text in one other alphabet (Greek,
Cyrillic, Hebrew, Arabic, Thai...) is found too: its letters share one high byte and the
markup the NUL, so the high bytes take two values (at least 5 % each) while the low ones
vary. A CJK text in UTF-16 (high bytes of every value) is not found; nor is binary data.

Browsers do not sniff this (the Encoding Standard's BOM sniff needs the BOM): they decode it
as the header, the ``<meta>`` or their default says, and show the NULs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..whatwg.decoders import decode_replace

__all__ = ["NulPattern", "nul_pattern"]

_HEAD = 4096
_MIN_UNITS = 16
_HOLDS = 0.6      # of the code units, at least this share shows the pattern
_ELSEWHERE = 0.05  # NUL at the pattern's other positions: at most this share
_CONTROLS = frozenset(range(0x20)) - {0x09, 0x0A, 0x0C, 0x0D}


@dataclass(frozen=True, slots=True)
class NulPattern:
    """Where a body's NUL bytes say it is UTF-16 or UTF-32 text without a BOM."""

    encoding: str     # utf-16le, utf-16be, utf-32le or utf-32be
    units: int        # code units looked at (in the first 4 KiB)
    share: float      # of those, the share with the pattern's NUL bytes

    def describe(self) -> str:
        """The finding in words, for a conflict or the trace."""
        which = {"utf-16le": "every odd byte", "utf-16be": "every even byte",
                 "utf-32le": "the last three bytes of every four",
                 "utf-32be": "the first three bytes of every four"}[self.encoding]
        return (f"{which} is NUL in {self.share:.0%} of the first {self.units:,} code units: "
                f"{self.encoding.upper()} text without a byte-order mark")


def nul_pattern(body: bytes) -> NulPattern | None:
    """The UTF-16 or UTF-32 byte order the NUL bytes of ``body`` show, or None.

    >>> nul_pattern("<html><body>Hello, world</body></html>".encode("utf-16-le")).encoding
    'utf-16le'
    >>> nul_pattern("<p>Grüße aus Köln, schöne Grüße</p>".encode("utf-32-be")).encoding
    'utf-32be'
    >>> nul_pattern(b"<html><body>Hello, world</body></html>") is None
    True
    """
    head = body[:_HEAD - _HEAD % 4] if len(body) >= _HEAD else body[:len(body) - len(body) % 4]
    quads = len(head) // 4
    if quads * 2 < _MIN_UNITS:
        return None
    nul = [head[i::4].count(0) for i in range(4)]
    found = _wide32(nul, quads) or _wide16(nul, quads, head)
    if found is None:
        return None
    text = decode_replace(head, found.encoding)[0]
    if sum(ord(ch) in _CONTROLS for ch in text) > _ELSEWHERE * max(len(text), 1):
        return None  # NUL or control characters in the reading: data, not text
    return found


def _wide32(nul: list[int], quads: int) -> NulPattern | None:
    if quads < _MIN_UNITS:
        return None
    # BMP characters have NUL in their two high bytes; ASCII in the third as well
    for encoding, high, low in (("utf-32le", (2, 3), 0), ("utf-32be", (0, 1), 3)):
        if (all(nul[i] >= (1 - _ELSEWHERE) * quads for i in high)
                and nul[low] <= _ELSEWHERE * quads):
            return NulPattern(encoding, quads, min(nul[i] for i in high) / quads)
    return None


def _wide16(nul: list[int], quads: int, head: bytes) -> NulPattern | None:
    units = 2 * quads
    even, odd = nul[0] + nul[2], nul[1] + nul[3]
    if odd >= _HOLDS * units and even <= _ELSEWHERE * units:
        return NulPattern("utf-16le", units, odd / units)
    if even >= _HOLDS * units and odd <= _ELSEWHERE * units:
        return NulPattern("utf-16be", units, even / units)
    # An alphabet other than Latin (Greek, Cyrillic, Hebrew, Arabic, Thai...): its letters
    # share one high byte (04 for Cyrillic), the markup's the NUL, so the high bytes take two
    # values while the low bytes vary.
    for encoding, high, low in (("utf-16le", head[1::2], head[0::2]),
                                ("utf-16be", head[0::2], head[1::2])):
        top = Counter(high).most_common(2)
        if (len(top) == 2 and {top[0][0], top[1][0]} & {0}
                and 0 < max(top[0][0], top[1][0]) < 0x30
                and top[0][1] + top[1][1] >= (1 - _ELSEWHERE) * units
                and min(top[0][1], top[1][1]) >= _ELSEWHERE * units
                and len(set(low)) >= _MIN_UNITS):
            return NulPattern(encoding, units, (top[0][1] + top[1][1]) / units)
    return None
