"""``MojibakeFinder``: how ``find_mojibake`` decides, for one text or many (a scan).

Only text that passes the prefilter (``prefilter``: the *shape* UTF-8 takes when read
as one of ftfy's single-byte encodings, a C1 control, U+FFFD or a ``?`` inside a word) is looked
at closely, and only two rules report mojibake:

1. ftfy's: ``is_bad`` flags the text, and ``fix_encoding_and_explain`` says how to repair it
   (or cannot: then the finding has no repair, and its chain says "unexplained");
2. the whole text, encoded as one of ftfy's encodings, is valid UTF-8 with at least two
   multi-byte sequences (one, in a text that also has ASCII letters), and the result has no
   word that mixes scripts (``reread``). ftfy would take exactly this step when
   ``is_bad`` agrees, so it is tried first, as the cheap path; it also finds what ``is_bad``
   misses, notably UTF-8 read as windows-1251 (``РњРѕСЃРєРІР°``) or macintosh (``–ú–æ—Å–∫–≤–∞``).

Legitimate text in any script rarely has the shape (``NÃO``: Ã is a lead byte, but O is not a
continuation byte); when it does (French ``l’Église`` in macintosh), ftfy says no and the
re-read gives ``lՃglise``, a word in two scripts. The module errs towards **not** flagging.

The finding's ``chain`` replays ftfy's plan and names each misreading it undoes, in the order
they happened, in WHATWG names: ``chain``, with its table of differences from the
Encoding Standard.

The record ``Mojibake`` lives here, because the finder builds it; ``encoding_core.fields.mojibake``
re-exports it with everything else public in this module.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal, NamedTuple

import ftfy
from ftfy.badness import is_bad

from ..wording import plural
from .chain import Layer, chain_of, plan_layers
from .plausible import implausible_repair, quoted_on_purpose
from .prefilter import SpanCache, merge_spans, question_marks
from .reread import Rereader

__all__ = ["Finding", "Mojibake", "MojibakeFinder", "MojibakeKind", "unless_quoted"]

MojibakeKind = Literal["mojibake", "partly-repairable", "lossy", "c1-controls"]


@dataclass(frozen=True, slots=True)
class Mojibake:
    """What is wrong with a text: ``kind``, the proposed ``repaired`` text and the ``chain``.

    ``repaired`` is ``None`` when the damage cannot be undone (``lossy``, or mojibake that no
    decode chain explains). ``partly-repairable``: a decode chain repairs the text but some of
    its characters stay lost (U+FFFD, or ``?`` written for a letter); ``repaired`` holds them
    where they were, ``lost`` counts them. ``spans`` are ``(start, end)`` character offsets of
    the suspicious parts of the original text. The repair is a proposal: re-decode from the
    retained bytes where they exist (seed 000) rather than rewriting stored text.
    """

    kind: MojibakeKind
    repaired: str | None
    chain: str
    spans: tuple[tuple[int, int], ...]

    @property
    def lost(self) -> int:
        """Characters the repair cannot bring back (U+FFFD, ``?`` inside words); 0 if none.

        >>> Mojibake("partly-repairable", "O’Brien said “hello\ufffd", "", ()).lost
        1
        """
        if self.repaired is None:
            return 0
        return self.repaired.count("\ufffd") + len(question_marks(self.repaired))

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for JSON (with ``lost``)."""
        return asdict(self) | {"lost": self.lost}


_MAX_LAYERS = 8
# What a re-read sees of ASCII: a space, "?", a (Latin) letter or some other character; so
# masking the letters and the rest keeps its answer (UTF-8 bytes >= 0x80 are never ASCII).
# (case is kept: ``plausible`` asks whether a capitalised word gains a lower-case letter)
_MASK_ASCII = bytes(b if b >= 0x80 or b in b" ?" else 65 if chr(b).isupper()
                    else 97 if chr(b).isalpha() else 48 for b in range(256))
# ... and ``is_bad`` sees every ASCII digit alike (tests/fields/test_mojibake.py checks it)
_MASK_DIGITS = bytes(48 if 48 <= b <= 57 else b for b in range(256))
# a finding as a recipe: kind, the encodings re-read (None: no repair), chain, spans; () is None
_Recipe = tuple[MojibakeKind, tuple[str, ...] | None, str, tuple[tuple[int, int], ...]] | tuple[()]
_BY_REREADS, _BY_IS_BAD = 1, 2   # how a finding was reached: rereads alone; also is_bad
_LONGEST_CACHED = 1_000   # characters; a cache holds at most its size of such texts
# characters of the texts explained since the caches were last emptied: whatever the size, the
# texts, their masked keys and their words are forgotten past it (100,000 texts of 1,000
# characters would otherwise be 100 MB and more, over a scan's chunk budget)
_HELD_CHARS = 1 << 22


class Finding(NamedTuple):
    """A finding as plain data: ``Mojibake``'s fields, in order (a named tuple: cheaper to
    build once per distinct text than the ``Mojibake`` record)."""

    kind: MojibakeKind
    repaired: str | None
    chain: str
    spans: tuple[tuple[int, int], ...]


class MojibakeFinder:
    """``find_mojibake`` for many texts (a scan): each distinct text, piece and word looked at once.

    Texts without ``?`` or U+FFFD share findings with texts that differ from them only where the
    finding cannot depend on it. A re-read sees ASCII characters other than the space and
    ``?`` only as "a Latin letter" or "not a letter": each is encoded and decoded as itself, is
    in no shape, and counts as Latin in a word. So a finding reached by re-reads alone is
    shared by the texts with those characters masked alike (``Ð£Ð»Ð¸Ñ†Ð° 12`` and ``Ð£Ð»Ð¸Ñ†Ð°
    7`` are ``Ð£Ð»Ð¸Ñ†Ð° 00``; ``JosÃ© Smith`` and ``JosÃ© Nowak`` are ``aaaÃ© aaaaa``), and
    one that also asked ``is_bad`` (but not ftfy's repair) by the texts with their digits
    masked. The caches are bounded (``size`` entries each, and ``_HELD_CHARS`` characters of
    the texts explained between them: ``cached`` counts) and belong to the finder, so a scan
    starts cold and one scan does not speed up the next; the results are exactly those of
    ``find_mojibake`` (``tests/fields/test_finder.py``). A finder is not thread-safe: use one
    per thread.

    >>> finder = MojibakeFinder()
    >>> finder.find("Jos\\u00c3\\u00a9 12").repaired, finder.explain("Ana\\u00c3\\u00a9 7").repaired
    ('José 12', 'Anaé 7')
    """

    __slots__ = ("_by_ascii", "_by_digits", "_chains", "_held", "_reread", "_results", "_size",
                 "_spans")

    def __init__(self, size: int = 100_000) -> None:
        self._size = size
        self._held = 0
        self._results: dict[str, Finding | None] = {}
        self._spans = SpanCache(size)
        self._reread = Rereader(size)
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
            return unless_quoted(text, self._find(text)[0])
        if len(results) >= self._size:
            results.clear()
        self._held += len(text)
        if self._held > _HELD_CHARS:
            self._forget()
        result = results[text] = unless_quoted(text, self._find_shared(text))
        return result

    def _forget(self) -> None:
        """Empty the caches that hold texts, keys or words (the answers stay the same)."""
        self._held = 0
        for cache in (self._results, self._by_ascii, self._by_digits):
            cache.clear()
        self._reread = Rereader(self._size)

    def cached(self) -> int:
        """How many entries the caches that hold texts, keys or words hold now (for tests)."""
        return (len(self._results) + len(self._by_ascii) + len(self._by_digits)
                + self._reread.cached())

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
            return (Finding("lossy", None, _LOST_QMARK, merge_spans(marks)) if marks
                    else None), 0, ()
        marks = question_marks(text) if "?" in text else []
        layers: list[Layer] = []
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
            spans = merge_spans([*spans, *marks])
        chain = "; ".join(parts)
        if marks or lost or "\ufffd" in fixed:
            if layers and fixed != text:  # repaired but for what was lost: offer it, say what
                count = fixed.count("\ufffd") + len(question_marks(fixed))
                chain = (f"{chain} ({plural(count, 'character')} "
                         f"{'stays' if count == 1 else 'stay'} lost)") if count else chain
                return (Finding("partly-repairable", fixed, chain, spans), reached,
                        ("partly-repairable", rereads, chain, spans))
            return Finding("lossy", None, chain, spans), reached, ("lossy", None, chain, spans)
        if not layers:
            return (Finding("mojibake", None, chain, spans), reached,
                    ("mojibake", None, chain, spans))
        kind: MojibakeKind = "c1-controls" if all(layer.c1 for layer in layers) else "mojibake"
        return Finding(kind, fixed, chain, spans), reached, (kind, rereads, chain, spans)

    def _repair(self, text: str) -> tuple[str, list[Layer], bool, int, tuple[str, ...]]:
        """The repaired text, the misreadings undone (in fix order), whether ``is_bad`` alone,
        how it was reached (_BY_REREADS, _BY_IS_BAD or 0: ftfy) and the encodings re-read.

        The cheap whole-text re-read goes first; whatever it cannot explain goes to ftfy, which
        repairs only what ``is_bad`` flags. Where the re-read succeeds, ftfy would have taken the
        same step (it tries the same encodings in the same order and decodes the same bytes).
        """
        current, layers, encodings = text, list[Layer](), list[str]()
        for _ in range(_MAX_LAYERS):
            decoded, layer, encoding = self._reread.reread_whole(current)
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
        if fixed != current and implausible_repair(current, fixed):
            # is_bad weighs the text, not the repair: one into rare letters, marks of another
            # script or private use is no repair, and the text is taken as it stands
            return current, layers, False, 0, ()
        more = plan_layers(current, steps or [])
        return fixed, layers + more, not layers and not more, 0, ()

    def _chain(self, layers: list[Layer]) -> str:
        key = tuple(layer.text for layer in layers)
        found = self._chains.get(key)
        if found is None:
            found = self._chains[key] = chain_of(layers)
        return found


def unless_quoted(text: str, finding: Finding | None) -> Finding | None:
    """``finding``, unless the text shows its mojibake on purpose (``quoted_on_purpose``).

    Asked after the caches: the answer depends on the ASCII words, which they mask.
    """
    if finding is None or finding[1] is None or finding[0] != "mojibake":
        return finding
    return None if quoted_on_purpose(text, finding[1], finding[3]) else finding


def _replay(recipe: _Recipe, text: str) -> Finding | None:
    """The finding in ``text`` that ``recipe`` describes (re-reading ``text`` for the repair)."""
    if not recipe:
        return None
    kind, encodings, chain, spans = recipe
    if encodings is None:
        return Finding(kind, None, chain, spans)
    for encoding in encodings:
        text = text.encode(encoding).decode("utf-8")
    return Finding(kind, text, chain, spans)


_LOST_FFFD = "undecodable bytes were replaced by U+FFFD"
_LOST_QMARK = "letters were replaced by '?' (written in an encoding that lacks them)"
