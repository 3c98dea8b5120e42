"""The tools measured side by side, each behind the same two small interfaces.

- a *decoder* takes a body and returns text (what a user of that library gets);
- a *detector* takes a body and returns an encoding name in that library's own spelling
  (or None), which ``text_for`` turns into text the same way for every tool: the WHATWG
  decoder for the WHATWG encoding the name means, else Python's codec, with replacement.

Each library is used the way its documentation suggests for HTML, with default settings.
"""

from __future__ import annotations

import codecs
import logging
from collections.abc import Callable

from encoding_core import decode
from encoding_core.decision.detect import default_detector, whatwg_name
from encoding_core.whatwg.decoders import decode_replace

# UnicodeDammit logs a warning for every lossy decode; the tables say what matters.
logging.getLogger("bs4").setLevel(logging.ERROR)

Decoder = Callable[[bytes], str]
NameDetector = Callable[[bytes], str | None]


def _ours_decode(body: bytes) -> str:
    return decode(body).text


def _w3lib_decode(body: bytes) -> str:
    from w3lib.encoding import html_to_unicode

    return str(html_to_unicode(None, body)[1])


def _dammit_decode(body: bytes) -> str:
    from bs4 import UnicodeDammit

    return str(UnicodeDammit(body, is_html=True).unicode_markup or "")


def _cn_decode(body: bytes) -> str:
    from charset_normalizer import from_bytes

    best = from_bytes(body).best()
    return str(best) if best is not None else body.decode("utf-8", "replace")


def _resiliparse_decode(body: bytes) -> str:
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding

    return str(bytes_to_str(body, detect_encoding(body, from_html_meta=True)))


#: Decoders timed for throughput, in table order.
DECODERS: dict[str, Decoder] = {
    "encoding_core.decode": _ours_decode,
    "w3lib html_to_unicode": _w3lib_decode,
    "bs4 UnicodeDammit": _dammit_decode,
    "charset-normalizer": _cn_decode,
    "resiliparse": _resiliparse_decode,
}


def _ours_detect(body: bytes) -> str | None:
    found = default_detector(body)
    return found.encoding if found is not None else None


def _ours_detect_tail_ok(body: bytes) -> str | None:
    found = default_detector(body, allow_truncated_tail=True)
    return found.encoding if found is not None else None


def _cn_detect(body: bytes) -> str | None:
    from charset_normalizer import from_bytes

    best = from_bytes(body).best()
    return str(best.encoding) if best is not None else None


def _resiliparse_detect(body: bytes) -> str | None:
    from resiliparse.parse.encoding import detect_encoding

    return str(detect_encoding(body))


def _dammit_detect(body: bytes) -> str | None:
    from bs4 import UnicodeDammit

    found = UnicodeDammit(body, is_html=True).original_encoding
    return str(found) if found else None


def _chardet_detect(body: bytes) -> str | None:
    import chardet

    found = chardet.detect(body)["encoding"]
    return str(found) if found else None


def _chardetng_detect(body: bytes) -> str | None:
    from chardetng_py import detect  # Firefox's detector, over the whole body

    return str(detect(body, allow_utf8=True))


#: Detectors scored for accuracy, in table order ("decode()" is scored on its text).
DETECTORS: dict[str, NameDetector] = {
    "default_detector": _ours_detect,
    "  allow_truncated_tail": _ours_detect_tail_ok,
    "charset-normalizer": _cn_detect,
    "resiliparse": _resiliparse_detect,
    "bs4 UnicodeDammit": _dammit_detect,
    "chardet": _chardet_detect,
    "chardetng (Firefox)": _chardetng_detect,
}
#: The peers the target compares against (best of these).
TARGET_PEERS = ("charset-normalizer", "resiliparse", "bs4 UnicodeDammit")


def text_for(body: bytes, name: str | None) -> str | None:
    """The text ``body`` decodes to under a detector's answer; None for no usable answer."""
    if name is None:
        return None
    encoding = whatwg_name(name, body)
    if encoding is not None:
        text = decode_replace(body, encoding)[0]
    else:
        try:
            text = codecs.decode(body, name, "replace")
        except LookupError:
            return None
    return text.removeprefix("\ufeff")


def _charset(content_type: str | None) -> str | None:
    from w3lib.encoding import http_content_type_encoding

    return http_content_type_encoding(content_type) if content_type else None


def _w3lib_served(body: bytes, content_type: str | None) -> str:
    from w3lib.encoding import html_to_unicode

    return str(html_to_unicode(content_type, body)[1])


def _dammit_served(body: bytes, content_type: str | None) -> str:
    from bs4 import UnicodeDammit

    charset = _charset(content_type)  # tried first, as bs4 does with a response's charset
    return str(UnicodeDammit(body, [charset] if charset else [], is_html=True).unicode_markup
               or "")


def _cn_served(body: bytes, _content_type: str | None) -> str:
    return _cn_decode(body)  # charset-normalizer takes no header: its answer alone


def _resiliparse_served(body: bytes, content_type: str | None) -> str:
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding

    charset = _charset(content_type)
    return str(bytes_to_str(body, charset or detect_encoding(body, from_html_meta=True)))


#: The peers as a crawler uses them on a response: the body and its Content-Type header.
SERVED_DECODERS: dict[str, Callable[[bytes, str | None], str]] = {
    "w3lib html_to_unicode": _w3lib_served,
    "bs4 UnicodeDammit": _dammit_served,
    "charset-normalizer": _cn_served,
    "resiliparse": _resiliparse_served,
}
