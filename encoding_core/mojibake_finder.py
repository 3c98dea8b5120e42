"""``MojibakeFinder``: how ``find_mojibake`` decides, for one text or many (a scan).

Only text that passes the prefilter (``mojibake_prefilter``: the *shape* UTF-8 takes when read
as one of ftfy's single-byte encodings, a C1 control, U+FFFD or a ``?`` inside a word) is looked
at closely, and only two rules report mojibake:

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

The finding's ``chain`` replays ftfy's plan (as ``ftfy.apply_plan`` does) and names each
misreading it undoes, in the order they happened, in WHATWG names. Differences from the
Encoding Standard (in the ``chain`` text):

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

The record ``Mojibake`` lives here, because the finder builds it; ``encoding_core.mojibake``
re-exports it with everything else public in this module.
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

from .mojibake_prefilter import SpanCache, question_marks

__all__ = ["Finding", "Mojibake", "MojibakeFinder", "MojibakeKind"]

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


_ASCII_LETTER = re.compile("[A-Za-z]")
_NON_ASCII = re.compile("[^\x00-\x7f]")
# character -> the encodings (in ftfy's order) where it is a UTF-8 lead byte: the first
# non-ASCII character of a text that re-reads as UTF-8 must be one
_LEAD_IN: dict[str, tuple[str, ...]] = {}
for _encoding in CHARMAP_ENCODINGS:
    for _char in bytes(range(0xC2, 0xF5)).decode(_encoding):
        _LEAD_IN[_char] = (*_LEAD_IN.get(_char, ()), _encoding)
_LETTERS = re.compile(r"[^\W\d_]+")   # a word
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


_MAX_LAYERS = 8
# What a re-read sees of ASCII: a space, "?", a (Latin) letter or some other character; so
# masking the letters and the rest keeps its answer (UTF-8 bytes >= 0x80 are never ASCII).
_MASK_ASCII = bytes(b if b >= 0x80 or b in b" ?" else 97 if chr(b).isalpha() else 48
                    for b in range(256))
# ... and ``is_bad`` sees every ASCII digit alike (tests/test_mojibake.py checks it)
_MASK_DIGITS = bytes(48 if 48 <= b <= 57 else b for b in range(256))
# a finding as a recipe: kind, the encodings re-read (None: no repair), chain, spans; () is None
_Recipe = tuple[MojibakeKind, tuple[str, ...] | None, str, tuple[tuple[int, int], ...]] | tuple[()]
_BY_REREADS, _BY_IS_BAD = 1, 2   # how a finding was reached: rereads alone; also is_bad
_LONGEST_CACHED = 1_000   # characters; a cache holds at most its size of such texts
#: A finding as plain data: ``Mojibake``'s fields (kind, repaired, chain, spans), in order.
Finding = tuple[MojibakeKind, str | None, str, tuple[tuple[int, int], ...]]


class MojibakeFinder:
    """``find_mojibake`` for many texts (a scan): each distinct text, piece and word looked at once.

    Texts without ``?`` or U+FFFD share findings with texts that differ from them only where the
    finding cannot depend on it. A re-read sees ASCII characters other than the space and
    ``?`` only as "a Latin letter" or "not a letter": each is encoded and decoded as itself, is
    in no shape, and counts as Latin in a word. So a finding reached by re-reads alone is
    shared by the texts with those characters masked alike (``Ð£Ð»Ð¸Ñ†Ð° 12`` and ``Ð£Ð»Ð¸Ñ†Ð°
    7`` are ``Ð£Ð»Ð¸Ñ†Ð° 00``; ``JosÃ© Smith`` and ``JosÃ© Nowak`` are ``aaaÃ© aaaaa``), and
    one that also asked ``is_bad`` (but not ftfy's repair) by the texts with their digits
    masked. The caches are bounded and belong to the finder, so a scan starts cold and one
    scan does not speed up the next; the results are exactly those of ``find_mojibake``. A
    finder is not thread-safe: use one per thread.

    >>> finder = MojibakeFinder()
    >>> finder.find("Jos\\u00c3\\u00a9 12").repaired, finder.explain("Ana\\u00c3\\u00a9 7")
    ('José 12', ('mojibake', 'Anaé 7', 'utf-8 read as windows-1252', ((3, 5),)))
    """

    __slots__ = ("_by_ascii", "_by_digits", "_chains", "_mixed", "_results", "_size", "_spans")

    def __init__(self, size: int = 100_000) -> None:
        self._size = size
        self._results: dict[str, Finding | None] = {}
        self._spans = SpanCache(size)
        self._mixed: dict[str, bool] = {}
        self._chains: dict[tuple[str, ...], str] = {}
        # masked text -> the recipe, or None where the finding is not reached that way
        self._by_ascii: dict[bytes, _Recipe | None] = {}
        self._by_digits: dict[bytes, _Recipe | None] = {}

    def find(self, text: str) -> Mojibake | None:
        """``find_mojibake(text)``."""
        finding = self.explain(text)
        return None if finding is None else Mojibake(*finding)

    def explain(self, text: str) -> Finding | None:
        """``find(text)`` as plain data (no object to build), once per distinct text."""
        results = self._results
        if text in results:
            return results[text]
        if len(text) > _LONGEST_CACHED:   # (long texts rarely repeat; memory stays bounded)
            return self._find(text)[0]
        if len(results) >= self._size:
            results.clear()
        result = results[text] = self._find_shared(text)
        return result

    def _find_shared(self, text: str) -> Finding | None:
        if "?" in text or "\ufffd" in text or text.isascii():
            return self._find(text)[0]
        raw = text.encode("utf-8", "surrogatepass")
        key, caches = raw.translate(_MASK_ASCII), (self._by_ascii, self._by_digits)
        for level, cache in enumerate(caches, 1):
            if key not in cache:
                if len(cache) >= self._size:
                    cache.clear()
                result, reached, recipe = self._find(text)
                cache[key] = recipe if reached == level else None
                if level == _BY_REREADS and reached != _BY_REREADS:
                    if len(caches[1]) >= self._size:
                        caches[1].clear()
                    caches[1][raw.translate(_MASK_DIGITS)] = recipe if reached else None
                return result
            known = cache[key]
            if known is not None:
                return _replay(known, text)
            key = raw.translate(_MASK_DIGITS)
        return self._find(text)[0]

    def _find(self, text: str) -> tuple[Finding | None, int, _Recipe]:
        """The finding, how it was reached (0, _BY_REREADS, _BY_IS_BAD) and its recipe."""
        if text.isascii():
            if "?" not in text:
                return None, 0, ()
            marks = question_marks(text)
            return (("lossy", None, _LOST_QMARK, _merge(marks)) if marks else None), 0, ()
        marks = question_marks(text) if "?" in text else []
        layers: list[_Layer] = []
        rereads: tuple[str, ...] = ()
        fixed, unexplained, spans, reached = text, False, self._spans.spans(text), 0
        if spans:   # (without a shape, the text does not re-read as UTF-8 nor goes to ftfy)
            fixed, layers, unexplained, reached, rereads = self._repair(text)
        if marks or "\ufffd" in text:
            reached = 0
        if not (layers or unexplained or marks or "\ufffd" in text):
            return None, reached, ()
        lost = False
        for layer in layers:
            lost = lost or layer.lossy
        parts = [self._chain(layers)] if layers else []
        if unexplained:
            parts.append("unexplained: looks like mojibake, but no decode chain repairs it")
        if "\ufffd" in text and not lost:
            parts.append(_LOST_FFFD)
        if marks:
            parts.append(_LOST_QMARK)
            # (the pieces' spans are merged already: merging them with the marks is the same)
            spans = _merge([*spans, *marks])
        chain = "; ".join(parts)
        if marks or lost or "\ufffd" in fixed:
            return ("lossy", None, chain, spans), reached, ("lossy", None, chain, spans)
        if not layers:
            return ("mojibake", None, chain, spans), reached, ("mojibake", None, chain, spans)
        kind: MojibakeKind = "c1-controls" if all(layer.c1 for layer in layers) else "mojibake"
        return (kind, fixed, chain, spans), reached, (kind, rereads, chain, spans)

    def _repair(self, text: str) -> tuple[str, list[_Layer], bool, int, tuple[str, ...]]:
        """The repaired text, the misreadings undone (in fix order), whether ``is_bad`` alone,
        how it was reached (_BY_REREADS, _BY_IS_BAD or 0: ftfy) and the encodings re-read.

        The cheap whole-text re-read goes first; whatever it cannot explain goes to ftfy, which
        repairs only what ``is_bad`` flags. Where the re-read succeeds, ftfy would have taken the
        same step (it tries the same encodings in the same order and decodes the same bytes).
        """
        current, layers, encodings = text, list[_Layer](), list[str]()
        for _ in range(_MAX_LAYERS):
            decoded, layer, encoding = self._reread_whole(current)
            if layer is None:
                break
            current = decoded
            layers.append(layer)
            encodings.append(encoding)
            if not self._spans.any(current):
                return current, layers, False, _BY_REREADS, tuple(encodings)
        if not is_bad(current) or not (layers or self._spans.any(current)):
            # (ftfy is only asked about text with a shape)
            return current, layers, False, _BY_IS_BAD, tuple(encodings)
        fixed, steps = ftfy.fix_encoding_and_explain(current)
        more = _layers(current, steps or [])
        return fixed, layers + more, not layers and not more, 0, ()

    def _reread_whole(self, text: str) -> tuple[str, _Layer | None, str]:
        """The second rule: all of ``text``, encoded as one of ftfy's encodings, is valid UTF-8.

        ``is_bad`` misses some common mojibake (UTF-8 read as windows-1251: ``РњРѕСЃРєРІР°``;
        as macintosh: ``–ú–æ—Å–∫–≤–∞``). Legitimate text is practically never valid UTF-8 by
        accident once every non-ASCII character must fall in a sequence; the exceptions are
        short (French ``l’Église`` in macintosh is ``lՃglise``), so the reading must also take
        two sequences, or one in a text that also has ASCII letters (``JosГ©``), and must not
        leave a word that mixes scripts.
        """
        first = _NON_ASCII.search(text)
        leads = _LEAD_IN.get(first.group(), ()) if first else ()
        for encoding in leads:
            try:
                decoded = text.encode(encoding).decode("utf-8")
            except UnicodeError:
                continue
            sequences = len(decoded) - len(decoded.encode("ascii", "ignore"))
            if (sequences >= 2 or (sequences == 1 and _ASCII_LETTER.search(text))) and \
                    not self._mixes_scripts(decoded):
                return decoded, _READ_AS[_read_as(encoding, text)], encoding
        return text, None, ""

    def _mixes_scripts(self, text: str) -> bool:
        """Whether a word of ``text`` mixes scripts (``_mixes_scripts``, once per word)."""
        mixed = self._mixed
        for word in _LETTERS.findall(text):
            if word.isascii():
                continue
            found = mixed.get(word)
            if found is None:
                if len(mixed) >= self._size:
                    mixed.clear()
                found = _mixes_scripts(word)
                if len(word) <= _LONGEST_CACHED:
                    mixed[word] = found
            if found:
                return True
        return False

    def _chain(self, layers: list[_Layer]) -> str:
        key = tuple(layer.text for layer in layers)
        found = self._chains.get(key)
        if found is None:
            found = self._chains[key] = _chain(layers)
        return found


_READ_AS = {name: _Layer(f"utf-8 read as {name}") for name in {*_WHATWG_NAME.values(),
                                                               "windows-1252"}}


def _replay(recipe: _Recipe, text: str) -> Finding | None:
    """The finding in ``text`` that ``recipe`` describes (re-reading ``text`` for the repair)."""
    if not recipe:
        return None
    kind, encodings, chain, spans = recipe
    if encodings is None:
        return kind, None, chain, spans
    for encoding in encodings:
        text = text.encode(encoding).decode("utf-8")
    return kind, text, chain, spans


_LOST_FFFD = "undecodable bytes were replaced by U+FFFD"
_LOST_QMARK = "letters were replaced by '?' (written in an encoding that lacks them)"
