"""The third-party detectors behind ``detect``: their rankings, as WHATWG encodings.

Each library is imported lazily, inside its ranker; a missing library (or one that raises)
is no vote. Their names for encodings (Python codec names, uchardet's upper case) become
WHATWG names through ``whatwg_name``; a name with no WHATWG encoding is no answer.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from ..whatwg.labels import get_encoding, get_encoding_no_replacement

__all__ = ["BOMS", "SIBLINGS", "SIBLING_OF", "TOP_SHARE", "VOTERS", "Ranker", "Ranking", "Vote",
           "chardetng_answer", "consult", "resiliparse_answer", "whatwg_name"]

#: (detector, its WHATWG answer or None, its confidence)
Vote = tuple[str, str | None, float]
#: A detector's answers in its own spelling, best first, with confidences.
Ranking = list[tuple[str | None, float]]
Ranker = Callable[[bytes], Ranking | None]

#: Share of a ranking's support that goes to its top answer (the rest follows confidences).
TOP_SHARE = 0.3

#: Encodings detectors confuse with one another (a vote for one makes the others candidates).
SIBLINGS = (
    ("windows-1252", "iso-8859-15"),
    ("windows-1250", "iso-8859-2"),
    ("windows-1251", "koi8-r", "koi8-u", "ibm866", "iso-8859-5", "x-mac-cyrillic"),
    ("windows-1253", "iso-8859-7"),
    ("windows-1255", "iso-8859-8"),
    ("windows-1256", "iso-8859-6"),
    ("windows-1257", "iso-8859-13", "iso-8859-4"),
)
SIBLING_OF = {enc: family for family in SIBLINGS for enc in family}
BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16le"), (b"\xfe\xff", "utf-16be"))
# Python codec names (as chardet, charset-normalizer and uchardet spell them, after
# codecs.lookup) that are not WHATWG labels, and the WHATWG encoding that decodes them.
_PYTHON_NAMES = {"cp932": "shift_jis", "shift_jis_2004": "shift_jis",
                 "shift_jisx0213": "shift_jis", "euc_jis_2004": "euc-jp",
                 "euc_jisx0213": "euc-jp", "iso2022_jp_2": "iso-2022-jp",
                 "iso2022_jp_ext": "iso-2022-jp", "cp949": "euc-kr", "cp950": "big5",
                 "big5hkscs": "big5", "mac-cyrillic": "x-mac-cyrillic", "mac-roman": "macintosh",
                 "cp874": "windows-874", "utf-8-sig": "utf-8", "utf-16-be": "utf-16be",
                 "utf-16-le": "utf-16le", "iso2022_jp": "iso-2022-jp"}
# (Python's "iso8859-16" is left unmapped, so that name is no vote: mapping it turns the
# votes for it on Romanian iso-8859-2 pages into other decisions, which wants a study of
# the detector's accuracy first. Known limits in detect.py.)


def whatwg_name(name: str | None, data: bytes = b"") -> str | None:
    """The WHATWG encoding a detector's name for an encoding means; None when there is none.

    Tried in turn: the name as a WHATWG label, with ``_`` as ``-``, and Python's canonical
    codec name for it (``cp932`` is shift_jis). ``utf-16`` (byte order unknown) is resolved
    by ``data``'s byte-order mark; the replacement encoding and UTF-32 are no answer.

    >>> whatwg_name("ISO-8859-1"), whatwg_name("cp932"), whatwg_name("utf_8")
    ('windows-1252', 'shift_jis', 'utf-8')
    >>> whatwg_name("johab") is None, whatwg_name("hz-gb-2312") is None
    (True, True)
    """
    if not name:
        return None
    key = name.strip().lower().replace("_", "-")
    if key in ("utf-16", "utf-32"):
        utf32 = key == "utf-32" or data.startswith(b"\xff\xfe\x00\x00")
        return None if utf32 else next((e for bom, e in BOMS[1:] if data.startswith(bom)), None)
    for label in (name, key):
        if (found := get_encoding_no_replacement(label)) is not None:
            return found
        if get_encoding(label) is not None:  # a label of the replacement encoding
            return None
    try:
        python_name = codecs.lookup(name).name
    except LookupError:
        return None
    return get_encoding_no_replacement(_PYTHON_NAMES.get(python_name, python_name))


# chardet is asked only about encodings with a WHATWG name (the web has no others).
_CHARDET_WEB = ("ascii", "utf-8", "utf-16-be", "utf-16-le", "big5hkscs", "cp932", "cp949",
                "euc_jis_2004", "euc_kr", "gb18030", "iso2022_jp_2", "iso2022_jp_ext", "cp874",
                "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257",
                "cp1258", "koi8-r", "koi8-u", "tis-620", "iso8859-1", "iso8859-2", "iso8859-3",
                "iso8859-4", "iso8859-5", "iso8859-6", "iso8859-7", "iso8859-8", "iso8859-9",
                "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15", "iso8859-16",
                "mac-cyrillic", "mac-roman", "cp866")


# ... and so is charset-normalizer, in its own spelling (Python's codec names, which it also
# tries for the multi-byte encodings chardet spells otherwise)
_NORMALIZER_WEB = [*_CHARDET_WEB, "big5", "gb2312", "gbk", "shift_jis", "euc_jp", "iso2022_jp"]


def chardet_rank(data: bytes) -> Ranking | None:
    """chardet's eight best candidates among the web's encodings."""
    try:
        import chardet
    except ImportError:
        return None
    try:
        results = chardet.detect_all(data, compat_names=False, include_encodings=_CHARDET_WEB)
    except ValueError:  # a chardet version that does not know one of the names
        results = chardet.detect_all(data, compat_names=False)
    return [(r["encoding"], float(r["confidence"] or 0.0)) for r in results[:8]]


def charset_normalizer_rank(data: bytes) -> Ranking | None:
    """charset-normalizer's best match among the web's encodings (as chardet is asked; the
    others it would try, some sixty, are no answer here and a third of its time);
    confidence 1 - chaos."""
    try:
        from charset_normalizer import from_bytes
    except ImportError:
        return None
    best = from_bytes(data, preemptive_behaviour=False, cp_isolation=_NORMALIZER_WEB).best()
    if best is None:
        return []
    return [(str(best.encoding), 1.0 - min(float(best.chaos), 1.0))]


def resiliparse_rank(data: bytes) -> Ranking | None:
    """uchardet's answer through resiliparse, with a fixed middling confidence.

    uchardet reports no confidence; ``html5_compatible=False`` so that a failure is None
    rather than resiliparse's utf-8 fallback (names are mapped by ``whatwg_name``).
    """
    try:
        from resiliparse.parse.encoding import detect_encoding
    except ImportError:
        return None
    name = detect_encoding(data, max_len=0, html5_compatible=False)
    return [(str(name), 0.6)] if name else []


def chardetng_answer(part: bytes, data: bytes = b"") -> str | None:
    """Firefox's detector's answer for ``part`` as a WHATWG name (never UTF-8: it is decided
    before); None when chardetng-py is missing or fails."""
    try:
        from chardetng_py import detect
    except ImportError:
        return None
    try:
        return whatwg_name(detect(part, allow_utf8=False), data)
    except Exception:  # a third-party detector must not break the decision
        return None


def resiliparse_answer(part: bytes, data: bytes = b"") -> str | None:
    """uchardet's answer for ``part`` as a WHATWG name; None when it has none."""
    try:
        ranking = resiliparse_rank(part)
    except Exception:  # a third-party detector must not break the decision
        return None
    return whatwg_name(ranking[0][0], data) if ranking else None


#: (name, ranker, weight of its support in ``default_detector``): weights from the dev split.
VOTERS: tuple[tuple[str, Ranker, float], ...] = (
    ("chardet", chardet_rank, 1.0),
    ("resiliparse", resiliparse_rank, 0.6),
    ("charset-normalizer", charset_normalizer_rank, 0.4),
)


def consult(data: bytes, part: bytes, voters: tuple[tuple[str, Ranker, float], ...] = VOTERS
            ) -> tuple[list[Vote], dict[str, dict[str, float]]]:
    """Each voter's top answer on ``part`` (for the record) and its support per encoding.

    A voter's support sums to 1 over the WHATWG encodings it ranks: ``TOP_SHARE`` for its
    top answer and the rest in proportion to its confidences (chardet's confidences are flat
    on short text, yet its top answer is usually right). ``data`` resolves ``utf-16``.
    """
    votes: list[Vote] = []
    support: dict[str, dict[str, float]] = {}
    for name, ranker, _weight in voters:
        try:
            ranking = ranker(part)
        except Exception:  # a third-party detector must not break the decision
            continue
        if ranking is None:
            continue
        mapped = [(whatwg_name(label, data), max(0.0, min(conf, 1.0)))
                  for label, conf in ranking]
        votes.append((name, *mapped[0]) if mapped else (name, None, 0.0))
        total = sum(conf for enc, conf in mapped if enc is not None) or 1.0
        mine = support.setdefault(name, {})
        for rank, (enc, conf) in enumerate(mapped):
            if enc is not None:
                share = TOP_SHARE * (rank == 0) + (1 - TOP_SHARE) * conf / total
                mine[enc] = mine.get(enc, 0.0) + (share if len(mapped) > 1 else 1.0)
    return votes, support
