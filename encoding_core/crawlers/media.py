"""Seed 000's rules for JSON and XML responses, over the core's decision for HTML and text.

Seed 000 (FAQ, "Does the same resolution order apply to JSON and XML responses?"): "JSON is
UTF-8 by specification unless a byte-order mark says otherwise, so honouring a contradictory
Content-Type charset is usually wrong: decode as UTF-8 and record the disagreement. XML
carries its own declaration in the prolog, which takes precedence over the transport header
for a standalone document. In both cases [...] attempt a strict decode, record which source
was used, and never silently substitute replacement characters." ``decide_body`` applies
them by the response's media type (the essence of its Content-Type), and gives every other
response the core's walk (``decode_with_overrides``, as ``fetch`` and ``report`` decide):

- **JSON** (``application/json``, ``text/json``, ``application/x-json``, ``*/*+json``): a
  byte-order mark decides; else UTF-8 when the body is strictly UTF-8 (RFC 8259 section 8.1),
  whatever the header, a ``<meta>`` inside a string or a site override say; the walk's
  answer is kept in the trace, unused, and a ``json-not-utf-8-declared`` conflict records
  a disagreement (a warning when the header or an override said otherwise, else info). A
  body that is not UTF-8 gets the core's walk with a ``json-not-utf-8`` conflict (needs
  review): the header is then the best evidence left;
- **XML** (``text/xml``, ``application/xml``, ``*/*+xml``): without a BOM, an XML
  declaration whose encoding differs from the header's charset is tried first (after an
  approved override, which is site configuration); when it decodes strictly it wins and an
  ``xml-declaration-over-header`` conflict records what the header said. When it does not,
  the normal walk (header first) decides, as if there were no rule, and its own conflicts
  report the disagreement (``header-meta-disagree``).

Differences from the standards and from the seed:

=======================  ===================================================================
where                    what and why
=======================  ===================================================================
JSON source              the rule has no source of its own in ``Source``: UTF-8 by the
                         JSON rule is recorded as ``fallback`` (seed 000's "declared
                         fallback: UTF-8"), the reason naming RFC 8259.
JSON, BOM                RFC 8259 allows only UTF-8 and lets a parser ignore a BOM; the
                         seed honours any BOM (UTF-16 and UTF-32 too), as ``decode`` does.
JSON, not UTF-8          the seed would decode as UTF-8 with replacements; this takes the
                         walk (header, ``<meta>``, detector, fallbacks) so a legacy API's
                         declared windows-1252 is read, and says so (needs review).
JSON, override           a site override is not applied to a body that is strictly UTF-8:
                         overrides are written from a host's pages, and a host's JSON API
                         is UTF-8 even where its pages are not.
XML prolog over header   RFC 7303 section 3 and browsers give the header precedence; the
                         seed gives it to the prolog for a standalone document. This follows
                         the seed and records the header's answer as a conflict.
=======================  ===================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..decision.attempt import decode_as
from ..decision.models import Conflict, Decoded, Evidence, Severity, Source
from ..overrides.model import OverrideStatus
from ..overrides.retest import decode_with_overrides
from ..whatwg.bom import bom_sniff
from ..whatwg.content_type import http_content_type_charset
from ..whatwg.labels import get_encoding
from ..whatwg.prescan import DeclarationKind, find_declaration

__all__ = ["JSON_TYPES", "XML_TYPES", "decide_body", "media_kind"]

#: Media types read as JSON, beside any ``*/*+json``.
JSON_TYPES = frozenset({"application/json", "text/json", "application/x-json"})
#: Media types read as XML, beside any ``*/*+xml``.
XML_TYPES = frozenset({"application/xml", "text/xml"})

#: Sources a server or a reviewer set on purpose: their disagreement with JSON's UTF-8 warns.
_SAID_BY_CONFIG = frozenset({Source.HTTP_HEADER, Source.OVERRIDE})
#: Conflict kinds about the response itself, kept when the JSON rule decides.
_ABOUT_THE_INPUT = frozenset({"repeated-content-type", "unknown-label", "replacement-label"})

_JSON_REASON = "JSON text is UTF-8 (RFC 8259 section 8.1; seed 000: decode as UTF-8)"


def media_kind(content_type: str | None) -> str:
    """``json``, ``xml`` or ``other``, from the essence browsers read in ``content_type``.

    >>> media_kind("application/ld+json; charset=utf-8"), media_kind("text/xml")
    ('json', 'xml')
    >>> media_kind("text/html"), media_kind(None)
    ('other', 'other')
    """
    essence = http_content_type_charset(content_type).mime_type or ""
    if essence in JSON_TYPES or essence.endswith("+json"):
        return "json"
    if essence in XML_TYPES or essence.endswith("+xml"):
        return "xml"
    return "other"


def decide_body(body: bytes, content_type: str | None,
                statuses: Sequence[OverrideStatus] = (), *,
                site_default: str | None = None) -> Decoded:
    """Decide a response body by its media type (never raises on content).

    - JSON: a BOM, else strict UTF-8, else the walk with a ``json-not-utf-8`` conflict;
    - XML: a BOM or an override, else the XML declaration when it decodes strictly, else
      the walk;
    - anything else: the walk (``decode_with_overrides``: BOM, the applied override among
      ``statuses``, the header, ``<meta>``, detection, fallbacks).

    >>> decide_body(b'{"name": "caf\\xc3\\xa9"}', "application/json; charset=iso-8859-1").text
    '{"name": "café"}'
    """
    kind = media_kind(content_type)
    if kind == "json":
        return _json(body, content_type, statuses, site_default)
    if kind == "xml":
        return _xml(body, content_type, statuses, site_default)
    return decode_with_overrides(body, content_type, statuses, site_default=site_default)


def _json(body: bytes, content_type: str | None, statuses: Sequence[OverrideStatus],
          site_default: str | None) -> Decoded:
    """Seed 000's JSON rule (see the module docstring)."""
    walked = decode_with_overrides(body, content_type, statuses, site_default=site_default)
    if (walked.source is Source.BOM and not walked.lossy) or (
            walked.encoding == "utf-8" and not walked.lossy and walked.source in _SAID_BY_CONFIG):
        return walked   # the walk agrees with the rule: keep its whole analysis
    attempt = decode_as(body, "utf-8")
    if not attempt.strict_ok:
        return replace(walked, needs_review=True, conflicts=(*walked.conflicts, Conflict(
            "json-not-utf-8", Severity.WARNING,
            f"A JSON body must be UTF-8, but byte 0x{body[attempt.error_offset or 0]:02X} at "
            f"offset {attempt.error_offset} is not valid UTF-8; it was decided as "
            f"{walked.encoding} ({walked.decided_by}) instead.",
            "Check the text; the API should send UTF-8. A reader that assumes UTF-8 "
            "would see U+FFFD here.")))
    trace = tuple(replace(ev, used=False, reason=f"passed over ({ev.reason}): the response "
                          "is JSON") if ev.used else ev for ev in walked.evidence)
    rule = Evidence(Source.FALLBACK, "utf-8", "utf-8", True, _JSON_REASON, strict_ok=True)
    # what the walk found about the input itself stays; what it said about its own choice
    # (a browser's default, a legacy reading) is not about this decision
    kept = [c for c in walked.conflicts if c.kind in _ABOUT_THE_INPUT]
    if walked.encoding != "utf-8":
        kept.append(Conflict(
            "json-not-utf-8-declared",
            Severity.WARNING if walked.source in _SAID_BY_CONFIG and not walked.lossy
            else Severity.INFO,
            f"The response is JSON and its body is valid UTF-8, but the walk over the sources "
            f"chose {walked.encoding} ({walked.decided_by}).",
            "Decided as UTF-8, as JSON requires; the source that disagrees is wrong about "
            "this response."))
    return Decoded(text=attempt.text, encoding="utf-8", source=Source.FALLBACK,
                   replacements=0, evidence=(*trace, rule), conflicts=tuple(kept),
                   browser_encoding="utf-8", body_length=len(body))


def _xml(body: bytes, content_type: str | None, statuses: Sequence[OverrideStatus],
         site_default: str | None) -> Decoded:
    """Seed 000's XML rule (see the module docstring)."""
    header = http_content_type_charset(content_type)
    declared = find_declaration(body, late=False) if bom_sniff(body) is None else None
    header_enc = get_encoding(header.charset) if header.charset else None
    if (declared is None or declared.source is not DeclarationKind.XML_DECLARATION
            or declared.encoding is None or header.charset is None
            or header_enc == declared.encoding):
        return decode_with_overrides(body, content_type, statuses, site_default=site_default)
    prolog_first = decode_with_overrides(body, header.mime_type, statuses,
                                         site_default=site_default)
    if prolog_first.source is not Source.XML_DECLARATION or prolog_first.lossy:
        # the declaration failed strictly (or an override decided): the header has its turn
        return decode_with_overrides(body, content_type, statuses, site_default=site_default)
    row = Evidence(Source.HTTP_HEADER, header.charset, header_enc, False,
                   "not used: the XML declaration in the prolog takes precedence over the "
                   "header for an XML document (seed 000)")
    conflict = Conflict(
        "xml-declaration-over-header", Severity.WARNING,
        f"The header says {header.charset}; the XML declaration says "
        f"{declared.raw_label}, and the body decodes strictly as {declared.encoding}.",
        "Decided by the XML declaration. Browsers and RFC 7303 would use the header; fix "
        "the header at the source.",
        suggested_encoding=None)
    # the walk saw no header (it was given the essence alone): the header's row says why
    trace = tuple(row if ev.source == Source.HTTP_HEADER else ev for ev in prolog_first.evidence)
    return replace(prolog_first, evidence=trace,
                   conflicts=(*prolog_first.conflicts, conflict))
