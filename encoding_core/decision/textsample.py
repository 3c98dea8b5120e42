"""What the text checks read of a legacy reading's sample, read once: ``TextSample``.

Two checks look at the same window of a body decided in a single-byte encoding, the part the
detectors' sample is cut from (``detect.sample_window``: the line of the first non-ASCII
byte on): ``conflicts_text.implausible_reading`` asks whether a word of it may read unlike
real text (``_bytetest``'s byte test, over the window with its tags read as spaces when they
pair up, ``detect.sample_window_words``), and ``disputes.letters_of_another_language`` which
of its ``TELLS`` bytes are present. Each made its own copies of the window (a slice, two
``bytes.translate``, the class test: about 6 us a 1.6 KB page); ``text_sample`` answers both
in one compiled pass (``_bytetest_c.sample_facts``), about 1 us, and
``readings.implausible_text`` hands the answer to both.

``text_sample_reference`` is the same answer from the functions the checks called before
(the readable definition); ``tests/decision/test_textsample.py`` holds the two equal on
arbitrary bytes, the real-world set and the seed cases (Hypothesis). Like the checks, it errs
towards doubt: ``doubt`` is False only when the byte test says no word can score.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ..whatwg.decoders import SINGLE_BYTE_ENCODINGS
from ._agreement import QUICK_SAMPLE
from ._bytetest import class_tables, may_be_implausible, non_latin_letters
from .detect import CONTROL_BYTES, sample_window, sample_window_words
from .disputes import NOT_TELLS, TELL_ENCODINGS, TELLS_WINDOW
from .utf8scan import BYTETEST_C as _C

__all__ = ["BINARY_HEAD", "CONTROL_BYTES", "CONTROL_FLAGS", "TELL_FLAGS", "TextSample",
           "control_bytes_in_head", "control_bytes_in_head_reference", "sample_arguments",
           "text_sample", "text_sample_reference"]

# ``detect.CONTROL_BYTES``: ``conflicts_text.binary_body`` counts them in the first
# ``BINARY_HEAD`` bytes
BINARY_HEAD = 4096
#: ``CONTROL_BYTES`` as a 256-byte flag table (1: a control byte), as the compiled count reads it.
CONTROL_FLAGS = bytes(int(b in CONTROL_BYTES) for b in range(256))

#: The bytes ``disputes.tell`` reads (every high byte), as a 256-byte flag table (1: a tell byte).
TELL_FLAGS = bytes(int(b not in NOT_TELLS) for b in range(256))


class TextSample(NamedTuple):
    """The sample facts of a body read in a single-byte encoding.

    A ``NamedTuple`` rather than a frozen dataclass (a deviation from STYLE, as
    ``checks.record.CheckInput``): built on every legacy page's checks, it costs 0.16 us
    here against 0.41 us (``timeit``, Python 3.11), a tenth of the pass that fills it.

    ``doubt`` is False when ``implausible_reading`` can stop at the window: it is ASCII, or
    the byte test says no word of it can score (see the module); ``tells`` the tell bytes
    (every high byte: ``disputes.NOT_TELLS``) present in the first ``disputes.TELLS_WINDOW``
    bytes of the window, ascending, each once, in a reading the tells are written for
    (``disputes.TELL_ENCODINGS``; empty in any other, where no check asks).
    """

    doubt: bool
    tells: bytes


def text_sample(body: bytes, encoding: str) -> TextSample:
    """The ``TextSample`` of ``body`` read in single-byte ``encoding``: compiled when the
    extension is in use, else ``text_sample_reference``.

    >>> text_sample("<p>Ça coûte 5 €, où ?</p>".encode("cp1252"), "windows-1252")
    TextSample(doubt=False, tells=b'\\x80\\xc7\\xf9\\xfb')
    """
    if _C is None or type(body) is not bytes or encoding not in SINGLE_BYTE_ENCODINGS:
        return text_sample_reference(body, encoding)
    table, words_table, raw_doubt, tells_head = sample_arguments(encoding)
    doubt, tells = _C.sample_facts(body, QUICK_SAMPLE, table, words_table, raw_doubt,
                                   tells_head, TELL_FLAGS)
    return TextSample(doubt, tells)


@lru_cache(maxsize=64)
def sample_arguments(encoding: str) -> tuple[bytes | None, bytes | None, bool, int]:
    """What the compiled pass needs of single-byte ``encoding``, looked up once: its class
    tables (``_bytetest.class_tables``), whether a raw window's letters of another script
    doubt (``non_latin_letters``), how far to look for tells (0: not a ``TELL_ENCODINGS``)."""
    tables = class_tables(encoding)
    table, words_table = (None, None) if tables is None else tables
    return (table, words_table, non_latin_letters(encoding),
            TELLS_WINDOW if encoding in TELL_ENCODINGS else 0)


def text_sample_reference(body: bytes, encoding: str) -> TextSample:
    """``text_sample`` from what the checks asked before, one question at a time.

    >>> text_sample_reference(b"<p>plain</p>", "windows-1252")
    TextSample(doubt=False, tells=b'')
    """
    words = sample_window_words(body, QUICK_SAMPLE)
    if words is not None:
        doubt = not words.isascii() and may_be_implausible(words, encoding)
    else:
        window = sample_window(body, QUICK_SAMPLE)
        doubt = not window.isascii() and (non_latin_letters(encoding)
                                          or may_be_implausible(window, encoding))
    if encoding not in TELL_ENCODINGS:
        return TextSample(doubt, b"")
    present = sample_window(body, TELLS_WINDOW).translate(None, NOT_TELLS)
    return TextSample(doubt, bytes(sorted(set(present))))


def control_bytes_in_head(body: bytes, head: int = BINARY_HEAD) -> int:
    """How many of the first ``head`` bytes of ``body`` are ``CONTROL_BYTES``: compiled (a
    count, no copy) when the extension is in use, else ``control_bytes_in_head_reference``.

    >>> control_bytes_in_head(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00")
    3
    """
    if head <= 0:
        return 0   # (no head: the reference's slice would count from the end)
    if _C is None or type(body) is not bytes:
        return control_bytes_in_head_reference(body, head)
    found: int = _C.count_flagged(body, head, CONTROL_FLAGS)
    return found


def control_bytes_in_head_reference(body: bytes, head: int = BINARY_HEAD) -> int:
    """``control_bytes_in_head`` by two C-speed copies: the head, and the head without them.

    >>> control_bytes_in_head_reference(b"\\x00a\\x01b", 3)
    2
    """
    part = body[:max(head, 0)]
    return len(part) - len(part.translate(None, CONTROL_BYTES))
