"""Python codec names for decisions: so a client that re-decodes gets the decision's text.

requests' ``Response.text`` decodes ``content`` with ``str(content, r.encoding, "replace")``
and httpx's with ``codecs.getincrementaldecoder(r.encoding)``: Python's codecs, not the
WHATWG decoders the decision used. They differ: Python's ``cp1252`` leaves 0x81, 0x8D, 0x8F,
0x90 and 0x9D undefined (U+FFFD) where the Encoding Standard maps them to C1 controls;
Python's ``big5``, ``euc_kr``, ``shift_jis`` and ``gbk`` tables differ from the standard's
indexes; ``windows-874``, ``x-mac-cyrillic``, ``iso-8859-8-i`` and ``x-user-defined`` are
not Python codecs at all; and a lossy decision may count U+FFFD differently.

So the hooks set ``r.encoding`` to ``codec_name(decision)``, ``x-encoding-triage-<WHATWG
name>``: a codec this module registers (``codecs.register``, once) whose decoder is the
decision's own (``decision.attempt.decode_as``: the WHATWG decoder, a byte-order mark of
that encoding skipped, strict and else with replacement). Re-decoding the same bytes with
it gives the decision's text exactly. Its encoder is the WHATWG encoder (``encode_strict``)
in strict mode; other error handlers raise as strict does.

>>> import codecs
>>> b"\\x81\\x93q\\x94".decode(codec_name("windows-1252"))
'\\x81“q”'
>>> codecs.lookup("x-encoding-triage-gbk").name
'x-encoding-triage-gbk'
"""

from __future__ import annotations

import codecs
import threading
from typing import TYPE_CHECKING

from ..decision.attempt import decode_as
from ..whatwg.decoders import BOM_ONLY_ENCODINGS, SUPPORTED_ENCODINGS, encode_strict

if TYPE_CHECKING:
    from typing_extensions import Buffer  # collections.abc.Buffer from Python 3.12

__all__ = ["PREFIX", "codec_name"]

#: The prefix of the codecs registered here.
PREFIX = "x-encoding-triage-"

# codecs.lookup hands search functions the name lower-cased, hyphens and spaces as "_"
_BY_KEY = {(PREFIX + name).replace("-", "_"): name
           for name in SUPPORTED_ENCODINGS | BOM_ONLY_ENCODINGS}
_REGISTERED = threading.Event()
_LOCK = threading.Lock()


def codec_name(encoding: str) -> str:
    """The Python codec that decodes like the decision did in WHATWG ``encoding``."""
    if not _REGISTERED.is_set():
        with _LOCK:
            if not _REGISTERED.is_set():
                codecs.register(_search)
                _REGISTERED.set()
    if encoding not in SUPPORTED_ENCODINGS | BOM_ONLY_ENCODINGS:
        raise ValueError(f"{encoding!r} is not a WHATWG encoding this project decodes")
    return PREFIX + encoding


def _search(key: str) -> codecs.CodecInfo | None:
    """The codec search function (``codecs.register``): only this module's names."""
    encoding = _BY_KEY.get(key.replace("-", "_"))
    if encoding is None:
        return None

    def decode(data: Buffer, errors: str = "strict", /) -> tuple[str, int]:
        raw = bytes(data)
        attempt = decode_as(raw, encoding)
        if errors == "strict" and not attempt.strict_ok:
            start = attempt.error_offset or 0
            raise UnicodeDecodeError(PREFIX + encoding, raw, start, start + 1,
                                     "not valid in this encoding")
        return attempt.text, len(raw)

    def encode(text: str, errors: str = "strict", /) -> tuple[bytes, int]:
        found = encode_strict(text, encoding)
        if found is None:
            raise UnicodeEncodeError(PREFIX + encoding, text, 0, len(text),
                                     "a character has no bytes in this encoding")
        return found, len(text)

    class IncrementalDecoder(codecs.BufferedIncrementalDecoder):
        """Keeps every byte until the last: the decision is over the whole body."""

        def _buffer_decode(self, data: Buffer, errors: str, final: bool) -> tuple[str, int]:
            return decode(data, errors) if final else ("", 0)

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def encode(self, text: str, final: bool = False) -> bytes:
            return encode(text, self.errors)[0]

    return codecs.CodecInfo(encode, decode, name=PREFIX + encoding,
                            incrementaldecoder=IncrementalDecoder,
                            incrementalencoder=IncrementalEncoder)
