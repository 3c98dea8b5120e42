"""Decoding bytes exactly as the WHATWG Encoding Standard's decoders do, at C speed where possible.

``decode_strict`` is the standard's "fatal" error mode, ``decode_replace`` its "replacement" mode
(each malformed sequence becomes one U+FFFD, and its byte offset is reported), ``encode_strict``
its encoder in "fatal" mode. ``encoding`` is a canonical WHATWG name in lower case (``labels.py``);
anything else raises ``ValueError``. Bytes never raise, except ``UnicodeDecodeError`` from
``decode_strict`` (``.start`` is the offset of the first malformed sequence, ``.encoding`` the
WHATWG name). Only this module and ``_decoders_cjk.py`` know Python codec names.

``decode_replace`` keeps the offsets of the malformed sequences compactly, in an
``array.array`` of 4-byte unsigned ints (8-byte for data of 4 GiB or more): a page that switches
between UTF-8 and windows-1252 every few bytes has one per 5 bytes, and a tuple of Python ints
costs 36 bytes each (issue 28: about 10.5 bytes of memory per input byte, against about 2.5 now).
It hands the array out read-only (``_offsets.Offsets``: equal to the tuple of its ints).

These are the decoders *without BOM handling*: a byte order mark is not stripped here (it decodes
as U+FEFF); callers sniff and strip it first (``bom.py``, the standard's "decode" algorithm).

How each family is decoded (spec: https://encoding.spec.whatwg.org/commit-snapshots/a985b62a9b45/):

* single-byte (28 encodings, and x-user-defined): ``codecs.charmap_decode`` with a 256-character
  table generated from ``indexes.json`` (``_tables/single_byte.py``); unmapped bytes are
  U+FFFE in the table, so strict mode raises and replacement mode gives U+FFFD. Exact. In
  strict mode, the compiled ``_single_byte_c.SingleByteDecoder`` over the same table where
  built (``single_byte_decoder``; about a third of the time on mostly ASCII pages), with
  ``charmap_decode`` as its reference (``tests/whatwg/test_single_byte_c.py``).
* utf-8, utf-16le, utf-16be: Python's codecs, which match WHATWG (maximal subparts, lone
  surrogates, a truncated final code unit): ``tests/whatwg/test_decoders.py`` checks them against
  the spec's algorithms.
* gbk, gb18030, big5, euc-jp, shift_jis, euc-kr, iso-2022-jp: the compiled WHATWG decoders
  (``_cjk_c.pyx`` through ``_cjk_compiled.py``) where built; otherwise their reference,
  ``_decoders_cjk.py``: Python's codecs with the WHATWG decoders (``_cjk.py``) on their
  errors, or those decoders alone.

No residual difference from WHATWG is known: the tests decode every byte and every pointer of
every index, and check UTF-8, UTF-16 and ISO-2022-JP against the spec's algorithms.

Differences from the Encoding Standard:

=========================  ==================================================================
where                      what and why
=========================  ==================================================================
BOM                        not handled here (see above); the standard's "decode" strips it.
``replacement``            not decoded: ``ValueError``. Callers report its labels instead
                           (``labels.get_encoding_no_replacement``).
``decode_strict``          ``UnicodeDecodeError.end`` is only indicative (the standard says
                           where an error is, not how long it is).
utf-32le, utf-32be         not WHATWG encodings; decoded (Python's codecs) only because
                           ``bom.py`` honours UTF-32 BOMs as seed 000 asks
                           (``BOM_ONLY_ENCODINGS``; no label reaches them).
``encode_strict``          utf-16le / utf-16be: the standard has no encoder; this returns the
                           UTF-16 code units. Every encoder returns ``None`` for a lone
                           surrogate (the standard's encoders take scalar values only).
=========================  ==================================================================
"""

from __future__ import annotations

import codecs
import re
import threading
from array import array
from collections.abc import Mapping, Sequence
from functools import cache
from types import MappingProxyType
from typing import Protocol

from ..speedups import compiled
from ._cjk_compiled import compiled_decoder
from ._decoders_cjk import cjk_encoder, decode_cjk_codec
from ._offsets import Offsets
from ._tables.labels import NAMES
from ._tables.single_byte import TABLES as _SINGLE_BYTE


class SingleByteDecoder(Protocol):
    """``_single_byte_c.SingleByteDecoder``: the single-byte decoder's fatal mode, compiled."""

    def decode_strict(self, data: bytes) -> str | int:
        """The text of ``data`` (exactly ``bytes``), or the offset of its first unmapped
        byte."""

__all__ = ["BOM_ONLY_ENCODINGS", "ESC", "SINGLE_BYTE_ENCODINGS", "SINGLE_BYTE_TABLES",
           "SUPPORTED_ENCODINGS", "decode_replace", "decode_replace_text", "decode_strict",
           "decode_strict_once",
           "decode_utf8_if_few_errors", "decodes_strictly", "encode_strict", "forget_last_calls",
           "offsets_array", "single_byte_decoder"]

#: The legacy single-byte encodings (and x-user-defined): every byte decodes in most of them.
SINGLE_BYTE_ENCODINGS = frozenset(_SINGLE_BYTE)
#: Each single-byte encoding's decoding table (``codecs.charmap_decode``'s: U+FFFE where a
#: byte is unmapped), as ``decode_strict`` decodes with it. Read, never written.
SINGLE_BYTE_TABLES: Mapping[str, str] = MappingProxyType(_SINGLE_BYTE)

_SINGLE_BYTE_C = compiled(f"{__package__}._single_byte_c")
# each single-byte encoding's compiled strict decoder (none where it is not built)
_SINGLE_BYTE_DECODERS: dict[str, SingleByteDecoder] = {} if _SINGLE_BYTE_C is None else {
    encoding: _SINGLE_BYTE_C.SingleByteDecoder(table) for encoding, table in _SINGLE_BYTE.items()}


def single_byte_decoder(encoding: str) -> SingleByteDecoder | None:
    """The compiled strict decoder of single-byte ``encoding`` (``_single_byte_c``), or None
    (not a single-byte encoding, or not built): its ``decode_strict(data)`` gives the text or
    the offset of the first unmapped byte, as ``charmap_decode`` over its table would."""
    return _SINGLE_BYTE_DECODERS.get(encoding)


def _as_bytes(data: bytes) -> bytes:
    """``data`` as exactly ``bytes`` for a compiled decoder: a bytes-like object's bytes (not
    ``bytes(5)``'s five NULs: anything else is a TypeError, as Python's codecs make it)."""
    return data if type(data) is bytes else bytes(memoryview(data))

#: ESC, the byte that starts ISO-2022-JP's escape sequences (its tell in a 7-bit body), as an
#: int: ``ESC in body`` is one memchr, where a one-byte ``bytes`` needle takes ten times as long
#: (192 ns against 20 ns over 1.5 KB, Python 3.11).
ESC = 0x1B

#: Every WHATWG encoding this module decodes (all of them but ``replacement``).
SUPPORTED_ENCODINGS: frozenset[str] = frozenset(NAMES) - {"replacement"}

#: Decoded only after a UTF-32 BOM (a deviation, see the table above); no label names them.
BOM_ONLY_ENCODINGS: frozenset[str] = frozenset({"utf-32le", "utf-32be"})

_UNICODE = {"utf-8": "utf-8", "utf-16le": "utf-16-le", "utf-16be": "utf-16-be",
            "utf-32le": "utf-32-le", "utf-32be": "utf-32-be"}  # UTF-32: deviation, see above
_REPLACE_HANDLER = "encoding_core.whatwg-replace"
#: The last call in this thread of ``decode_strict`` (data, encoding, text, (start, end) or
#: None) and of ``decode_replace`` (data, encoding, its answer)
_last = threading.local()


def _check(encoding: str) -> None:
    if encoding not in SUPPORTED_ENCODINGS:
        raise ValueError(f"not a WHATWG encoding name this module decodes: {encoding!r}")


def _error(encoding: str, data: bytes, start: int, end: int | None = None) -> UnicodeDecodeError:
    end = min(len(data), start + 1) if end is None else end
    return UnicodeDecodeError(encoding, data, start, end, "malformed byte sequence")


def decode_strict(data: bytes, encoding: str) -> str:
    """Implements Encoding "decode" in "fatal" mode, without BOM handling: https://encoding.spec.whatwg.org/#decode

    Raises ``UnicodeDecodeError`` at the first malformed sequence.

    >>> decode_strict(b"caf\\xe9 \\x81", "windows-1252")
    'café \\x81'
    >>> decode_strict(b"\\x80", "gbk")
    '€'

    The last call's outcome is remembered per thread with its ``bytes`` object (immutable:
    the same object decodes the same): a decision asks about the same body and encoding more
    than once (the walk, then the detector's UTF-8 test; the detector's, then the walk's),
    and on a long page each ask is a whole decode. It holds one body and its text per thread
    until the next call, or ``forget_last_calls``.
    """
    last: tuple[bytes, str, str, tuple[int, int] | None] | None = getattr(_last, "strict", None)
    if last is not None and last[0] is data and last[1] == encoding:
        if last[3] is not None:
            raise _error(encoding, data, *last[3])
        return last[2]
    try:
        text = decode_strict_once(data, encoding)
    except UnicodeDecodeError as exc:
        if type(data) is bytes:
            _last.strict = (data, encoding, "", (exc.start, exc.end))
        raise
    if type(data) is bytes:
        _last.strict = (data, encoding, text, None)
    return text


def forget_last_calls() -> None:
    """Let go of what ``decode_strict`` and ``decode_replace`` remember of their last call in
    this thread (a body and its text): ``decision.decode`` calls it when it returns, so no
    page is held after its decision."""
    _last.__dict__.clear()


def decode_strict_once(data: bytes, encoding: str) -> str:
    """``decode_strict`` without remembering the call: for a body asked about once, whose
    caller then has nothing to let go (the trace memo's recalled page, ``decision.tracememo``).

    >>> decode_strict_once(b"caf\\xe9", "windows-1252")
    'café'
    """
    if encoding == "utf-8":   # (the commonest, first)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _error(encoding, data, exc.start, exc.end) from None
    single = _SINGLE_BYTE.get(encoding)
    if single is not None:
        compiled_single = _SINGLE_BYTE_DECODERS.get(encoding)
        if compiled_single is not None:
            found = compiled_single.decode_strict(_as_bytes(data))
            if isinstance(found, int):
                raise _error(encoding, data, found)
            return found
        try:
            return codecs.charmap_decode(data, "strict", single)[0]
        except UnicodeDecodeError as exc:
            raise _error(encoding, data, exc.start) from None
    unicode_codec = _UNICODE.get(encoding)
    if unicode_codec is not None:
        try:
            return data.decode(unicode_codec)
        except UnicodeDecodeError as exc:
            raise _error(encoding, data, exc.start, exc.end) from None
    _check(encoding)
    decoder = compiled_decoder(encoding)
    if decoder is not None:
        found = decoder.decode_strict(_as_bytes(data))
        if isinstance(found, int):
            raise _error(encoding, data, found)
        return found
    text, errors = decode_cjk_codec(data, encoding)
    if errors:
        raise _error(encoding, data, errors[0])
    return text


def decodes_strictly(data: bytes, encoding: str = "utf-8") -> bool:
    """Whether ``data`` decodes in ``encoding`` with no malformed sequence (``decode_strict``).

    >>> decodes_strictly("Zoë".encode()), decodes_strictly("Zoë".encode("cp1252"))
    (True, False)
    """
    try:
        decode_strict(data, encoding)
    except UnicodeDecodeError:
        return False
    return True


def decode_replace(data: bytes, encoding: str) -> tuple[str, Sequence[int]]:
    """Implements Encoding "decode" in "replacement" mode, without BOM handling: https://encoding.spec.whatwg.org/#decode

    Returns the text and the byte offset where each malformed sequence starts, in order, as
    a read-only ``Offsets`` over an ``array.array`` of unsigned ints (``offsets_array``: 4
    bytes an offset, not a tuple's 36), equal to the tuple of those ints.

    >>> text, offsets = decode_replace(b"\\xe2\\x82A \\xff", "utf-8")
    >>> text, offsets == (0, 4)
    ('\\ufffdA \\ufffd', True)
    >>> list(decode_replace(b"\\x81 \\x81", "shift_jis")[1])  # a bad ASCII trail byte stays
    [0, 2]

    Like ``decode_strict``, it remembers its last call per thread (the UTF-8 count of a page
    that is mostly UTF-8, then its lossy reading, are the same decode).
    """
    last: tuple[bytes, str, tuple[str, Sequence[int]]] | None = getattr(_last, "replace", None)
    if last is not None and last[0] is data and last[1] == encoding:
        return last[2]
    return _remember_replace(data, encoding, _decode_replace(data, encoding))


def decode_replace_text(data: bytes, encoding: str) -> str:
    """``decode_replace``'s text alone: no offsets, and the call not remembered. For short
    bytes read in many encodings in turn (a sample's words in every rival encoding), where
    the offsets' array and the memo were most of a call (0.5 against 1.4 us).

    >>> decode_replace_text(b"caf\\xe9 \\x81", "windows-1250")
    'café \\x81'
    >>> decode_replace_text(b"\\x81", "gbk")
    '\\ufffd'
    """
    single = _SINGLE_BYTE.get(encoding)
    if single is not None:   # (the text ``_decode_replace`` gives, before its offsets)
        return codecs.charmap_decode(data, "replace", single)[0]
    return _decode_replace(data, encoding)[0]


def offsets_array(size: int) -> array[int]:
    """An empty array for the offsets into ``size`` bytes: 4-byte unsigned ints below 4 GiB.

    >>> offsets_array(10).itemsize, offsets_array(1 << 32).itemsize
    (4, 8)
    """
    return array("I" if size < 1 << 32 and array("I").itemsize == 4 else "Q")


def _remember_replace(data: bytes, encoding: str, decoded: tuple[str, array[int]]
                      ) -> tuple[str, Sequence[int]]:
    found = (decoded[0], Offsets(decoded[1]))   # read-only: handed out again
    if type(data) is bytes:  # (immutable: the same object has the same answer)
        _last.replace = (data, encoding, found)
    return found


def _decode_replace(data: bytes, encoding: str) -> tuple[str, array[int]]:
    single = _SINGLE_BYTE.get(encoding)
    if single is not None:
        text = codecs.charmap_decode(data, "replace", single)[0]
        offsets = offsets_array(len(data))
        if "\ufffd" in text:  # no index maps a byte to U+FFFD
            offsets.extend(m.start() for m in re.finditer("\ufffd", text))
        return text, offsets
    unicode_codec = _UNICODE.get(encoding)
    if unicode_codec is not None:
        found = _unicode_replace(data, unicode_codec)
        assert found is not None   # (no cap: never stopped)
        return found
    _check(encoding)
    offsets = offsets_array(len(data))
    decoder = compiled_decoder(encoding)
    if decoder is not None:
        return decoder.decode(_as_bytes(data), offsets), offsets
    text, errors = decode_cjk_codec(data, encoding)
    offsets.extend(errors)
    return text, offsets


def decode_utf8_if_few_errors(data: bytes, max_errors: int) -> tuple[str, Sequence[int]] | None:
    """``decode_replace(data, "utf-8")``, or None as soon as it meets more than ``max_errors``
    malformed sequences (the decode stops there: a legacy page read as UTF-8 has one per
    letter). A whole answer is remembered as ``decode_replace``'s last call.

    >>> few = decode_utf8_if_few_errors
    >>> found = few(b"caf\\xe9 \\xc3\\xa9", 1)
    >>> found is not None and (found[0], list(found[1]))
    ('caf\\ufffd é', [3])
    >>> few(b"\\xe9\\xe9", 1) is None
    True
    """
    found = _unicode_replace(data, "utf-8", max_errors)
    return None if found is None else _remember_replace(data, "utf-8", found)


def _unicode_replace(data: bytes, codec: str, most: int | None = None
                     ) -> tuple[str, array[int]] | None:
    """UTF-8/16/32 replacement mode through Python's ``codec``, recording where each error
    starts (``_on_unicode_error``) straight into an ``offsets_array``; None when there are
    more than ``most`` errors."""
    offsets = offsets_array(len(data))
    _local.offsets, _local.most = offsets, most
    try:
        text = data.decode(codec, _REPLACE_HANDLER)
    except _TooManyErrors:
        return None
    finally:
        _local.offsets = _local.most = None
    return text, offsets


def encode_strict(text: str, encoding: str) -> bytes | None:
    """Implements Encoding "encode" in "fatal" mode: https://encoding.spec.whatwg.org/#encode

    ``None`` when some character has no bytes in ``encoding``.

    >>> encode_strict("café €", "windows-1252")
    b'caf\\xe9 \\x80'
    >>> encode_strict("€", "windows-1250")
    b'\\x80'
    >>> encode_strict("€", "iso-8859-5") is None
    True
    >>> encode_strict("中文", "gbk")
    b'\\xd6\\xd0\\xce\\xc4'
    """
    single = _SINGLE_BYTE.get(encoding)
    try:
        if single is not None:
            if "\ufffe" in text:  # the table's marker for unmapped bytes
                return None
            return codecs.charmap_encode(text, "strict", _encoding_map(encoding))[0]
        unicode_codec = _UNICODE.get(encoding)
        if unicode_codec is not None:
            return text.encode(unicode_codec)
    except UnicodeEncodeError:
        return None
    _check(encoding)
    if text.isascii() and encoding != "iso-2022-jp":
        return text.encode("ascii")
    return cjk_encoder(encoding)(text)


@cache
def _encoding_map(encoding: str) -> dict[int, int]:
    table = _SINGLE_BYTE[encoding]
    mapping: dict[int, int] = {}
    for byte, char in enumerate(table):
        if char != "\ufffe":
            mapping.setdefault(ord(char), byte)
    return mapping


# --- UTF-8/16/32 replacement mode: Python's codec, recording where each error starts ----------

_local = threading.local()


class _TooManyErrors(Exception):
    """Raised by the error handler to stop ``decode_utf8_if_few_errors``."""


def _on_unicode_error(exc: UnicodeError) -> tuple[str, int]:
    """UTF-8/16 replacement mode: Python's error spans are WHATWG's malformed sequences."""
    offsets: array[int] | None = getattr(_local, "offsets", None)
    if not isinstance(exc, UnicodeDecodeError) or offsets is None:
        raise exc
    most: int | None = getattr(_local, "most", None)
    if most is not None and len(offsets) >= most:
        raise _TooManyErrors
    offsets.append(exc.start)
    return "\ufffd", exc.end


codecs.register_error(_REPLACE_HANDLER, _on_unicode_error)
