"""Find mojibake, lost characters and C1 controls in stored text; explain and propose repairs.

The public face: the ``Mojibake`` record, ``find_mojibake`` for one text and
``suspicious_part`` to show where. ``MojibakeFinder`` (in ``finder``, with the rules;
the chain and its differences table are in ``chain``) gives the same answers for
many texts, sharing work between them; ``PREFILTER_RE2`` and ``might_be_damaged`` (in
``prefilter``) are the cheap test in front. All are importable from here.

Design. ftfy is the engine: ``ftfy.badness.is_bad`` decides whether text looks like mojibake and
``ftfy.fix_encoding_and_explain`` (the encoding steps of ``fix_and_explain``, without its
cosmetic fixers such as quote uncurling and NFC) repairs it and says how. In front of it sits a
prefilter that costs almost nothing on clean text (``prefilter``): pure ASCII is
only looked at for a ``?`` inside a word; other text for the *shape* UTF-8 takes when read as
one of ftfy's single-byte encodings (``Ã©`` is C3 A9 in windows-1252), a C1 control or U+FFFD.
``PREFILTER_RE2`` is the same test for RE2, so ``csvscan`` filters a whole column at once, and
``MojibakeFinder`` gives the same answers for many texts, sharing work between them. Only text
that passes the prefilter is looked at closely, and only two rules report mojibake (ftfy's, and
a whole-text re-read as UTF-8: see ``finder``). The module errs towards **not**
flagging: legitimate text that has the shape (``NÃO``, ``l’Église``) is left alone.

Lost characters (kind ``lossy``) are U+FFFD, or a ``?`` between two letters (``Garc?a``), the
trace of text written to an encoding that lacks the letter. A ``?`` in a token that looks like a
URL or code (``=&/:#%@\\``) is not counted, nor is one at the end of a word (``Why?``), unless a
``?`` inside a word in the same text already shows the loss (then ``Jos?`` is marked too).

Known problems: UTF-8 read as a multi-byte legacy encoding (shift_jis, gbk) is not found,
because ftfy does not repair it; a name lost entirely to ``?`` (``???``) is not flagged, because
it cannot be told from a placeholder.
"""

from __future__ import annotations

import threading

from .finder import Finding, Mojibake, MojibakeFinder, MojibakeKind, unless_quoted
from .prefilter import PREFILTER_RE2, might_be_damaged

__all__ = ["PREFILTER_RE2", "Finding", "Mojibake", "MojibakeFinder", "MojibakeKind",
           "find_mojibake", "might_be_damaged", "suspicious_part"]


def find_mojibake(text: str) -> Mojibake | None:
    """Mojibake, lost characters or C1 controls in ``text``; ``None`` for clean text.

    >>> find_mojibake("Jos\\u00c3\\u00a9").repaired
    'José'
    >>> find_mojibake("Jos\\u00c3\\u0192\\u00c2\\u00a9").chain
    'utf-8 read as windows-1252, twice'
    >>> find_mojibake("Jos? Garc?a").kind, find_mojibake("Why? a?b=1") is None
    ('lossy', True)
    >>> find_mojibake("NÃO, São Paulo") is None
    True
    """
    finder = getattr(_PER_THREAD, "finder", None)
    if finder is None:
        finder = _PER_THREAD.finder = MojibakeFinder(size=10_000)
    finding = unless_quoted(text, finder._find(text)[0])
    return None if finding is None else Mojibake(*finding)


# A finder per thread (a finder is not thread-safe); its caches (pieces, words) are pure, so
# sharing them between calls never changes an answer.
_PER_THREAD = threading.local()


def suspicious_part(text: str, finding: Mojibake | Finding, context: int = 40) -> str:
    """The first suspicious span of ``text`` with ``context`` characters either side.

    >>> suspicious_part("a" * 100 + "Ã©" + "b" * 100, find_mojibake("a" * 100 + "Ã©"), 3)
    'aaaÃ©bbb'
    """
    spans = finding.spans
    if not spans:
        return text[: 2 * context]
    start, end = spans[0]
    return text[max(0, start - context): end + context]
