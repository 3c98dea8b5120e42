"""Pure-Python WHATWG decoders for the multi-byte (CJK) encodings, re-exported in one place.

This is the slow, exact path behind ``decoders.py``: each decoder follows its Encoding Standard
algorithm step by step. ``_decoders_cjk.py`` runs Python's C codecs first and calls these decoders
only for the byte sequences where those codecs fail or disagree with WHATWG. Encoders are in
``_cjk_encode.py``. Where built, the compiled decoders (``_cjk_c.pyx``) answer instead: the
same algorithms in C, tested equal to this path (``tests/whatwg/test_cjk_c.py``).

* ``_cjk_common.py``: the decoders' calling convention, ``NUL_CP`` and the shared helpers.
* ``_cjk_chinese.py``: gb18030 (and GBK), Big5, and the index gb18030 ranges lookups.
* ``_cjk_japanese_korean.py``: EUC-JP, Shift_JIS, EUC-KR, ISO-2022-JP.

Spec snapshot: https://encoding.spec.whatwg.org/commit-snapshots/a985b62a9b45/
"""

from __future__ import annotations

from ._cjk_chinese import (
    BIG5_PAIRS,
    decode_big5,
    decode_gb18030,
    gb18030_ranges_code_point,
    gb18030_ranges_pointer,
)
from ._cjk_common import NUL_CP
from ._cjk_japanese_korean import (
    decode_euc_jp,
    decode_euc_kr,
    decode_iso_2022_jp,
    decode_shift_jis,
)

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
