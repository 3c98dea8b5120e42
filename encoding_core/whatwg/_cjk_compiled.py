"""The compiled WHATWG multi-byte decoders (``_cjk_c.pyx``), loaded with their index tables.

``decoders.py`` decodes gbk, gb18030, big5, euc-jp, iso-2022-jp, shift_jis and euc-kr with
``compiled_decoder(encoding)`` when the extension is built (``encoding_core.speedups``), and
otherwise with the reference, ``_decoders_cjk.decode_cjk_codec``; ``tests/whatwg/test_cjk_c.py``
holds the two equal. Each decoder's tables are built on its first use, once: the index strings
of the reference (``_decoders_cjk._index``: the generated ``_tables/cjk.py`` applied to Python's
codec, about 20 ms an index) as arrays of 4-byte code points (one ``str.encode`` each).

Spec snapshot: https://encoding.spec.whatwg.org/commit-snapshots/a985b62a9b45/
"""

from __future__ import annotations

import sys
from array import array
from functools import cache
from typing import Protocol

from ..speedups import compiled
from . import _decoders_cjk

__all__ = ["CJK_C", "Decoder", "compiled_decoder"]


class Decoder(Protocol):
    """``_cjk_c.Decoder``: one WHATWG multi-byte decoder over its tables (``_cjk_c.pyi``)."""

    def decode(self, data: bytes, offsets: array[int]) -> str:
        """Replacement mode: the text; each error's offset appended to ``offsets``."""

    def decode_strict(self, data: bytes) -> str | int:
        """Fatal mode: the text, or the offset of the first malformed sequence."""

#: The extension module, or None (not built, or ``ENCODING_TRIAGE_PURE=1``).
CJK_C = compiled(f"{__package__}._cjk_c")

_UTF32 = "utf-32-le" if sys.byteorder == "little" else "utf-32-be"
# each decoder's index (and EUC-JP's second one), by ``_decoders_cjk._index`` name
_INDEXES = {"gbk": ("gb18030", None), "gb18030": ("gb18030", None), "big5": ("big5", None),
            "euc-jp": ("jis0208", "jis0212"), "iso-2022-jp": ("jis0208", None),
            "shift_jis": ("jis0208", None), "euc-kr": ("euc-kr", None)}


def _code_points(values: str | tuple[int, ...]) -> array[int]:
    """An array of 4-byte unsigned code points (a string's, one per character)."""
    table = array("I")
    if isinstance(values, str):
        table.frombytes(values.encode(_UTF32))
    else:
        table.extend(values)
    return table


@cache
def _index_array(name: str) -> array[int]:
    return _code_points(_decoders_cjk._index(name))


@cache
def compiled_decoder(encoding: str) -> Decoder | None:
    """The compiled decoder of the multi-byte ``encoding``, its tables built; None when the
    extension is not in use (or ``encoding`` is not multi-byte)."""
    if CJK_C is None or encoding not in _INDEXES or array("I").itemsize != 4:
        return None
    first, second = _INDEXES[encoding]
    if first == "gb18030":
        pointers, code_points = _decoders_cjk._gb18030_ranges()
        decoder: Decoder = CJK_C.Decoder(encoding, _index_array(first), None,
                                         _code_points(pointers), _code_points(code_points))
    else:
        decoder = CJK_C.Decoder(encoding, _index_array(first),
                                None if second is None else _index_array(second))
    return decoder
