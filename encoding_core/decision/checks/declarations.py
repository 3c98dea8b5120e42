"""The checks of what was declared: labels that fail or mean nothing, declarations that
disagree with each other, with a BOM or with what a browser would do.

Each is a ``Check`` (``record``): ``(given, found) -> its conflicts``; none of these reads the
earlier findings. ``conflicts.CHECKS`` says in which order they run.
"""

from __future__ import annotations

from ...whatwg.decoders import decode_strict
from ...whatwg.labels import get_encoding
from ...whatwg.prescan import DeclarationKind
from ...wording import quoted
from ..models import Conflict, Evidence, Severity
from ..resolve import Opinions
from ..utf8scan import is_ascii
from .record import DECLARED, CheckInput, Found, source_name

__all__ = ["bom_contradicts_declaration", "browser_differs", "declaration_fails_strict",
           "header_meta_disagree", "labels_passed_over", "late_declaration",
           "repeated_content_type", "skipped_meta_labels"]

# Labels of utf-16le in the Encoding Standard that do not say which byte order they mean.
_UTF16_ANY_ORDER = frozenset({"utf-16", "unicode", "ucs-2", "csunicode", "iso-10646-ucs-2",
                              "unicodefeff"})
_NOT_ASCII_COMPATIBLE = frozenset({"utf-16le", "utf-16be", "utf-32le", "utf-32be", "replacement"})


def declaration_fails_strict(given: CheckInput, found: Found) -> Found:
    """``declaration-fails-strict``: a declared encoding that failed a strict decode, one
    conflict per encoding naming every source that declared it."""
    failed: dict[str, list[Evidence]] = {}
    for ev in given.evidence:
        if ev.source in DECLARED and ev.strict_ok is False and ev.encoding and not ev.used:
            failed.setdefault(ev.encoding, []).append(ev)
    out = []
    encoding, body = given.encoding, given.body
    for failed_encoding, group in failed.items():
        offset = group[0].error_offset or 0
        who = " and the ".join(f"{source_name(ev.source)} ({quoted(ev.raw_label)})"
                               for ev in group)
        out.append(Conflict(
            "declaration-fails-strict", Severity.ERROR,
            f"The {who} say{'s' if len(group) == 1 else ''} {failed_encoding}, but byte "
            f"0x{body[offset]:02X} at offset {offset} is not valid {failed_encoding}.",
            "Nothing decoded strictly; see the lossy finding." if given.lossy else
            f"The decision fell through to {encoding} ({source_name(given.source)}), but the "
            "page mixes encodings (see the mixed-encoding finding): no override reads it."
            if given.mixed else
            f"The decision fell through to {encoding} ({source_name(given.source)}). If that "
            f"is right, a site override to {encoding} records it; otherwise the page mixes "
            "encodings.",
            suggested_encoding=None if given.lossy or given.mixed else encoding))
    return tuple(out)


def labels_passed_over(given: CheckInput, found: Found) -> Found:
    """``unknown-label`` and ``replacement-label``: a declared label that is no encoding, or
    one browsers map to the replacement encoding, in the trace's order."""
    out = []
    for ev in given.evidence:
        if ev.source in DECLARED and ev.encoding is None and ev.raw_label:
            out.append(Conflict(
                "unknown-label", Severity.WARNING,
                f"The {source_name(ev.source)} names {quoted(ev.raw_label)}, which is not an "
                "encoding label in the Encoding Standard.",
                "Browsers ignore it; so does this decision."))
        if ev.encoding == "replacement":
            out.append(Conflict(
                "replacement-label", Severity.ERROR,
                f"The {source_name(ev.source)} names {quoted(ev.raw_label)}, which browsers map "
                "to the replacement encoding: they show the whole page as a single U+FFFD.",
                "Fix the declaration at the source; this decision ignored it."))
    return tuple(out)


def skipped_meta_labels(given: CheckInput, found: Found) -> Found:
    """``unknown-label``: a ``<meta>`` the prescan skipped because its label is no encoding."""
    declaration = given.opinions.declaration
    if declaration is None:
        return ()
    return tuple(
        Conflict("unknown-label", Severity.WARNING,
                 f"A <meta> at offset {skipped.offset} names {quoted(skipped.raw_label)}, "
                 "which is not an encoding label.", "The prescan skips it, as browsers do.")
        for skipped in declaration.skipped
        if skipped.raw_label != declaration.raw_label or declaration.encoding is not None)


def header_meta_disagree(given: CheckInput, found: Found) -> Found:
    """``header-meta-disagree``: the header and the in-document declaration name different
    encodings (after normalisation)."""
    header, declaration = given.opinions.header, given.opinions.declaration
    header_enc = get_encoding(header.charset) if header.charset else None
    decl_enc = declaration.encoding if declaration else None
    if (not header_enc or not decl_enc or header_enc == decl_enc
            or "replacement" in (header_enc, decl_enc) or declaration is None):
        return ()
    kind = "XML declaration" if declaration.source == DeclarationKind.XML_DECLARATION \
        else "<meta>"
    return (Conflict(
        "header-meta-disagree", Severity.WARNING,
        f"The Content-Type header says {quoted(header.charset)} ({header_enc}); the {kind} "
        f"says {quoted(declaration.raw_label)} ({decl_enc}).",
        _disagree_advice(given.body, given.opinions, header_enc, decl_enc),
        suggested_encoding=decl_enc if given.encoding != decl_enc else None),)


def bom_contradicts_declaration(given: CheckInput, found: Found) -> Found:
    """``bom-contradicts-declaration``: a byte-order mark and a declaration that name
    different encodings (a byte-order-less UTF-16 label agrees with either UTF-16 BOM)."""
    opinions = given.opinions
    if opinions.bom is None:
        return ()
    bom_enc = opinions.bom[0]
    header, declaration = opinions.header, opinions.declaration
    out = []
    for what, label, enc in (("Content-Type header", header.charset,
                              get_encoding(header.charset) if header.charset else None),
                             ("in-document declaration",
                              declaration.raw_label if declaration else None,
                              get_encoding(declaration.raw_label)
                              if declaration and declaration.raw_label else None)):
        # "utf-16" and its like name no byte order (the BOM gives it); "utf-16le" does
        generic = (label or "").strip().lower() in _UTF16_ANY_ORDER
        both_utf16 = (enc or "").startswith("utf-16") and bom_enc.startswith("utf-16")
        if enc and enc != bom_enc and not (both_utf16 and generic):
            out.append(Conflict(
                "bom-contradicts-declaration", Severity.WARNING,
                f"The byte-order mark says {bom_enc}; the {what} says {quoted(label)} ({enc}).",
                f"The BOM wins, in browsers and here. Fix the declaration: a tool that "
                f"ignores BOMs will decode this page as {enc}."))
    return tuple(out)


def late_declaration(given: CheckInput, found: Found) -> Found:
    """``late-declaration``: the ``<meta>`` that decided is past the prescan's 1024 bytes."""
    declaration = given.opinions.declaration
    if declaration is None or not declaration.late or not declaration.encoding:
        return ()
    return (Conflict(
        "late-declaration", Severity.WARNING,
        f"The <meta> declaring {declaration.encoding} is at byte {declaration.offset}, after "
        "the first 1024 bytes that the prescan reads.",
        "Browsers find it only while parsing and then re-parse the page; tools that read "
        "only the prescan window miss it. Move it to the top of <head>."),)


def repeated_content_type(given: CheckInput, found: Found) -> Found:
    """``repeated-content-type``: more than one Content-Type value (an error when their
    charsets differ)."""
    header = given.opinions.header
    if len(header.values) <= 1:
        return ()
    distinct = {get_encoding(c) or c for c in header.charsets_seen}
    return (Conflict(
        "repeated-content-type",
        Severity.ERROR if len(distinct) > 1 else Severity.WARNING,
        f"The response carries {len(header.values)} Content-Type values: "
        + "; ".join(repr(v) for v in header.values) + ".",
        f"Browsers combine them and use charset {quoted(header.charset)}. Send one header."
        if header.charset else "Browsers find no charset in them. Send one header."),)


def browser_differs(given: CheckInput, found: Found) -> Found:
    """``browser-differs``: a browser would use another encoding (not reported for an ASCII
    body that reads the same in both)."""
    browser, encoding = given.browser, given.encoding
    if browser == encoding or (is_ascii(given.body)
                               and not {browser, encoding} & _NOT_ASCII_COMPATIBLE):
        return ()
    return (Conflict(
        "browser-differs", Severity.INFO,
        f"A browser following the HTML Standard would decode this page as {browser}.",
        "The difference comes from the strict-then-fallback walk, an override or the "
        "detector; the trace shows which."),)


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
