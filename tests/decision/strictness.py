"""The ``strict`` callable the detector's rules take, for tests: whether ``data`` decodes
strictly in an encoding (``detect._StrictCache`` without its cache)."""

from __future__ import annotations

from collections.abc import Callable

from encoding_core.whatwg.decoders import decode_strict


def strict_of(data: bytes) -> Callable[[str], bool]:
    def strict(encoding: str) -> bool:
        try:
            decode_strict(data, encoding)
        except UnicodeDecodeError:
            return False
        return True
    return strict
