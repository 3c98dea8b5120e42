"""Statistical encoding detection: a last resort, sampled, and honest about doubt.

``decode`` consults a detector only when no declaration decodes strictly. A detector is any
``Callable[[bytes], Detection | None]`` passed in by the caller (as httpx's
``default_encoding`` and w3lib's ``auto_detect_fun``); the third-party ones are imported
lazily, so a missing library means no vote, not an ImportError.

Design of ``default_detector``, cheapest and surest first:

1. a byte-order mark: the encoding it names (it cannot be wrong);
2. pure ASCII: no answer (``None``): nothing to detect, the walk's fallback decodes it;
   except ISO-2022-JP, which is 7-bit and announces itself with escape sequences;
3. valid UTF-8 with multi-byte sequences: utf-8, as chardetng and Firefox do (legacy text is
   practically never valid UTF-8 by accident); *mostly* valid UTF-8 (at least four valid
   multi-byte sequences per malformed one, where legacy text manages one at most): no answer,
   since the only right reading, utf-8, fails a strict decode;
4. otherwise the installed statistical detectors (chardet, uchardet via resiliparse,
   charset-normalizer) vote on a sample, and each answer's single-byte siblings
   (windows-1250 and iso-8859-2 ...) join the candidates. A candidate that fails a strict
   decode of the whole body is dropped. Candidates giving the same text are one reading; each
   reading scores its weighted votes minus a penalty for how its text looks (see
   ``_implausibility``). The best reading wins; its confidence is its share of the votes,
   lowered by that penalty.

Sampling: detectors see at most 64 KiB from the line of the first non-ASCII byte (an ASCII
prefix says nothing) and the last 16 KiB of the body, each cut at a ``<``, ``>`` or newline,
bytes that are never inside a character in an ASCII-compatible web encoding. Tags, scripts,
styles and comments are stripped from the sample, so the statistics see prose rather than
markup, unless that would leave no non-ASCII byte (text only in a script).

Which way it errs: towards no answer. A reading below ``MIN_CONFIDENCE`` is ``None``, so the
walk falls back to the site default, utf-8 and windows-1252 and says so; ``needs_review`` is set
when the detectors disagree or the sample has fewer than ``SHORT_TEXT`` non-ASCII bytes. It
never suggests an encoding that fails a strict decode of the bytes it was given, so a body cut
inside a character (a size cap) gets no answer for that encoding.

Known limits: encodings that give the same letters to a text are told apart only by votes
(Romanian in iso-8859-16 and in iso-8859-2 differ only in comma-below and cedilla); a few
non-ASCII words among English markup are a coin toss between windows-1252 and its siblings.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .decoders import decode_replace, decode_strict
from .labels import get_encoding, get_encoding_no_replacement

__all__ = [
    "MIN_CONFIDENCE",
    "SHORT_TEXT",
    "Detection",
    "Detector",
    "chardet_detector",
    "charset_normalizer_detector",
    "default_detector",
    "resiliparse_detector",
    "sample",
    "whatwg_name",
]

#: Below this confidence an answer is no answer.
MIN_CONFIDENCE = 0.5
#: Share of a ranking's support that goes to its top answer.
TOP_SHARE = 0.3
#: Fewer non-ASCII bytes than this in the sample: too short to tell (``needs_review``).
SHORT_TEXT = 24
SAMPLE_HEAD = 64 * 1024
SAMPLE_TAIL = 16 * 1024

Vote = tuple[str, str | None, float]


@dataclass(frozen=True, slots=True)
class Detection:
    """A detector's answer: a WHATWG encoding name, how sure, and who said what.

    ``votes`` holds (detector, its WHATWG answer or None, its confidence) for every
    detector consulted.
    """

    encoding: str
    confidence: float
    needs_review: bool
    reason: str
    votes: tuple[Vote, ...] = ()


Detector = Callable[[bytes], Detection | None]

# Python codec names (as chardet, charset-normalizer and uchardet spell them, after
# codecs.lookup) that are not WHATWG labels, and the WHATWG encoding that decodes them.
_PYTHON_NAMES = {"cp932": "shift_jis", "shift_jis_2004": "shift_jis",
                 "shift_jisx0213": "shift_jis", "euc_jis_2004": "euc-jp",
                 "euc_jisx0213": "euc-jp", "iso2022_jp_2": "iso-2022-jp",
                 "iso2022_jp_ext": "iso-2022-jp", "cp949": "euc-kr", "cp950": "big5",
                 "big5hkscs": "big5", "mac-cyrillic": "x-mac-cyrillic", "mac-roman": "macintosh",
                 "cp874": "windows-874", "utf-8-sig": "utf-8"}
_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16le"), (b"\xfe\xff", "utf-16be"))


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
        boms = _BOMS[1:] if key == "utf-16" and not data.startswith(b"\xff\xfe\x00\x00") else ()
        return next((enc for bom, enc in boms if data.startswith(bom)), None)
    for label in (name, key):
        if (found := get_encoding_no_replacement(label)) is not None:
            return found
        if get_encoding(label) is not None:  # replacement
            return None
    try:
        python_name = codecs.lookup(name).name
    except LookupError:
        return None
    return get_encoding_no_replacement(_PYTHON_NAMES.get(python_name, python_name))


_SAFE_CUT = re.compile(rb"[<>\n]")
_NON_ASCII_BYTE = re.compile(rb"[\x80-\xff]")
_CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]")
_MARKUP = re.compile(rb"<script\b.*?</script>|<style\b.*?</style>|<!--.*?-->|<[^<>]*>",
                     re.DOTALL | re.IGNORECASE)


def sample(data: bytes) -> bytes:
    """The part of a body detectors see: head and tail cut at safe bytes, markup stripped.

    The head starts a little before the first non-ASCII byte (an ASCII prefix tells
    nothing); markup is kept when stripping it would leave no non-ASCII byte.

    >>> sample(b"<p>caf\\xe9</p><script>var x;</script>")
    b' caf\\xe9  '
    """
    first = _NON_ASCII_BYTE.search(data)
    start = 0 if first is None or first.start() < 1024 else data.rfind(b"\n", 0, first.start())
    if len(data) - max(start, 0) > SAMPLE_HEAD + SAMPLE_TAIL:
        head = data[max(start, 0):max(start, 0) + SAMPLE_HEAD]
        cut = max(head.rfind(b"<"), head.rfind(b">") + 1, head.rfind(b"\n") + 1)
        head = head[:cut] if cut > 0 else head
        tail = data[-SAMPLE_TAIL:]
        found = _SAFE_CUT.search(tail)
        data = head + b"\n" + (tail[found.start():] if found else tail)
    elif start > 0:
        data = data[start:]
    stripped = _MARKUP.sub(b" ", data)
    return stripped if _NON_ASCII_BYTE.search(stripped) else data


def _strict_ok(data: bytes, encoding: str) -> bool:
    try:
        decode_strict(data, encoding)
    except (UnicodeDecodeError, LookupError, ValueError):
        return False
    return True


# --- the third-party detectors: each ranks (its own name, confidence), best first ----------

Ranking = list[tuple[str | None, float]]
# chardet is asked only about encodings with a WHATWG name (the web has no others).
_CHARDET_WEB = ("ascii", "utf-8", "utf-16-be", "utf-16-le", "big5hkscs", "cp932", "cp949",
                "euc_jis_2004", "euc_kr", "gb18030", "iso2022_jp_2", "iso2022_jp_ext", "cp874",
                "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257",
                "cp1258", "koi8-r", "koi8-u", "tis-620", "iso8859-1", "iso8859-2", "iso8859-3",
                "iso8859-4", "iso8859-5", "iso8859-6", "iso8859-7", "iso8859-8", "iso8859-9",
                "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15", "iso8859-16",
                "mac-cyrillic", "mac-roman", "cp866")


def _chardet_rank(data: bytes) -> Ranking | None:
    try:
        import chardet
    except ImportError:
        return None
    try:
        results = chardet.detect_all(data, compat_names=False, include_encodings=_CHARDET_WEB)
    except ValueError:  # another chardet version that does not know one of the names
        results = chardet.detect_all(data, compat_names=False)
    return [(r["encoding"], float(r["confidence"] or 0.0)) for r in results[:8]]


def _charset_normalizer_rank(data: bytes) -> Ranking | None:
    try:
        from charset_normalizer import from_bytes
    except ImportError:
        return None
    best = from_bytes(data, preemptive_behaviour=False).best()
    if best is None:
        return []
    return [(str(best.encoding), 1.0 - min(float(best.chaos), 1.0))]


def _resiliparse_rank(data: bytes) -> Ranking | None:
    try:
        from resiliparse.parse.encoding import detect_encoding
    except ImportError:
        return None
    # uchardet reports no confidence: a fixed middling one; html5_compatible=False so that a
    # failure is None rather than resiliparse's utf-8 fallback.
    name = detect_encoding(data, max_len=0, html5_compatible=False)
    return [(str(name), 0.6)] if name else []


_Ranker = Callable[[bytes], Ranking | None]
#: (name, ranker, weight of its vote in ``default_detector``)
_VOTERS: tuple[tuple[str, _Ranker, float], ...] = (
    ("chardet", _chardet_rank, 1.0),
    ("resiliparse", _resiliparse_rank, 0.6),
    ("charset-normalizer", _charset_normalizer_rank, 0.4),
)


def _consult(data: bytes, part: bytes, voters: tuple[tuple[str, _Ranker, float], ...]
             ) -> tuple[list[Vote], dict[str, dict[str, float]]]:
    """Each voter's top answer (for the record) and its support per WHATWG encoding."""
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
        # Support: half for the top answer, half spread over the ranking by confidence
        # (a ranking's confidences are flat on short text, yet its top is usually right).
        total = sum(conf for enc, conf in mapped if enc is not None) or 1.0
        mine = support.setdefault(name, {})
        for rank, (enc, conf) in enumerate(mapped):
            if enc is not None:
                share = TOP_SHARE * (rank == 0) + (1 - TOP_SHARE) * conf / total
                mine[enc] = mine.get(enc, 0.0) + (share if len(mapped) > 1 else 1.0)
    return votes, support


def _adapter(name: str) -> Detector:
    voters = tuple(v for v in _VOTERS if v[0] == name)

    def detector(data: bytes) -> Detection | None:
        part = sample(data)
        votes, _support = _consult(data, part, voters)
        if not votes or votes[0][1] is None or votes[0][2] < MIN_CONFIDENCE:
            return None
        encoding = votes[0][1]
        if not _strict_ok(data, encoding):
            return None
        short = _non_ascii(part) < SHORT_TEXT
        return Detection(encoding, votes[0][2], short, f"{name} (sampled)", tuple(votes))

    detector.__name__ = detector.__qualname__ = f"{name.replace('-', '_')}_detector"
    detector.__doc__ = f"Thin adapter: {name}'s answer as a WHATWG name, if confident and strict."
    return detector


#: Thin adapters: one library each, its answer mapped to a WHATWG name.
chardet_detector = _adapter("chardet")
charset_normalizer_detector = _adapter("charset-normalizer")
resiliparse_detector = _adapter("resiliparse")


def _non_ascii(data: bytes) -> int:
    return len(data) - len(data.decode("latin-1").encode("ascii", "ignore"))


# --- the combination -----------------------------------------------------------------------

#: Encodings a detector confuses with one another: a vote for one makes the others candidates.
_SIBLINGS = (
    ("windows-1252", "iso-8859-15"),
    ("windows-1250", "iso-8859-2"),
    ("windows-1251", "koi8-r", "koi8-u", "ibm866", "iso-8859-5", "x-mac-cyrillic"),
    ("windows-1253", "iso-8859-7"),
    ("windows-1255", "iso-8859-8"),
    ("windows-1256", "iso-8859-6"),
    ("windows-1257", "iso-8859-13", "iso-8859-4"),
)
_SIBLING_OF = {enc: family for family in _SIBLINGS for enc in family}
_NON_ASCII_WORD = re.compile(r"\S*[^\x00-\x7f]\S*")
# Non-ASCII punctuation and symbols that real text uses, also inside words (it’s, 1°C, 5€).
_USUAL = frozenset("’‘“”„«»‹›—–…·•€£¥°©®™№§¿¡\u00a0\u00ad\u200c\u200d\u200e\u200f"
                   "،؛؟٪۔।。、「」『』（）：；！？，．〜・ー")

# Of those, the ones that also sit between two letters of a word (it’s, l·l, soft hyphen).
_WORD_INNER = frozenset("’·\u00ad\u200c\u200d\u200e\u200f・ー")

# The first word of a letter's Unicode name is its script, but for these: East Asian writing
# mixes ideographs, kana and full-width forms in one word; the rest belong to no script.
_SCRIPT_ALIASES = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "IDEOGRAPHIC": "CJK",
                   "HALFWIDTH": "CJK", "FULLWIDTH": "CJK", "BOPOMOFO": "CJK", "HANGUL": "CJK",
                   "MODIFIER": "", "MICRO": "", "?": ""}
# Ordinal indicators are letters to Unicode but follow digits (1º, 2ª), never sit in words.
_ORDINALS = "ªº"
# Letters rare in running text anywhere but in a small language, and what a wrong
# single-byte decode makes of common ones (à read as windows-1250 is ŕ; ţ as windows-1252 þ).
# Their penalty is capped, so a long Icelandic or Slovak text is not pushed away.
_RARE_LETTERS = frozenset("ðÐþÞŕŔĺĹŀĿŉĸſŧŦŋŊħĦ")
RARE_CAP = 0.6


@lru_cache(maxsize=8192)
def _char_class(char: str) -> tuple[str, str]:
    """(kind, script) of a non-ASCII character.

    Kinds: ``L`` lower-case, ``U`` upper-case, ``l`` other letter, ``M`` mark, ``P`` usual
    in text, ``S`` symbol-like (symbols, odd punctuation, fractions), ``X`` never in prose
    (controls, unassigned, private use, box drawing).
    """
    category = unicodedata.category(char)
    if char in _USUAL or category in ("Zs", "Nd"):
        return ("P", "")
    if char in _ORDINALS:
        return ("S", "")
    if category.startswith("L"):
        script = unicodedata.name(char, "? ").split(" ")[0]
        kind = {"Ll": "L", "Lu": "U"}.get(category, "l")
        return (kind, _SCRIPT_ALIASES.get(script, script))
    if category.startswith("M"):
        return ("M", "")
    if category.startswith("C") or "\u2500" <= char <= "\u259f":
        return ("X", "")
    return ("S", "")


def _implausibility(text: str) -> tuple[float, int]:
    """How unlike real text the non-ASCII part of ``text`` is, and its non-ASCII count.

    Counts characters never seen in prose (controls, unassigned, private use, box drawing:
    1 each), symbol-like characters (1 between two letters, 0.3 next to one, else 0.1),
    quotes and dashes between two letters (0.5), letters rare in any large language (0.2, at
    most ``RARE_CAP`` in all), words
    mixing scripts (1) and words turning from lower to upper case at a non-ASCII letter (1):
    what a wrong single-byte decode produces (``пЕУЛБ``, ``c½ur``, ``╕``).
    """
    bad = rare = 0.0
    count = 0
    for word in _NON_ASCII_WORD.findall(text[:200_000]):
        scripts: set[str] = set()
        previous = ""
        for index, char in enumerate(word):
            if char < "\x80":
                previous = "L" if char.islower() else "U" if char.isupper() else ""
                if char.isalpha():
                    scripts.add("ASCII")
                continue
            count += 1
            kind, script = _char_class(char)
            if kind == "X":
                bad += 1.0
            elif kind in "SP":
                before = index > 0 and word[index - 1].isalpha()
                after = index + 1 < len(word) and word[index + 1].isalpha()
                if kind == "S":
                    bad += 1.0 if before and after else 0.3 if before or after else 0.1
                elif before and after and char not in _WORD_INNER:
                    bad += 0.5  # quotes, dashes, ellipses between two letters (ť as »)
            elif kind in "LUl":
                if script:
                    scripts.add(script)
                if char in _RARE_LETTERS:
                    rare += 0.2
                if kind == "U" and previous == "L":
                    bad += 1.0
            previous = kind
        if "ASCII" in scripts:  # East Asian words run on without spaces: ASCII inside is normal
            scripts.discard("ASCII")
            if "CJK" not in scripts:
                scripts.add("LATIN")
        if len(scripts) > 1:
            bad += 1.0
    return bad + min(rare, RARE_CAP), count


def _iso_2022_jp(data: bytes) -> Detection | None:
    if (b"\x1b$B" in data or b"\x1b$@" in data) and _strict_ok(data, "iso-2022-jp"):
        return Detection("iso-2022-jp", 0.95, False, "ISO-2022-JP escape sequences")
    return None


def _utf8(data: bytes) -> Detection | bool:
    """utf-8 when ``data`` is valid UTF-8; True when it is mostly UTF-8; else False."""
    try:
        text = decode_strict(data, "utf-8")
    except UnicodeDecodeError:
        text, errors = decode_replace(data, "utf-8")
        multi = len(text) - len(text.encode("ascii", "ignore")) - len(errors)
        # Legacy text reads as a few valid UTF-8 sequences per malformed one at most.
        return multi >= 4 * len(errors)
    multi = len(text) - len(text.encode("ascii", "ignore"))
    return Detection("utf-8", 0.99 if multi >= 4 else 0.8 + 0.04 * multi, multi < 2,
                     f"valid UTF-8 with {multi} multi-byte sequences")


def default_detector(data: bytes) -> Detection | None:
    """Detect the encoding of undeclared bytes; None when nothing confident can be said.

    In order: a byte-order mark; ASCII (None, or ISO-2022-JP by its escapes); valid UTF-8
    with multi-byte sequences; else the votes of the installed detectors on a sample,
    tie-broken by how plausible each candidate's text is (see the module docstring).

    >>> default_detector(b"plain ASCII") is None
    True
    >>> default_detector("Größe".encode("utf-8")).encoding
    'utf-8'
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return Detection(encoding, 1.0, False, "byte-order mark")
    if data.isascii():
        return _iso_2022_jp(data)
    found = _utf8(data)
    if isinstance(found, Detection):
        return found
    if found:  # mostly UTF-8 with a few malformed bytes: no encoding decodes it as meant
        return None
    part = sample(data)
    if len(_CONTROL_BYTES.findall(part)) > len(part) // 100:
        return None  # binary, or UTF-16/32 without a BOM: not text in a web encoding
    votes, support = _consult(data, part, _VOTERS)
    if not any(support.values()):
        return None
    return _elect(data, part, votes, support)


#: Weight of one implausible character against the votes (whose shares sum to at most 1).
PENALTY = 0.5
#: A reading with more implausible characters than this per non-ASCII one is no reading.
MAX_IMPLAUSIBLE_RATE = 0.25
#: Encodings scored when no voted candidate reads plausibly (ASCII-compatible, web).
_ALL_LEGACY = ("windows-1252", "windows-1250", "windows-1251", "windows-1253", "windows-1254",
               "windows-1255", "windows-1256", "windows-1257", "windows-1258", "windows-874",
               "iso-8859-2", "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7",
               "iso-8859-8", "iso-8859-13", "iso-8859-15", "koi8-r", "koi8-u", "ibm866",
               "gbk", "big5", "shift_jis", "euc-jp", "euc-kr")


@dataclass(frozen=True, slots=True)
class _Reading:
    """The text a sample decodes to, the encodings giving it, and how it scores."""

    encodings: tuple[str, ...]
    share: float
    bad: float
    rate: float

    @property
    def score(self) -> float:
        return self.share - PENALTY * self.bad


def _readings(data: bytes, part: bytes, candidates: list[str],
              support: dict[str, dict[str, float]]) -> list[_Reading]:
    weights = {name: weight for name, _ranker, weight in _VOTERS}
    total = sum(weights[name] for name in support) or 1.0
    texts: dict[str, list[str]] = {}
    for encoding in candidates:
        if _strict_ok(data, encoding):
            texts.setdefault(decode_replace(part, encoding)[0], []).append(encoding)
    readings = []
    for text, encodings in texts.items():
        mass = sum(weights[name] * sum(ranking.get(e, 0.0) for e in encodings)
                   for name, ranking in support.items())
        bad, count = _implausibility(text)
        readings.append(_Reading(tuple(encodings), mass / total, bad, bad / max(count, 1)))
    return sorted(readings, key=lambda r: -r.score)


def _elect(data: bytes, part: bytes, votes: list[Vote],
           support: dict[str, dict[str, float]]) -> Detection | None:
    candidates: list[str] = []
    for ranking in support.values():
        for encoding in ranking:
            candidates.extend(e for e in (encoding, *_SIBLING_OF.get(encoding, ()))
                              if e not in candidates)
    readings = _readings(data, part, candidates, support)
    if not readings or readings[0].rate > MAX_IMPLAUSIBLE_RATE / 2:
        # No detector proposed a plausible reading: let plausibility look further.
        more = [e for e in _ALL_LEGACY if e not in candidates]
        readings = _readings(data, part, candidates + more, support)
    if not readings or readings[0].rate > MAX_IMPLAUSIBLE_RATE:
        return None
    best = readings[0]
    margin = best.score - readings[1].score if len(readings) > 1 else 1.0
    # Sure when the best reading leads clearly and reads cleanly, less so on little text.
    non_ascii = _non_ascii(part)
    evidence = 0.6 + 0.1 * min(4, non_ascii)
    confidence = max(0.0, min(1.0, 0.5 + margin) * (1.0 - 2 * best.rate) * evidence)
    if confidence < MIN_CONFIDENCE:
        return None
    encoding = next((e for _n, e, _c in votes if e in best.encodings), best.encodings[0])
    short = non_ascii < SHORT_TEXT
    disagree = any(e is not None and e not in best.encodings for _n, e, _c in votes)
    voters = ", ".join(n for n, e, _c in votes if e in best.encodings) or "plausibility"
    reason = (f"{voters} (sampled; vote share {best.share:.2f}, "
              f"{best.bad:g} implausible characters)")
    return Detection(encoding, round(confidence, 3), short or disagree, reason, tuple(votes))
