"""The decision: which encoding a body is in, by which source, and what contradicts it.

``decode`` walks the sources in a fixed order (DESIGN.md, seed 000) and records every one
it consulted; ``decode_as`` decodes under one named encoding, strictly first.

Differences from the HTML Standard's encoding sniffing and from seed 000:

==========================  ==============================================================
where                       what and why
==========================  ==============================================================
BOM                         UTF-32 BOMs are honoured (seed 000); see ``bom.py``.
override                    a site override (seed 000) comes after the BOM and before the
                            header; browsers have no such step (only a user override).
strict then fall back       a declaration that fails a strict decode is passed over
                            (seed 000); a browser decodes with it and shows U+FFFD.
detector                    consulted only when no declaration decodes strictly; a browser
                            with no declaration uses its locale default (windows-1252 in
                            English), or its own detector in Firefox and Chrome.
windows-1252 fallback       not taken, and neither is a single-byte detector answer or site
                            default, when the body is mostly valid UTF-8 (more valid
                            multi-byte sequences than malformed ones): decoding such a page
                            as windows-1252 would turn every non-ASCII character into
                            mojibake, so the result is UTF-8 with replacements (``-lossy``).
truncated body              a body whose only malformed bytes are an incomplete character at
                            its very end (a size cap, a crawl's record limit) counts as a
                            strict success with that character replaced (one U+FFFD),
                            reported as ``truncated-body``; without this, every multi-byte
                            declaration of a cut page would fail and windows-1252 would win.
lossy                       seed 000 decodes with the declared encoding; this picks, among
                            the declared encodings tried and utf-8, the one with the fewest
                            replacements (ties go to the earlier source).
==========================  ==============================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .bom import bom_sniff
from .conflicts import Utf8Profile, find_conflicts, utf8_profile
from .content_type import http_content_type_charset
from .decoders import BOM_ONLY_ENCODINGS, decode_replace, decode_strict
from .detect import default_detector
from .labels import get_encoding
from .models import Decoded, Evidence, Source
from .prescan import find_declaration
from .resolve import Opinions, browser_encoding

__all__ = ["DEFAULT_DETECTOR", "MAX_ERROR_OFFSETS", "DecodeAttempt", "Detector", "decode",
           "decode_as"]

#: At most this many malformed-sequence offsets are kept in a result.
MAX_ERROR_OFFSETS = 1000


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


class _UseDefault:
    """Marker: use ``detect.default_detector``."""


#: The ``detector`` argument's default: ``detect.default_detector``.
DEFAULT_DETECTOR = _UseDefault()
_SINGLE_BYTE_EXEMPT = frozenset({"utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be"})


@dataclass(frozen=True, slots=True)
class DecodeAttempt:
    """``body`` decoded under one encoding: strictly if it could, else with replacement.

    ``truncated`` marks a body that decodes strictly but for an incomplete character in its
    last bytes (then ``strict_ok`` is true, ``replacements`` 1, ``error_offsets`` where it
    starts): a body cut by a size cap or a crawler's record limit.
    """

    encoding: str
    text: str
    strict_ok: bool
    error_offset: int | None
    replacements: int
    error_offsets: tuple[int, ...]
    truncated: bool = False


# Bytes that complete an incomplete final character in some web encoding: UTF-8
# continuations, a UTF-16 low surrogate or second byte, CJK trail bytes, gb18030's
# four-byte form.
_COMPLETIONS = (b"\x80", b"\x80\x80", b"\x80\x80\x80", b"\x00", b"\x00\xdc", b"\xdc\x00",
                b"\xa1", b"\xa1\xa1", b"\x40", b"\x30\x81\x30", b"\x81\x30")
_MAX_INCOMPLETE = 3


def _truncated_attempt(body: bytes, encoding: str, start: int,
                       skip: int = 0) -> DecodeAttempt | None:
    """The attempt for a body whose only error is an incomplete character at its very end.

    Only when the bytes before it hold non-ASCII text that decodes strictly: ``caf\\xe9`` is
    windows-1252 more likely than UTF-8 cut after a lead byte, and is not taken for truncation.
    """
    tail = body[start:]
    if not 0 < len(tail) <= _MAX_INCOMPLETE or body[skip:start].isascii():
        return None
    if not any(_decodes(tail + more, encoding) for more in _COMPLETIONS):
        return None
    try:
        head = decode_strict(body[skip:start], encoding)
    except UnicodeDecodeError:
        return None
    return DecodeAttempt(encoding, head + "\ufffd", True, None, 1, (start,), truncated=True)


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        decode_strict(data, encoding)
    except UnicodeDecodeError:
        return False
    return True


def decode_as(body: bytes, encoding: str, *, skip: int = 0) -> DecodeAttempt:
    """Implements Encoding "decode" for one encoding: strict first, then replacement.

    https://encoding.spec.whatwg.org/#decode

    ``encoding`` is a label or name; a BOM of that same encoding is skipped (as "UTF-8
    decode" does for UTF-8). ``skip`` drops that many leading bytes first (a BOM already
    sniffed). Offsets are into ``body``.

    >>> decode_as(b"caf\\xe9", "latin1").text
    'café'
    >>> attempt = decode_as(b"caf\\xe9", "utf-8")
    >>> (attempt.strict_ok, attempt.error_offset, attempt.replacements, attempt.text)
    (False, 3, 1, 'caf\\ufffd')
    """
    name = get_encoding(encoding) or (encoding if encoding in BOM_ONLY_ENCODINGS else None)
    if name is None or name == "replacement":
        raise ValueError(f"cannot decode as {encoding!r}: not a WHATWG encoding label")
    if skip == 0:
        sniffed = bom_sniff(body)
        if sniffed is not None and sniffed[0] == name:
            skip = sniffed[1]
    data = body[skip:] if skip else body
    try:
        return DecodeAttempt(name, decode_strict(data, name), True, None, 0, ())
    except UnicodeDecodeError as exc:
        first = exc.start + skip
    text, offsets = decode_replace(data, name)
    return DecodeAttempt(name, text, False, first, len(offsets),
                         tuple(o + skip for o in offsets[:MAX_ERROR_OFFSETS]))


def decode(body: bytes, content_type: str | None = None, *, override: str | None = None,
           site_default: str | None = None,
           detector: Detector | _UseDefault | None = DEFAULT_DETECTOR) -> Decoded:
    """Decode a response body, recording every source consulted and what contradicts it.

    The first source whose encoding decodes the body strictly wins:

    - a byte-order mark (it cannot be wrong; decoded lossily if its bytes are malformed);
    - ``override``, an approved site override's encoding;
    - the ``charset`` of ``content_type`` (repeated headers joined with commas);
    - the document's ``<meta>`` or XML declaration (the prescan; a late one after it);
    - ``detector``, only when no declaration decoded, and only a confident answer;
    - ``site_default``, then utf-8, then windows-1252;
    - lossy: the least damaged of the candidates tried, with U+FFFD counted.

    Never raises for any bytes or header string.

    >>> decode(b"\\x93quoted\\x94", "text/html; charset=iso-8859-1").text
    '“quoted”'
    """
    opinions = Opinions(
        bom=bom_sniff(body),
        header=http_content_type_charset(content_type),
        declaration=find_declaration(body),
    )
    walk = _Walk(body, opinions)
    if opinions.bom is not None:
        walk.bom(override)
    else:
        walk.silent_sources()
        if isinstance(detector, _UseDefault):
            detector = default_detector
        walk.declared(override, site_default)
        if walk.winner is None and detector is not None:
            walk.detect(detector)
        elif walk.winner is None:
            walk.note(Source.DETECTOR, None, None, "not used: no detector configured")
        if walk.winner is None:
            walk.fallbacks(site_default)
        if walk.winner is None:
            walk.lossy()
    assert walk.winner is not None
    attempt, source = walk.winner
    browser = browser_encoding(body, opinions)
    conflicts = find_conflicts(body, opinions, attempt.encoding, source, walk.evidence,
                               walk.profile_if_known, browser=browser,
                               truncated_at=attempt.error_offsets[0] if attempt.truncated
                               else None)
    return Decoded(
        text=attempt.text,
        encoding=attempt.encoding,
        source=source,
        replacements=attempt.replacements,
        evidence=tuple(walk.evidence),
        conflicts=conflicts,
        browser_encoding=browser,
        bom_length=opinions.bom[1] if opinions.bom else 0,
        error_offsets=attempt.error_offsets,
        needs_review=walk.needs_review or any(c.severity == "error" for c in conflicts),
        body_length=len(body),
    )


class _Walk:
    """The state of one walk: attempts so far, the evidence, the winner."""

    def __init__(self, body: bytes, opinions: Opinions) -> None:
        self.body = body
        self.opinions = opinions
        self.evidence: list[Evidence] = []
        self.attempts: dict[str, DecodeAttempt] = {}
        self.tried: list[str] = []
        self.winner: tuple[DecodeAttempt, str] | None = None
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
            if full:
                found = decode_as(self.body, encoding, skip=0)
            else:
                try:
                    found = DecodeAttempt(encoding, decode_strict(self.body, encoding), True,
                                          None, 0, ())
                except UnicodeDecodeError as exc:  # replacement decoding waits until needed
                    found = (_truncated_attempt(self.body, encoding, exc.start)
                             or DecodeAttempt(encoding, "", False, exc.start, -1, ()))
            self.attempts[encoding] = found
        return found

    def note(self, source: Source, raw: str | None, encoding: str | None, reason: str,
             attempt: DecodeAttempt | None = None, used: bool = False,
             confidence: float | None = None) -> None:
        self.evidence.append(Evidence(
            source, raw, encoding, used, reason,
            strict_ok=None if attempt is None else attempt.strict_ok,
            error_offset=None if attempt is None else attempt.error_offset,
            confidence=confidence))

    def consider(self, source: Source, raw: str | None, encoding: str,
                 confidence: float | None = None, guard_single_byte: bool = False) -> bool:
        """Try one candidate strictly; record it; True when it won."""
        if self.winner is not None:
            self.note(source, raw, encoding, "not needed: an earlier source decided",
                      confidence=confidence)
            return False
        if guard_single_byte and encoding not in _SINGLE_BYTE_EXEMPT and self.profile().mostly_utf8:
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
            self.winner = (attempt, str(source))
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
        self.note(Source.BOM, None, None, "no opinion: no byte-order mark")

    def bom(self, override: str | None) -> None:
        encoding, length = self.opinions.bom or ("utf-8", 0)
        attempt = decode_as(self.body, encoding, skip=length)
        if not attempt.strict_ok and attempt.error_offset is not None:
            attempt = (_truncated_attempt(self.body, encoding, attempt.error_offset, length)
                       or attempt)
        source = Source.BOM if attempt.strict_ok else f"{Source.BOM}-lossy"
        self.winner = (attempt, str(source))
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
            self.note(declaration.source, declaration.raw_label, declaration.encoding,
                      "not consulted: the byte-order mark decides")

    def declared(self, override: str | None, site_default: str | None) -> None:
        if override is not None:
            encoding = self.label(Source.OVERRIDE, override)
            if encoding is not None:
                self.consider(Source.OVERRIDE, override, encoding)
        header = self.opinions.header
        if header.charset is not None:
            encoding = self.label(Source.HTTP_HEADER, header.charset)
            if encoding is not None:
                self.consider(Source.HTTP_HEADER, header.charset, encoding)
        elif header.lenient is not None:
            self.note(Source.HTTP_HEADER, header.lenient, get_encoding(header.lenient),
                      "ignored: the Content-Type value is not a valid MIME type, so browsers "
                      "ignore its charset")
        else:
            self.note(Source.HTTP_HEADER, None, None,
                      "no opinion: no Content-Type header" if not header.values
                      else "no opinion: the Content-Type header has no charset")
        declaration = self.opinions.declaration
        if declaration is None or declaration.raw_label is None:
            self.note(Source.META, None, None,
                      "no opinion: no <meta> or XML declaration in the document")
        if declaration is not None and declaration.raw_label is not None:
            source = declaration.source
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
                    self.evidence[before] = Evidence(
                        last.source, last.raw_label, last.encoding, last.used,
                        f"{last.reason}; declared {where} at offset {declaration.offset}",
                        last.strict_ok, last.error_offset, last.confidence)

    def detect(self, detector: Detector) -> None:
        if self.body.isascii() and b"\x1b" not in self.body:  # ESC: maybe iso-2022-jp
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
        self.winner = (attempt, f"{source}-lossy")
        self.needs_review = True
        self.note(source, None, best,
                  f"used lossily: nothing decoded strictly; {best} gives the fewest replacements "
                  f"({attempt.replacements})", attempt, used=True)
