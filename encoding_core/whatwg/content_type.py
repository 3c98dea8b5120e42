"""The charset of an HTTP ``Content-Type`` header, as browsers read it.

Follows MIME Sniffing "parse a MIME type" and Fetch "extract a MIME type" (which is what
makes repeated ``Content-Type`` headers, joined with commas as HTTP joins them, resolve
the way browsers resolve them). Quoted strings are opaque: a comma or semicolon inside
quotes does not split.

Spec snapshots: https://mimesniff.spec.whatwg.org/#parse-a-mime-type,
https://fetch.spec.whatwg.org/#concept-header-extract-mime-type.

Differences from the standards:

===============================  =============================================================
where                            what and why
===============================  =============================================================
``ContentTypeCharset.lenient``   when the value is not a valid MIME type (browsers ignore it),
                                 a ``charset=`` found by a loose search is still reported, so the
                                 trace can say "this header seems to say X, which browsers
                                 ignore". It is never used to decode.
===============================  =============================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["ContentTypeCharset", "MimeType", "http_content_type_charset", "parse_mime_type"]

_HTTP_WHITESPACE = "\t\n\r "
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_QUOTED_STRING_TOKEN = re.compile(r"[\t\x20-\x7e\x80-\xff]*")
# Possessive (``*+``): a space is never given back, so a ``charset=`` followed by a run of
# spaces and no value fails once, not once per split of the run between the two ``\s*``
# (``charset\s*=\s*["']?\s*(...)`` took 9 s on a header of 40,000 spaces; the same matches).
_LOOSE_CHARSET = re.compile(r"charset\s*+=\s*+[\"']?\s*+([^\s\"';,]+)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class MimeType:
    """A parsed MIME type: lower-case type and subtype, parameters in order of appearance."""

    type: str
    subtype: str
    parameters: tuple[tuple[str, str], ...]

    @property
    def essence(self) -> str:
        """``type/subtype``."""
        return f"{self.type}/{self.subtype}"

    def parameter(self, name: str) -> str | None:
        """The value of parameter ``name`` (lower case), or ``None``."""
        for key, value in self.parameters:
            if key == name:
                return value
        return None


@dataclass(frozen=True, slots=True)
class ContentTypeCharset:
    """What a Content-Type value says about the charset.

    ``charset`` is the raw label browsers would use (``None`` when there is none);
    ``values`` the comma-separated values the header holds (more than one means repeated
    headers); ``mime_type`` the essence browsers settle on; ``lenient`` a charset found by a
    loose search in a value browsers cannot parse.
    """

    charset: str | None
    mime_type: str | None
    values: tuple[str, ...]
    valid: bool
    lenient: str | None = None
    charsets_seen: tuple[str, ...] = ()


def _collect_quoted_string(value: str, pos: int) -> tuple[str, int]:
    """Implements Fetch "collect an HTTP quoted string" with extract-value set.

    https://fetch.spec.whatwg.org/#collect-an-http-quoted-string
    """
    out: list[str] = []
    pos += 1  # the opening quote
    n = len(value)
    while True:
        stop = pos
        while stop < n and value[stop] not in '"\\':
            stop += 1
        out.append(value[pos:stop])
        pos = stop
        if pos >= n:
            break
        quote_or_backslash = value[pos]
        pos += 1
        if quote_or_backslash == "\\":
            if pos >= n:
                out.append("\\")
                break
            out.append(value[pos])
            pos += 1
        else:
            break
    return "".join(out), pos


def parse_mime_type(value: str) -> MimeType | None:
    """Implements MIME Sniffing "parse a MIME type": https://mimesniff.spec.whatwg.org/#parse-a-mime-type

    ``None`` is the standard's failure.

    >>> parse_mime_type('Text/HTML; Charset="utf-8"').parameter("charset")
    'utf-8'
    >>> parse_mime_type("charset=utf-8") is None
    True
    """
    value = value.strip(_HTTP_WHITESPACE)
    slash = value.find("/")
    if slash <= 0:
        return None
    type_ = value[:slash]
    if not _TOKEN.fullmatch(type_):
        return None
    semicolon = value.find(";", slash + 1)
    end = len(value) if semicolon < 0 else semicolon
    subtype = value[slash + 1 : end].rstrip(_HTTP_WHITESPACE)
    if not subtype or not _TOKEN.fullmatch(subtype):
        return None
    params: dict[str, str] = {}
    pos, n = end, len(value)
    while pos < n:
        pos += 1  # the ";"
        while pos < n and value[pos] in _HTTP_WHITESPACE:
            pos += 1
        start = pos
        while pos < n and value[pos] not in ";=":
            pos += 1
        name = value[start:pos].translate(_ASCII_LOWER)
        if pos < n:
            if value[pos] == ";":
                continue
            pos += 1  # the "="
        if pos >= n:
            break
        if value[pos] == '"':
            param_value, pos = _collect_quoted_string(value, pos)
            while pos < n and value[pos] != ";":
                pos += 1
        else:
            start = pos
            while pos < n and value[pos] != ";":
                pos += 1
            param_value = value[start:pos].rstrip(_HTTP_WHITESPACE)
            if not param_value:
                continue
        if (name and _TOKEN.fullmatch(name) and _QUOTED_STRING_TOKEN.fullmatch(param_value)
                and name not in params):
            params[name] = param_value
    return MimeType(type_.translate(_ASCII_LOWER), subtype.translate(_ASCII_LOWER),
                    tuple(params.items()))


def _split_values(header: str) -> list[str]:
    """Fetch "get, decode, and split": split on commas outside quoted strings.

    https://fetch.spec.whatwg.org/#header-value-get-decode-and-split
    """
    values: list[str] = []
    pos, n = 0, len(header)
    current: list[str] = []
    while True:
        start = pos
        while pos < n and header[pos] not in '",':
            pos += 1
        current.append(header[start:pos])
        if pos < n:
            if header[pos] == '"':
                start = pos
                _, pos = _collect_quoted_string(header, pos)
                current.append(header[start:pos])
                if pos < n:
                    continue
            else:
                pos += 1  # the ","
        values.append("".join(current).strip("\t "))
        current = []
        if pos >= n:
            return values


def http_content_type_charset(content_type: str | None) -> ContentTypeCharset:
    """The charset label of a Content-Type header, as Fetch "extract a MIME type" finds it.

    https://fetch.spec.whatwg.org/#concept-header-extract-mime-type

    - values are split on commas outside quotes (repeated headers arrive joined);
    - a value that does not parse, or is ``*/*``, is skipped;
    - the last valid value wins; its charset, or, when it has none and the essence did
      not change, the charset of the value before it.

    >>> http_content_type_charset("text/html; charset=ISO-8859-1").charset
    'ISO-8859-1'
    >>> http_content_type_charset("text/html;charset=gbk, text/html").charset
    'gbk'
    >>> http_content_type_charset("text/html;charset=gbk, text/plain").charset is None
    True
    """
    if content_type is None:
        return _NO_HEADER
    if len(content_type) <= _CACHED_LENGTH:
        return _cached_charset(content_type)  # a crawl repeats a few header values
    return _extract_charset(content_type)


#: Header values up to this long are remembered (``_cached_charset``); longer ones are rare.
_CACHED_LENGTH = 200


def _extract_charset(content_type: str | None) -> ContentTypeCharset:
    if content_type is None or not content_type.strip(_HTTP_WHITESPACE):
        return ContentTypeCharset(None, None, (), valid=False)
    values = tuple(_split_values(content_type))
    charset: str | None = None
    essence: str | None = None
    mime: MimeType | None = None
    result: str | None = None
    seen: list[str] = []
    for value in values:
        parsed = parse_mime_type(value)
        if parsed is None or parsed.essence == "*/*":
            continue
        mime = parsed
        own = parsed.parameter("charset")
        if own is not None:
            seen.append(own)
        if parsed.essence != essence:
            charset = result = own
            essence = parsed.essence
        else:  # same essence: its own charset, else the one remembered (step 6.5)
            result = own if own is not None else charset
    if mime is None:
        loose = _LOOSE_CHARSET.search(content_type)
        return ContentTypeCharset(None, None, values, valid=False,
                                  lenient=loose.group(1) if loose else None)
    return ContentTypeCharset(result, mime.essence, values, valid=True,
                              charsets_seen=tuple(seen))


_cached_charset = lru_cache(maxsize=1024)(_extract_charset)
_NO_HEADER = _extract_charset(None)
