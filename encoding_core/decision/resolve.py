"""The walk over the sources, and what a browser would make of the same opinions.

``Opinions`` is gathered once per body (BOM, Content-Type charset, in-document
declaration). ``Walk`` tries them in ``decode``'s order, strictly, recording an ``Evidence``
for every source consulted, used or not, with why. ``browser_encoding`` applies the HTML
Standard's order to the same opinions without the steps a browser does not have (site
override, detector). The deviations from the standard are tabled in ``decode.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..whatwg.bom import browser_bom_sniff
from ..whatwg.content_type import ContentTypeCharset
from ..whatwg.decoders import ESC
from ..whatwg.labels import get_encoding
from ..whatwg.prescan import Declaration, DeclarationKind
from .attempt import DecodeAttempt, decode_as, strict_attempt, truncated_attempt
from .models import Evidence, Source, new_evidence, slot_builder
from .nulpattern import NulPattern
from .utf8profile import Utf8Profile, may_be_mostly_utf8, utf8_profile
from .utf8scan import is_ascii

__all__ = ["BROWSER_DEFAULT", "DEFAULT_DETECTOR", "DetectionLike", "Detector", "Opinions",
           "UseDefault", "Walk", "browser_encoding", "new_opinions"]

#: The fallback encoding of the HTML Standard for an English locale.
BROWSER_DEFAULT = "windows-1252"


@dataclass(frozen=True, slots=True)
class Opinions:
    """Every opinion the bytes and header offer, before any decoding."""

    bom: tuple[str, int] | None
    header: ContentTypeCharset
    declaration: Declaration | None


#: ``Opinions(bom, header, declaration)``, every field given (``models.slot_builder``: no
#: frozen ``__init__`` where compiled; 0.12 against 0.7 us here).
new_opinions: Callable[..., Opinions] = slot_builder(Opinions)


def browser_encoding(body: bytes, opinions: Opinions) -> str:
    """Implements HTML "encoding sniffing algorithm" for a browser with no detector.

    https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm

    - the Encoding Standard's BOM sniff (UTF-8, UTF-16; no UTF-32);
    - the transport layer's charset (``replacement`` included: the page shows one U+FFFD);
    - the prescan of the first 1024 bytes;
    - a ``<meta>`` found later while parsing ("change the encoding");
    - the locale default, windows-1252 (Firefox and Chrome may detect instead).

    >>> from encoding_core.whatwg.content_type import http_content_type_charset
    >>> header = http_content_type_charset("text/html;charset=latin1")
    >>> browser_encoding(b"", Opinions(None, header, None))
    'windows-1252'
    """
    sniffed = browser_bom_sniff(body)
    if sniffed is not None:
        return sniffed[0]
    if opinions.header.charset is not None:
        encoding = get_encoding(opinions.header.charset)
        if encoding is not None:
            return encoding
    declaration = opinions.declaration
    if declaration is not None and declaration.encoding is not None:
        return declaration.encoding
    return BROWSER_DEFAULT


class DetectionLike(Protocol):
    """What a detector returns: see ``detect.Detection``."""

    @property
    def encoding(self) -> str: ...
    @property
    def confidence(self) -> float: ...
    @property
    def needs_review(self) -> bool: ...
    @property
    def reason(self) -> str: ...


Detector = Callable[[bytes], DetectionLike | None]


class UseDefault:
    """Marker: use ``detect.default_detector``."""


#: The ``detector`` argument's default: ``detect.default_detector``.
DEFAULT_DETECTOR = UseDefault()
# The sources every declared page's walk notes, as module constants: reading ``Source.X``
# is an enum class attribute lookup (0.11 us here, against 0.004 for a global) and
# ``Source(kind)`` a call (0.25 us); the walk of a declared page reads half a dozen.
_BOM, _OVERRIDE, _HEADER, _META = Source.BOM, Source.OVERRIDE, Source.HTTP_HEADER, Source.META
#: A declaration's kind as its ``Source`` (the values are the same strings).
_DECLARED_SOURCE = {kind: Source(kind.value) for kind in DeclarationKind}
_SINGLE_BYTE_EXEMPT = frozenset({"utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be"})


class Walk:
    """The state of one walk: attempts so far, the evidence, the winner (an attempt and its
    source: lossy exactly when that attempt did not decode strictly)."""

    def __init__(self, body: bytes, opinions: Opinions,
                 tried: DecodeAttempt | None = None) -> None:
        self.body = body
        self.opinions = opinions
        self.evidence: list[Evidence] = []
        # ``tried``: a strict attempt already made on this body (``tracememo``), not repeated
        self.attempts: dict[str, DecodeAttempt] = {} if tried is None else {tried.encoding: tried}
        self.tried: list[str] = []
        self.winner: tuple[DecodeAttempt, Source] | None = None
        self.needs_review = False
        self._profile: Utf8Profile | None = None

    @property
    def profile_if_known(self) -> Utf8Profile | None:
        return self._profile

    def profile(self) -> Utf8Profile:
        if self._profile is None:  # reuse a UTF-8 attempt's text when there is one
            self._profile = utf8_profile(self.body, self.attempts.get("utf-8"))
        return self._profile

    def attempt(self, encoding: str, *, full: bool = False) -> DecodeAttempt:
        """A strict attempt; ``full`` also decodes a failure with replacement (costly)."""
        found = self.attempts.get(encoding)
        if found is None or (full and found.replacements < 0):
            found = (decode_as(self.body, encoding, skip=0,  # a failed strict one: not again
                               failed_at=found.error_offset if found is not None else None)
                     if full else strict_attempt(self.body, encoding))
            self.attempts[encoding] = found
        return found

    def note(self, source: Source, raw: str | None, encoding: str | None, reason: str,
             attempt: DecodeAttempt | None = None, used: bool = False,
             confidence: float | None = None) -> None:
        # positional, every field (``new_evidence``: no frozen ``__init__`` where compiled)
        self.evidence.append(new_evidence(
            source, raw, encoding, used, reason,
            None if attempt is None else attempt.strict_ok,
            None if attempt is None else attempt.error_offset, confidence))

    def consider(self, source: Source, raw: str | None, encoding: str,
                 confidence: float | None = None, guard_single_byte: bool = False) -> bool:
        """Try one candidate strictly; record it; True when it won."""
        if self.winner is not None:
            self.note(source, raw, encoding, "not needed: an earlier source decided",
                      confidence=confidence)
            return False
        if (guard_single_byte and encoding not in _SINGLE_BYTE_EXEMPT
                and (self._profile is not None or may_be_mostly_utf8(self.body))
                and self.profile().mostly_utf8):
            p = self.profile()
            self.note(source, raw, encoding,
                      f"rejected: the body is mostly UTF-8 ({p.multibyte} valid multi-byte "
                      f"sequences, {p.invalid} malformed); {encoding} would turn them into "
                      "mojibake",
                      confidence=confidence)
            return False
        attempt = self.attempt(encoding)
        self.tried.append(encoding)
        if attempt.strict_ok:
            self.winner = (attempt, source)
            how = (f"used: decodes strictly up to an incomplete character at offset "
                   f"{attempt.error_offsets[0]} (a truncated body)" if attempt.truncated
                   else "used: decodes strictly")
            self.note(source, raw, encoding, how, attempt, used=True, confidence=confidence)
            return True
        self.note(source, raw, encoding,
                  f"failed: byte 0x{self.body[attempt.error_offset or 0]:02X} at offset "
                  f"{attempt.error_offset} is not valid {encoding}", attempt, confidence=confidence)
        return False

    def label(self, source: Source, raw: str) -> str | None:
        """Look a declared label up; record why an unusable one is passed over."""
        encoding = get_encoding(raw)
        if encoding is None:
            self.note(source, raw, None, f"ignored: {raw!r} is not an encoding label")
        elif encoding == "replacement":
            self.note(source, raw, encoding,
                      f"ignored: {raw!r} names the replacement encoding (a browser would show "
                      "one U+FFFD for the whole page)")
            return None
        return encoding

    def silent_sources(self) -> None:
        """Record the sources that offered no opinion, so the trace lists every source."""
        self.note(_BOM, None, None, "no opinion: no byte-order mark")

    def bom(self, override: str | None) -> None:
        encoding, length = self.opinions.bom or ("utf-8", 0)
        attempt = decode_as(self.body, encoding, skip=length)
        if not attempt.strict_ok and attempt.error_offset is not None:
            attempt = (truncated_attempt(self.body, encoding, attempt.error_offset, length)
                       or attempt)
        self.winner = (attempt, Source.BOM)   # lossy when its bytes are malformed
        self.note(Source.BOM, self.body[:length].hex(" ").upper(), encoding,
                  "used: a byte-order mark decides" + ("" if attempt.strict_ok else
                  f" (decoded with {attempt.replacements} replacements)"), attempt, used=True)
        header, declaration = self.opinions.header, self.opinions.declaration
        if override is not None:
            self.note(Source.OVERRIDE, override, get_encoding(override),
                      "not consulted: the byte-order mark decides")
        if header.charset is not None:
            self.note(Source.HTTP_HEADER, header.charset, get_encoding(header.charset),
                      "not consulted: the byte-order mark decides")
        if declaration is not None:
            self.note(Source(declaration.source), declaration.raw_label, declaration.encoding,
                      "not consulted: the byte-order mark decides")

    def declared(self, override: str | None, site_default: str | None) -> None:
        if override is not None:
            encoding = self.label(_OVERRIDE, override)
            if encoding is not None:
                self.consider(_OVERRIDE, override, encoding)
        header = self.opinions.header
        if header.charset is not None:
            encoding = self.label(_HEADER, header.charset)
            if encoding is not None:
                self.consider(_HEADER, header.charset, encoding)
        elif header.lenient is not None:
            self.note(_HEADER, header.lenient, get_encoding(header.lenient),
                      "ignored: the Content-Type value is not a valid MIME type, so browsers "
                      "ignore its charset")
        else:
            self.note(_HEADER, None, None,
                      "no opinion: no Content-Type header" if not header.values
                      else "no opinion: the Content-Type header has no charset")
        declaration = self.opinions.declaration
        if declaration is None or declaration.raw_label is None:
            self.note(_META, None, None,
                      "no opinion: no <meta> or XML declaration in the document")
        if declaration is not None and declaration.raw_label is not None:
            source = _DECLARED_SOURCE[declaration.source]
            if declaration.encoding is None:
                self.note(source, declaration.raw_label, None,
                          f"ignored: {declaration.raw_label!r} is not an encoding label")
            elif declaration.encoding == "replacement":
                self.label(source, declaration.raw_label)
            else:
                where = "after the first 1024 bytes (late)" if declaration.late else ""
                before = len(self.evidence)
                self.consider(source, declaration.raw_label, declaration.encoding)
                if where:
                    last = self.evidence[before]
                    self.evidence[before] = new_evidence(
                        last.source, last.raw_label, last.encoding, last.used,
                        f"{last.reason}; declared {where} at offset {declaration.offset}",
                        last.strict_ok, last.error_offset, last.confidence)

    def byte_pattern(self, pattern: NulPattern | None) -> None:
        """UTF-16 or UTF-32 without a BOM, when the NUL bytes say so (before the detector,
        and before the ASCII shortcut: such a body of ASCII text is all 7-bit bytes)."""
        if pattern is None:
            self.note(Source.BYTE_PATTERN, None, None,
                      "no opinion: the NUL bytes are not laid out as UTF-16 or UTF-32 text")
            return
        self.consider(Source.BYTE_PATTERN, pattern.describe(), pattern.encoding)

    def detect(self, detector: Detector) -> None:
        if is_ascii(self.body) and ESC not in self.body:  # ESC: maybe iso-2022-jp
            self.note(Source.DETECTOR, None, None, "not needed: the body is ASCII")
            return
        try:
            found = detector(self.body)
        except Exception as exc:  # a third-party detector must not break the decision
            self.note(Source.DETECTOR, None, None, f"failed: {type(exc).__name__}: {exc}")
            return
        if found is None:
            self.note(Source.DETECTOR, None, None, "no confident answer")
            self.needs_review = True
            return
        self.needs_review = self.needs_review or found.needs_review
        encoding = get_encoding(found.encoding)
        if encoding is None or encoding == "replacement":
            self.note(Source.DETECTOR, found.encoding, None, "ignored: not an encoding label")
            return
        if not self.consider(Source.DETECTOR, found.reason or found.encoding, encoding,
                             confidence=found.confidence, guard_single_byte=True):
            self.needs_review = True

    def fallbacks(self, site_default: str | None) -> None:
        if site_default is not None:
            encoding = self.label(Source.SITE_DEFAULT, site_default)
            if encoding is not None:
                self.consider(Source.SITE_DEFAULT, site_default, encoding, guard_single_byte=True)
        for encoding in ("utf-8", "windows-1252"):
            if self.winner is None:
                self.consider(Source.FALLBACK, None, encoding, guard_single_byte=True)

    def lossy(self) -> None:
        candidates = [*self.tried, "utf-8"]
        best = min(candidates, key=lambda e: (self.attempt(e, full=True).replacements,
                                              candidates.index(e)))
        attempt = self.attempt(best, full=True)
        index = next((i for i, ev in enumerate(self.evidence) if ev.encoding == best), None)
        source = self.evidence[index].source if index is not None else Source.FALLBACK
        self.winner = (attempt, source)   # lossy: the attempt did not decode strictly
        self.needs_review = True
        self.note(source, None, best,
                  f"used lossily: nothing decoded strictly; {best} gives the fewest replacements "
                  f"({attempt.replacements})", attempt, used=True)

