"""Byte-order marks.

Differences from the Encoding Standard:

==============  =====================================================================
where           what and why
==============  =====================================================================
``bom_sniff``   also recognises UTF-32LE (FF FE 00 00) and UTF-32BE (00 00 FE FF),
                checked before UTF-16, because seed 000 lists them. WHATWG has no
                UTF-32: a browser reads FF FE 00 00 as a UTF-16LE BOM followed by
                U+0000. ``browser_bom_sniff`` is the standard's algorithm, unchanged.
==============  =====================================================================
"""

from __future__ import annotations

__all__ = ["BOM_FIRST_BYTES", "bom_sniff", "browser_bom_sniff"]

# The Encoding Standard's three BOMs, in its order.
_WHATWG_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xfe\xff", "utf-16be"),
    (b"\xff\xfe", "utf-16le"),
)
# Deviation (see the module docstring): UTF-32 first, as seed 000 does.
_SEED_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xfe\x00\x00", "utf-32le"),
    (b"\x00\x00\xfe\xff", "utf-32be"),
    *_WHATWG_BOMS,
)


def browser_bom_sniff(data: bytes) -> tuple[str, int] | None:
    """Implements Encoding "BOM sniff": https://encoding.spec.whatwg.org/#bom-sniff

    Returns the encoding and the BOM's length in bytes, or ``None``.

    >>> browser_bom_sniff(b"\\xff\\xfe\\x00\\x00")
    ('utf-16le', 2)
    """
    for bom, encoding in _WHATWG_BOMS:
        if data.startswith(bom):
            return encoding, len(bom)
    return None


#: The first byte of every BOM ``bom_sniff`` knows: a body starting with none of them has none.
#: (A tuple, not a set: a ``bytearray``'s slice is compared, never hashed.)
BOM_FIRST_BYTES = (b"\xef", b"\xfe", b"\xff", b"\x00")


def bom_sniff(data: bytes) -> tuple[str, int] | None:
    """"BOM sniff", plus UTF-32 (a documented deviation); the encoding and the BOM's length.

    >>> bom_sniff(b"\\xef\\xbb\\xbfcaf\\xc3\\xa9")
    ('utf-8', 3)
    >>> bom_sniff(b"\\xff\\xfe\\x00\\x00<\\x00\\x00\\x00")
    ('utf-32le', 4)
    >>> bom_sniff(b"<html>") is None
    True
    """
    if data[:1] not in BOM_FIRST_BYTES:
        return None
    for bom, encoding in _SEED_BOMS:
        if data.startswith(bom):
            return encoding, len(bom)
    return None
