"""Find mojibake, lost characters and C1 controls in stored text; explain and propose repairs.

Design. ftfy is the engine: ``ftfy.badness.is_bad`` decides whether text looks like mojibake and
``ftfy.fix_encoding_and_explain`` (the encoding steps of ``fix_and_explain``, without its
cosmetic fixers such as quote uncurling and NFC) repairs it and says how. In front of it sits a
prefilter that costs almost nothing on clean text:

* pure ASCII cannot be mojibake: only a ``?`` inside a word is looked at;
* otherwise a regular expression, generated from ftfy's own list of single-byte encodings
  (``ftfy.chardata.CHARMAP_ENCODINGS``), looks for the *shape* UTF-8 takes when read as one of
  them: a lead byte followed by the right number of continuation bytes, each shown as the
  character that encoding gives that byte (``Ã©`` is C3 A9 in windows-1252). Also the variants
  ftfy repairs (a no-break space turned into a space, a continuation byte lost to ``?``), any
  C1 control and any U+FFFD. ``PREFILTER_RE2`` is the same expression for RE2 (pyarrow), so a
  whole column is filtered in one vectorised call (``csvscan``).

Only text that passes the prefilter is looked at closely, and only two rules report mojibake:

1. ftfy's: ``is_bad`` flags the text, and ``fix_encoding_and_explain`` says how to repair it
   (or cannot: then the finding has no repair, and its chain says "unexplained");
2. the whole text, encoded as one of ftfy's encodings, is valid UTF-8 with at least two
   multi-byte sequences (one, in a text that also has ASCII letters), and the result has no
   word that mixes scripts. ftfy would take exactly this step when ``is_bad`` agrees, so it is
   tried first, as the cheap path; it also finds what ``is_bad`` misses, notably UTF-8 read
   as windows-1251 (``РњРѕСЃРєРІР°``) or macintosh (``–ú–æ—Å–∫–≤–∞``).

Legitimate text in any script rarely has the shape (``NÃO``: Ã is a lead byte, but O is not a
continuation byte); when it does (French ``l’Église`` in macintosh), ftfy says no and the
re-read gives ``lՃglise``, a word in two scripts. The module errs towards **not** flagging.

Lost characters (kind ``lossy``) are U+FFFD, or a ``?`` between two letters (``Garc?a``), the
trace of text written to an encoding that lacks the letter. A ``?`` in a token that looks like a
URL or code (``=&/:#%@\\``) is not counted, nor is one at the end of a word (``Why?``), unless a
``?`` inside a word in the same text already shows the loss (then ``Jos?`` is marked too).

Differences from the Encoding Standard (in the ``chain`` text):

=======================  ==========================================================================
ftfy says                the chain says, and why
=======================  ==========================================================================
``latin-1``              ``windows-1252`` when the text holds no C1 control that WHATWG's
                         windows-1252 would not also produce (81 8D 8F 90 9D); otherwise
                         ``iso-8859-1``, which is not a WHATWG encoding (its labels mean
                         windows-1252) but is what a database or a non-browser decoder used.
``sloppy-windows-125x``  ``windows-125x``: ftfy's "sloppy" codecs are exactly WHATWG's.
``macroman``             ``macintosh``.
``cp437``                ``ibm437``: not a WHATWG encoding; its IANA name, lower case.
``utf-8-variants``       ``utf-8``: CESU-8 / Java's modified UTF-8, which WHATWG does not name.
=======================  ==========================================================================

Known problems: UTF-8 read as a multi-byte legacy encoding (shift_jis, gbk) is not found,
because ftfy does not repair it; a name lost entirely to ``?`` (``???``) is not flagged, because
it cannot be told from a placeholder.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Literal

import ftfy
from ftfy.badness import is_bad
from ftfy.chardata import CHARMAP_ENCODINGS, UTF8_DETECTOR_RE

__all__ = ["PREFILTER_RE2", "Mojibake", "MojibakeKind", "find_mojibake", "might_be_damaged",
           "suspicious_part"]

MojibakeKind = Literal["mojibake", "lossy", "c1-controls"]


@dataclass(frozen=True, slots=True)
class Mojibake:
    """What is wrong with a text: ``kind``, the proposed ``repaired`` text and the ``chain``.

    ``repaired`` is ``None`` when the damage cannot be undone (``lossy``, or mojibake that no
    decode chain explains). ``spans`` are ``(start, end)`` character offsets of the suspicious
    parts of the original text. The repair is a proposal: re-decode from the retained bytes where
    they exist (seed 000) rather than rewriting stored text.
    """

    kind: MojibakeKind
    repaired: str | None
    chain: str
    spans: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for JSON."""
        return asdict(self)


# --- the prefilter, generated from ftfy's encodings ------------------------------------------

def _char_class(chars: str, re2: bool) -> str:
    """A character class for ``chars`` with every code point escaped (valid in re and RE2)."""
    points = sorted(set(map(ord, chars)))
    parts: list[str] = []

    def esc(cp: int) -> str:
        return f"\\x{{{cp:X}}}" if re2 else f"\\U{cp:08X}"

    start = prev = points[0]
    for cp in [*points[1:], -1]:
        if cp == prev + 1:
            prev = cp
            continue
        parts.append(esc(start) if start == prev else f"{esc(start)}-{esc(prev)}")
        start = prev = cp
    return "[" + "".join(parts) + "]"


def _shapes(encoding: str) -> list[tuple[str, ...]]:
    """The character-class sequences UTF-8 takes when read as ``encoding`` (ftfy's codec)."""
    def chars(*ranges: tuple[int, int]) -> str:
        return b"".join(bytes(range(lo, hi + 1)) for lo, hi in ranges).decode(encoding)

    lead2, lead3, lead4 = chars((0xC2, 0xDF)), chars((0xE0, 0xEF)), chars((0xF0, 0xF4))
    cont = chars((0x80, 0xBF))
    return [
        (lead2, cont), (lead3, cont, cont), (lead4, cont, cont, cont),   # intact sequences
        # A0 turned into a space: ftfy's ALTERED_UTF8_RE, which restore_byte_a0 repairs
        (chars((0xC2, 0xC3), (0xC5, 0xC5), (0xCE, 0xCE), (0xD0, 0xD0), (0xD9, 0xD9)), " "),
        (chars((0xE2, 0xE3)), " ", cont), (chars((0xE0, 0xE3)), cont, " "),
        (chars((0xF0, 0xF0)), " ", cont, cont), (chars((0xF0, 0xF0)), cont, " ", cont),
        (chars((0xF0, 0xF0)), cont, cont, " "),
        # a continuation byte lost to "?": ftfy's LOSSY_UTF8_RE, which replace_lossy_sequences uses
        (chars((0xC2, 0xC3)), "?"), (lead3, "?", cont), (lead3, cont, "?"),
        (lead4, "?", cont, cont), (lead4, cont, "?", cont), (lead4, cont, cont, "?"),
    ]


# C1 controls (windows-1252 read as iso-8859-1, or UTF-8 read as iso-8859-1) and U+FFFD
_LONE = "".join(map(chr, range(0x80, 0xA0))) + "\ufffd"
_SHAPES = sorted({shape for encoding in CHARMAP_ENCODINGS for shape in _shapes(encoding)}
                 | {(_LONE,)})


def _shape_masks() -> tuple[list[dict[str, int]], list[int]]:
    """For each position in a shape, which shapes (bits) each character can stand in."""
    masks: list[dict[str, int]] = [{}, {}, {}, {}]
    by_length = [0, 0, 0, 0]   # index: length - 1
    for bit, shape in enumerate(_SHAPES):
        by_length[len(shape) - 1] |= 1 << bit
        for position, chars in enumerate(shape):
            for char in chars:
                masks[position][char] = masks[position].get(char, 0) | 1 << bit
    return masks, by_length


_MASKS, _LENGTH_BITS = _shape_masks()


def _candidates_pattern() -> str:
    """Where a shape may start: a first character followed by a second of the same shape."""
    firsts_by_second: dict[str, set[str]] = {}
    for shape in _SHAPES:
        if len(shape) > 1:
            firsts_by_second.setdefault(shape[1], set()).update(shape[0])
    firsts = "".join("".join(chars) for chars in firsts_by_second.values())
    pairs = [f"(?<={_char_class(''.join(chars), False)})(?={_char_class(second, False)})"
             for second, chars in sorted(firsts_by_second.items())]
    # Python's re skips ahead fast only when a pattern starts with one character class: take
    # any first character, then look back at it and ahead at the next one.
    return (f"{_char_class(firsts + _LONE, False)}"
            f"(?:(?<={_char_class(_LONE, False)})|{'|'.join(pairs)})")


_CANDIDATES = re.compile(_candidates_pattern())


def _damage_spans(text: str) -> list[tuple[int, int]]:
    """The shapes in ``text`` (leftmost, longest, not overlapping), as character spans."""
    spans: list[tuple[int, int]] = []
    masks, lengths, end, size = _MASKS, _LENGTH_BITS, 0, len(text)
    for match in _CANDIDATES.finditer(text):
        start = match.start()
        if start < end:
            continue
        bits = masks[0].get(text[start], 0)
        length = 1 if bits & lengths[0] else 0
        position, stop = 1, min(4, size - start)
        while position < stop:
            bits &= masks[position].get(text[start + position], 0)
            if not bits:
                break
            position += 1
            if bits & lengths[position - 1]:
                length = position
        if length:
            end = start + length
            spans.append((start, end))
    return spans


def _re2_pattern() -> str:
    return "|".join(sorted({"".join(_char_class(s, True) for s in shape) for shape in _SHAPES}))


# RE2's \s is ASCII only: add every character Python's str.isspace() accepts
_RE2_SPACE = r"\s\p{Z}\x{0b}\x{1c}-\x{1f}\x{85}"
_RE2_TOKEN = rf"[^{_RE2_SPACE}=&/:#%@\\]*"

#: The prefilter for RE2 (``pyarrow.compute.match_substring_regex``): every shape, and a token
#: without URL characters that has a ``?`` between letters or digits. It matches a superset of
#: what ``might_be_damaged`` accepts.
PREFILTER_RE2 = (f"{_re2_pattern()}|(?:^|[{_RE2_SPACE}]){_RE2_TOKEN}[\\pL\\pN]\\?+[\\pL\\pN]"
                 f"{_RE2_TOKEN}(?:$|[{_RE2_SPACE}])")


def might_be_damaged(text: str) -> bool:
    """The prefilter: False means ``find_mojibake(text)`` is certainly ``None``.

    >>> might_be_damaged("NÃO"), might_be_damaged("JosÃ©"), might_be_damaged("Why?")
    (False, True, False)
    """
    if not text.isascii() and _damage_spans(text):
        return True
    return "?" in text and bool(_question_marks(text))


# --- "?" where a letter was ------------------------------------------------------------------

_TOKEN = re.compile(r"\S+")
_URLISH = frozenset("=&/:#%@\\")                               # URLs, e-mail, paths, code
_QMARK_INNER = re.compile(r"(?<=[^\W\d_])\?+(?=[^\W\d_])")      # Garc?a
_QMARK_START = re.compile(r"^\?+(?=[^\W\d_]{2})")               # ?lvaro
_QMARK_END = re.compile(r"(?<=[^\W\d_])\?+$")                   # Jos? ...
_NEXT_WORD = re.compile(r"\s+[^\W\d_]")                          # ... before another word


def _question_marks(text: str) -> list[tuple[int, int]]:
    """``?`` where a letter was: inside a word, then (once seen) at word starts and ends."""
    tokens = [t for t in _TOKEN.finditer(text)
              if "?" in t.group() and _URLISH.isdisjoint(t.group())]
    inner = [(t.start() + m.start(), t.start() + m.end())
             for t in tokens for m in _QMARK_INNER.finditer(t.group())]
    if not inner:
        return []
    edges = [(t.start() + m.start(), t.start() + m.end()) for t in tokens
             for m in (_QMARK_START.search(t.group()), _QMARK_END.search(t.group())) if m and (
                 m.start() == 0 or _NEXT_WORD.match(text, t.end()))]
    return inner + edges


# --- explaining ftfy's plan in WHATWG names --------------------------------------------------

_WHATWG_NAME = {enc: enc.removeprefix("sloppy-") for enc in CHARMAP_ENCODINGS}
_WHATWG_NAME.update({"latin-1": "iso-8859-1", "macroman": "macintosh", "cp437": "ibm437",
                     "utf-8-variants": "utf-8"})
# C1 controls WHATWG's windows-1252 does not produce (it maps 81 8D 8F 90 9D to U+0081 ...)
_C1_NOT_1252 = re.compile("[\x80\x82-\x8c\x8e\x91-\x9c\x9e\x9f]")
_C1_CHAIN = "windows-1252 read as iso-8859-1"
_COUNT = {2: "twice", 3: "three times"}


@dataclass(frozen=True, slots=True)
class _Layer:
    text: str          # one misreading, e.g. "utf-8 read as windows-1252"
    c1: bool = False
    lossy: bool = False


def _read_as(ftfy_encoding: str, text_read: str) -> str:
    if ftfy_encoding == "latin-1" and not _C1_NOT_1252.search(text_read):
        return "windows-1252"   # deviation: see the module docstring
    return _WHATWG_NAME.get(ftfy_encoding, ftfy_encoding)


def _layers(text: str, steps: Iterable[tuple[str, str]]) -> list[_Layer]:
    """Replay ftfy's plan (as ``ftfy.apply_plan`` does) and name each misreading it undoes."""
    layers: list[_Layer] = []
    current, raw, encoded_as = text, b"", ""
    notes: list[str] = []
    for action, parameter in steps:
        if action == "encode":
            raw, encoded_as, notes = current.encode(parameter), parameter, []
        elif action == "transcode" and encoded_as:
            raw = ftfy.FIXERS[parameter](raw)
            notes.append(parameter)
        elif action == "decode":
            decoded = raw.decode(parameter)
            if encoded_as == "latin-1" and parameter == "windows-1252":
                layers.append(_Layer(_C1_CHAIN, c1=True))
            else:
                words = f"{_WHATWG_NAME.get(parameter, parameter)} read as " \
                        f"{_read_as(encoded_as, current)}"
                if "restore_byte_a0" in notes:
                    words += ", no-break spaces turned into spaces"
                lost = "replace_lossy_sequences" in notes
                layers.append(_Layer(words + (", some bytes lost" if lost else ""), lossy=lost))
            current, encoded_as = decoded, ""
        elif parameter == "fix_c1_controls":
            current = ftfy.FIXERS[parameter](current)
            layers.append(_Layer(_C1_CHAIN, c1=True))
        else:   # "apply", "decode_inconsistent_utf8": mojibake in parts of the text
            layers.append(_Layer(_in_parts(current)))
            current = ftfy.FIXERS[parameter](current)
    return layers


def _in_parts(text: str) -> str:
    for match in UTF8_DETECTOR_RE.finditer(text):
        part = match.group(0)
        if len(part) < len(text) and is_bad(part):
            inner = _layers(part, ftfy.fix_encoding_and_explain(part).explanation or [])
            if inner:
                return f"{_chain(inner)}, in parts of the text"
    return "utf-8 read as a single-byte encoding, in parts of the text"


def _reread_whole(text: str) -> tuple[str, list[_Layer]]:
    """The second rule: all of ``text``, encoded as one of ftfy's encodings, is valid UTF-8.

    ``is_bad`` misses some common mojibake (UTF-8 read as windows-1251: ``РњРѕСЃРєРІР°``;
    as macintosh: ``–ú–æ—Å–∫–≤–∞``). Legitimate text is practically never valid UTF-8 by
    accident once every non-ASCII character must fall in a sequence; the exceptions are short
    (French ``l’Église`` in macintosh is ``lՃglise``), so the reading must also take two
    sequences, or one in a text that also has ASCII letters (``JosГ©``), and must not leave a
    word that mixes scripts.
    """
    first = _NON_ASCII.search(text)
    leads = _LEAD_IN.get(first.group(), ()) if first else ()
    for encoding in leads:
        try:
            decoded = text.encode(encoding).decode("utf-8")
        except UnicodeError:
            continue
        sequences = len(decoded) - len(decoded.encode("ascii", "ignore"))
        if (sequences >= 2 or (sequences == 1 and _ASCII_LETTER.search(text))) and not any(
                _mixes_scripts(word) for word in _WORD.findall(decoded)):
            return decoded, [_Layer(f"utf-8 read as {_read_as(encoding, text)}")]
    return text, []


_ASCII_LETTER = re.compile("[A-Za-z]")
_NON_ASCII = re.compile("[^\x00-\x7f]")
# character -> the encodings (in ftfy's order) where it is a UTF-8 lead byte: the first
# non-ASCII character of a text that re-reads as UTF-8 must be one
_LEAD_IN: dict[str, tuple[str, ...]] = {}
for _encoding in CHARMAP_ENCODINGS:
    for _char in bytes(range(0xC2, 0xF5)).decode(_encoding):
        _LEAD_IN[_char] = (*_LEAD_IN.get(_char, ()), _encoding)
_WORD = re.compile(r"[^\W\d_]*[^\W\d_\x00-\x7f][^\W\d_]*")   # a word with a non-ASCII letter
_SAME_SCRIPT = {"HIRAGANA": "CJK", "KATAKANA": "CJK"}  # Japanese writes one word in all three


def _mixes_scripts(word: str) -> bool:
    """True when a word's letters come from more than one script (by Unicode character name)."""
    if max(word) < "\u0250":   # ASCII, Latin-1 Supplement, Latin Extended-A and -B
        return False
    scripts = set()
    for char in word:
        if char < "\u0250":   # ASCII, Latin-1 Supplement, Latin Extended-A and -B
            scripts.add("LATIN")
            continue
        script = unicodedata.name(char, "?").split(" ", 1)[0]
        scripts.add(_SAME_SCRIPT.get(script, script))
    return len(scripts) > 1


def _chain(layers: list[_Layer]) -> str:
    """The misreadings in the order they happened (ftfy undoes the last one first)."""
    groups: list[list[Any]] = []
    for layer in reversed(layers):
        if groups and groups[-1][0] == layer.text:
            groups[-1][1] += 1
        else:
            groups.append([layer.text, 1])
    return "; then ".join(text if n == 1 else f"{text}, {_COUNT.get(n, f'{n} times')}"
                          for text, n in groups)


def _merge(spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return tuple(merged)


def _repair(text: str) -> tuple[str, list[_Layer], bool]:
    """The repaired text, the misreadings undone (in fix order), and whether ``is_bad`` alone.

    The cheap whole-text re-read goes first; whatever it cannot explain goes to ftfy, which
    repairs only what ``is_bad`` flags. Where the re-read succeeds, ftfy would have taken the
    same step (it tries the same encodings in the same order and decodes the same bytes).
    """
    current, layers = text, list[_Layer]()
    for _ in range(_MAX_LAYERS):
        decoded, layer = _reread_whole(current)
        if not layer:
            break
        current, layers = decoded, layers + layer
        if not _CANDIDATES.search(current) or not _damage_spans(current):
            return current, layers, False
    if not is_bad(current) or not (layers or _damage_spans(current)):
        return current, layers, False   # (ftfy is only asked about text with a shape)
    fixed, steps = ftfy.fix_encoding_and_explain(current)
    more = _layers(current, steps or [])
    return fixed, layers + more, not layers and not more


_MAX_LAYERS = 8


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
    if text.isascii():
        if "?" not in text:
            return None
        marks = _question_marks(text)
        return Mojibake("lossy", None, _LOST_QMARK, _merge(marks)) if marks else None
    marks = _question_marks(text) if "?" in text else []
    fixed, layers, unexplained = text, list[_Layer](), False
    if _CANDIDATES.search(text):
        fixed, layers, unexplained = _repair(text)
    if not (layers or unexplained or marks or "\ufffd" in text):
        return None
    parts = [_chain(layers)] if layers else []
    if unexplained:
        parts.append("unexplained: looks like mojibake, but no decode chain repairs it")
    if "\ufffd" in text and not any(layer.lossy for layer in layers):
        parts.append(_LOST_FFFD)
    if marks:
        parts.append(_LOST_QMARK)
    spans = _merge([*_damage_spans(text), *marks])
    chain = "; ".join(parts)
    if marks or "\ufffd" in fixed or any(layer.lossy for layer in layers):
        return Mojibake("lossy", None, chain, spans)
    if not layers:
        return Mojibake("mojibake", None, chain, spans)
    kind: MojibakeKind = "c1-controls" if all(layer.c1 for layer in layers) else "mojibake"
    return Mojibake(kind, fixed, chain, spans)


_LOST_FFFD = "undecodable bytes were replaced by U+FFFD"
_LOST_QMARK = "letters were replaced by '?' (written in an encoding that lacks them)"


def suspicious_part(text: str, finding: Mojibake, context: int = 40) -> str:
    """The first suspicious span of ``text`` with ``context`` characters either side.

    >>> suspicious_part("a" * 100 + "Ã©" + "b" * 100, find_mojibake("a" * 100 + "Ã©"), 3)
    'aaaÃ©bbb'
    """
    if not finding.spans:
        return text[: 2 * context]
    start, end = finding.spans[0]
    return text[max(0, start - context): end + context]
