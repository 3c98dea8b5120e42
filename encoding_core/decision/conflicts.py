"""Evidence that contradicts or weakens a decision, as ``Conflict`` records with advice.

A strict decode that succeeds is not proof: every byte is valid iso-8859-1 and
windows-1252, so a page of UTF-8 served as iso-8859-1 decodes "successfully" into
mojibake. The checks here look for what would make a careful engineer doubt the result.

They err towards reporting: a conflict never changes the decision (the order is the order;
seed 000 says observability beats cleverness), it only says what an override would give.
Each check costs at most one extra decode, and only when its precondition holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..whatwg.decoders import decode_strict
from ..whatwg.labels import get_encoding
from ..whatwg.prescan import DeclarationKind
from ..wording import plural, quoted
from .conflicts_text import binary_body, implausible_reading
from .disputes import escapes_under_ascii_label, letters_of_another_language
from .mixedpage import mixed_conflict, mixed_single_byte
from .models import Conflict, Evidence, Severity, Source
from .nulpattern import NulPattern
from .resolve import Detector, Opinions, browser_encoding
from .segments import SegmentMap, segment_map
from .utf8profile import Utf8Profile, utf8_profile, valid_utf8_profile

__all__ = ["find_conflicts"]

_UNICODE = frozenset({"utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be"})
# Labels of utf-16le in the Encoding Standard that do not say which byte order they mean.
_UTF16_ANY_ORDER = frozenset({"utf-16", "unicode", "ucs-2", "csunicode", "iso-10646-ucs-2",
                              "unicodefeff"})
_NOT_ASCII_COMPATIBLE = frozenset({"utf-16le", "utf-16be", "utf-32le", "utf-32be", "replacement"})
_DECLARED = frozenset({Source.OVERRIDE, Source.HTTP_HEADER, Source.META, Source.XML_DECLARATION})
_NAMES = {
    Source.OVERRIDE: "site override", Source.HTTP_HEADER: "Content-Type header",
    Source.META: "<meta> declaration", Source.XML_DECLARATION: "XML declaration",
    Source.DETECTOR: "detector", Source.SITE_DEFAULT: "site default",
    Source.BYTE_PATTERN: "NUL-byte pattern",
    Source.FALLBACK: "fallback", Source.BOM: "byte-order mark",
}


def _name(source: str) -> str:
    base = source.removesuffix("-lossy")
    return _NAMES.get(Source(base), base) if base in Source._value2member_map_ else base


def find_conflicts(body: bytes, opinions: Opinions, encoding: str, source: str,
                   evidence: Sequence[Evidence], profile: Utf8Profile | None = None, *,
                   browser: str | None = None, truncated_at: int | None = None,
                   detector: Detector | None = None,
                   pattern: NulPattern | None = None,
                   utf8_errors: tuple[int, ...] | None = None) -> tuple[Conflict, ...]:
    """Every finding that contradicts or weakens deciding ``encoding`` from ``source``.

    ``detector`` is asked only when the decision's text reads implausibly
    (``conflicts_text``); with None, that check is skipped. ``pattern`` is the body's
    NUL-byte pattern of UTF-16 or UTF-32 text without a BOM (``nulpattern``), if any.
    ``utf8_errors``: every malformed UTF-8 sequence's offset, when a lossy UTF-8 decision
    found them all (the segment map then does not look again).
    """
    found: list[Conflict] = []
    header, declaration = opinions.header, opinions.declaration
    header_enc = get_encoding(header.charset) if header.charset else None
    decl_enc = declaration.encoding if declaration else None

    # A single-byte decision over a page that also holds UTF-8 runs (``mixedpage``).
    one_byte_mixed = mixed_single_byte(body, encoding, source, detector)
    # A declared encoding that failed a strict decode (one conflict per encoding).
    failed: dict[str, list[Evidence]] = {}
    for ev in evidence:
        if ev.source in _DECLARED and ev.strict_ok is False and ev.encoding and not ev.used:
            failed.setdefault(ev.encoding, []).append(ev)
    for failed_encoding, group in failed.items():
        offset = group[0].error_offset or 0
        who = " and the ".join(f"{_NAMES[ev.source]} ({quoted(ev.raw_label)})" for ev in group)
        lossy = source.endswith("-lossy")
        found.append(Conflict(
            "declaration-fails-strict", Severity.ERROR,
            f"The {who} say{'s' if len(group) == 1 else ''} {failed_encoding}, but byte "
            f"0x{body[offset]:02X} at offset {offset} is not valid {failed_encoding}.",
            "Nothing decoded strictly; see the lossy finding." if lossy else
            f"The decision fell through to {encoding} ({_name(source)}), but the page mixes "
            "encodings (see the mixed-encoding finding): no override reads it."
            if one_byte_mixed else
            f"The decision fell through to {encoding} ({_name(source)}). If that is right, "
            f"a site override to {encoding} records it; otherwise the page mixes encodings.",
            suggested_encoding=None if lossy or one_byte_mixed else encoding))
    for ev in evidence:
        if ev.source in _DECLARED and ev.encoding is None and ev.raw_label:
            found.append(Conflict(
                "unknown-label", Severity.WARNING,
                f"The {_NAMES[ev.source]} names {quoted(ev.raw_label)}, which is not an encoding "
                "label in the Encoding Standard.", "Browsers ignore it; so does this decision."))
        if ev.encoding == "replacement":
            found.append(Conflict(
                "replacement-label", Severity.ERROR,
                f"The {_NAMES[ev.source]} names {quoted(ev.raw_label)}, which browsers map to the "
                "replacement encoding: they show the whole page as a single U+FFFD.",
                "Fix the declaration at the source; this decision ignored it."))
    if declaration is not None:
        for skipped in declaration.skipped:
            if skipped.raw_label != declaration.raw_label or declaration.encoding is not None:
                found.append(Conflict(
                    "unknown-label", Severity.WARNING,
                    f"A <meta> at offset {skipped.offset} names {quoted(skipped.raw_label)}, which "
                    "is not an encoding label.", "The prescan skips it, as browsers do."))

    # Evidence against a successful decode: UTF-8 bytes under a legacy encoding. Only valid
    # UTF-8 counts, so a strict decode (which stops at the first malformed byte) is enough.
    if encoding not in _UNICODE and not body.isascii():
        profile = profile or valid_utf8_profile(body)
        if profile is not None and profile.valid and profile.multibyte:
            # One sequence is enough for an error: a name (José as JosÃ©) is often the only
            # non-ASCII text of a page, and the whole body being valid UTF-8 is the evidence.
            found.append(Conflict(
                "utf8-under-legacy", Severity.ERROR,
                f"The {_name(source)} says {_used_label(evidence, encoding)}; the bytes are UTF-8 "
                f"({profile.multibyte} multi-byte sequences, all valid).",
                f"An override to utf-8 would remove {profile.multibyte} mojibake sequences.",
                suggested_encoding="utf-8", mojibake_removed=profile.multibyte))

    if one_byte_mixed is not None:
        found.append(mixed_conflict(one_byte_mixed, encoding))

    # UTF-16 or UTF-32 without a BOM: what was decided from it, or what it contradicts.
    wide = _without_bom(pattern, encoding, source, evidence, browser) if pattern else None
    if wide is not None:
        found.append(wide)

    # Evidence from the text: a legacy reading unlike real text; a body that is no text.
    base = source.removesuffix("-lossy")
    if (encoding not in _UNICODE and base not in (Source.BOM, Source.DETECTOR)
            and not source.endswith("-lossy") and wide is None
            and not any(c.kind == "utf8-under-legacy" for c in found)):
        reading = implausible_reading(   # who said it: worded only for a conflict
            body, encoding, lambda: f"The {_name(source)} says {_used_label(evidence, encoding)}",
            detector)
        reading = reading or letters_of_another_language(
            body, encoding, lambda: f"The {_name(source)} says {_used_label(evidence, encoding)}",
            detector)
        if reading is not None:
            found.append(reading)
    if base in _DECLARED and not source.endswith("-lossy") and wide is None:
        escapes = escapes_under_ascii_label(
            body, encoding, lambda: f"The {_name(source)} says {_used_label(evidence, encoding)}")
        if escapes is not None and not any(c.kind == "implausible-reading" for c in found):
            found.append(escapes)
    binary = binary_body(body, encoding) if wide is None else None  # wide text is text
    if binary is not None:
        found.append(binary)

    # Header and in-document declaration disagree (after normalisation).
    if (header_enc and decl_enc and header_enc != decl_enc
            and "replacement" not in (header_enc, decl_enc) and declaration is not None):
        xml = declaration.source == DeclarationKind.XML_DECLARATION
        kind = "XML declaration" if xml else "<meta>"
        found.append(Conflict(
            "header-meta-disagree", Severity.WARNING,
            f"The Content-Type header says {quoted(header.charset)} ({header_enc}); the {kind} "
            f"says {quoted(declaration.raw_label)} ({decl_enc}).",
            _disagree_advice(body, opinions, header_enc, decl_enc),
            suggested_encoding=decl_enc if encoding != decl_enc else None))

    # A BOM that contradicts a declaration.
    if opinions.bom is not None:
        bom_enc = opinions.bom[0]
        for what, label, enc in (("Content-Type header", header.charset, header_enc),
                                 ("in-document declaration",
                                  declaration.raw_label if declaration else None,
                                  get_encoding(declaration.raw_label)
                                  if declaration and declaration.raw_label else None)):
            # "utf-16" and its like name no byte order (the BOM gives it); "utf-16le" does
            generic = (label or "").strip().lower() in _UTF16_ANY_ORDER
            both_utf16 = (enc or "").startswith("utf-16") and bom_enc.startswith("utf-16")
            if enc and enc != bom_enc and not (both_utf16 and generic):
                found.append(Conflict(
                    "bom-contradicts-declaration", Severity.WARNING,
                    f"The byte-order mark says {bom_enc}; the {what} says {quoted(label)} ({enc}).",
                    f"The BOM wins, in browsers and here. Fix the declaration: a tool that "
                    f"ignores BOMs will decode this page as {enc}."))

    if declaration is not None and declaration.late and declaration.encoding:
        found.append(Conflict(
            "late-declaration", Severity.WARNING,
            f"The <meta> declaring {declaration.encoding} is at byte {declaration.offset}, after "
            "the first 1024 bytes that the prescan reads.",
            "Browsers find it only while parsing and then re-parse the page; tools that read "
            "only the prescan window miss it. Move it to the top of <head>."))

    if len(header.values) > 1:
        distinct = {get_encoding(c) or c for c in header.charsets_seen}
        found.append(Conflict(
            "repeated-content-type",
            Severity.ERROR if len(distinct) > 1 else Severity.WARNING,
            f"The response carries {len(header.values)} Content-Type values: "
            + "; ".join(repr(v) for v in header.values) + ".",
            f"Browsers combine them and use charset {quoted(header.charset)}. Send one header."
            if header.charset else "Browsers find no charset in them. Send one header."))

    if source.endswith("-lossy"):
        profile = profile or utf8_profile(body)
        mixed = (encoding == "utf-8" and profile.mostly_utf8)
        found.append(Conflict(
            "lossy", Severity.ERROR,
            "Nothing decoded strictly; the text holds replacement characters (U+FFFD) "
            f"where {encoding} found malformed bytes."
            + (f" The page mixes encodings: {profile.multibyte} valid UTF-8 sequences and "
               f"{profile.invalid} malformed ones." if mixed else ""),
            "The replaced characters are lost in the text but not in the retained bytes: "
            "look at them in the Bytes view; fix the page or the pipeline that built it."))
        segmented = segment_map(body, detector, utf8_errors=utf8_errors) if mixed else None
        if segmented is not None:
            found.append(_mixed_encoding(segmented))

    if truncated_at is not None:
        found.append(Conflict(
            "truncated-body", Severity.WARNING,
            f"The last {len(body) - truncated_at} bytes (from offset {truncated_at}) are an "
            f"incomplete {encoding} character: the body looks cut short.",
            "It was decoded up to there and the incomplete character replaced by U+FFFD. "
            "A size cap or a crawler's record limit (WARC-Truncated) does this; re-fetch "
            "with a larger cap if the end of the page matters."))

    browser = browser or browser_encoding(body, opinions)
    if browser != encoding and not (  # ASCII reads the same in both: no news
            body.isascii() and not {browser, encoding} & _NOT_ASCII_COMPATIBLE):
        found.append(Conflict(
            "browser-differs", Severity.INFO,
            f"A browser following the HTML Standard would decode this page as {browser}.",
            "The difference comes from the strict-then-fallback walk, an override or the "
            "detector; the trace shows which."))
    return tuple(found)


def _without_bom(pattern: NulPattern, encoding: str, source: str,
                 evidence: Sequence[Evidence], browser: str | None) -> Conflict | None:
    """``utf16-without-bom`` / ``utf32-without-bom``: decided from the NUL pattern (a
    warning: browsers do not do this), or a decision the pattern contradicts (an error)."""
    kind = f"utf{pattern.encoding[4:6]}-without-bom"
    shown = browser or "its default"
    if source == Source.BYTE_PATTERN:
        return Conflict(
            kind, Severity.WARNING,
            f"Decided from the NUL bytes: {pattern.describe()}. A browser does not look for "
            f"this: it decodes the page as {shown} and shows a NUL between the characters.",
            f"Serve it with a byte-order mark, or with charset={pattern.encoding} in the "
            "Content-Type header, or convert it to UTF-8.")
    if source.startswith(Source.BOM) or encoding == pattern.encoding:
        return None
    said = (f"The {_name(source)} says {_used_label(evidence, encoding)}"
            if not source.endswith("-lossy") else f"Nothing decoded strictly; {encoding}")
    return Conflict(
        kind, Severity.ERROR,
        f"{said}, but {pattern.describe()}: the {encoding} text has a NUL between its "
        "characters.",
        f"An override to {pattern.encoding} reads it as text. A browser shows what this "
        f"decision does ({shown}): fix the page's declaration or give it a byte-order mark.",
        suggested_encoding=pattern.encoding)


def _mixed_encoding(segmented: SegmentMap) -> Conflict:
    """``mixed-encoding``: the page is UTF-8 with parts in one other encoding, and where."""
    other = segmented.byte_ranges(segmented.legacy)
    shown = ", ".join(f"{a}-{b}" for a, b in other[:3]) + (", ..." if len(other) > 3 else "")
    unsure = sum(not s.sure for s in segmented.segments)
    return Conflict(
        "mixed-encoding", Severity.WARNING,
        f"The page mixes UTF-8 and {segmented.legacy}: {len(segmented.segments)} segments, "
        f"{len(other)} of them {segmented.legacy} (bytes {shown}; {segmented.reason})."
        + (f" {plural(unsure, 'boundary', 'boundaries')} between them "
           f"{'lies' if unsure == 1 else 'lie'} in ASCII bytes, put at a line break or tag."
           if unsure else ""),
        "No single encoding reads it; read it segment by segment (the Bytes view shows the "
        "map, Compare the text read so) and fix the template that writes "
        f"{segmented.legacy}.")


def _used_label(evidence: Sequence[Evidence], encoding: str) -> str:
    for ev in evidence:
        if ev.used and ev.raw_label and get_encoding(ev.raw_label) == encoding \
                and ev.raw_label.strip().lower() != encoding:
            return f"{quoted(ev.raw_label)} ({encoding})"
    return encoding


def _disagree_advice(body: bytes, opinions: Opinions, header_enc: str, decl_enc: str) -> str:
    verdicts = []
    for enc in (header_enc, decl_enc):
        try:
            decode_strict(body[opinions.bom[1] if opinions.bom else 0:], enc)
            verdicts.append(f"{enc} decodes strictly")
        except (UnicodeDecodeError, ValueError):
            verdicts.append(f"{enc} does not decode strictly")
    return ("The header wins (HTML Standard). " + "; ".join(verdicts) + ". A host where the two "
            "consistently differ is worth a site override.")
