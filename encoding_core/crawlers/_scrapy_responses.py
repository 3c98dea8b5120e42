"""Scrapy responses whose ``text`` is the decision's text: no second decode downstream.

Scrapy's documented way to set an encoding is ``response.replace(encoding=...)``; its
``TextResponse.text`` then decodes the body again, with w3lib's ``html_to_unicode``:
Python's codecs under w3lib's substitutions (``shift_jis`` read as ``cp932``, ``gbk`` as
``gb18030``, ``latin-1`` as ``cp1252``), a byte-order mark sniffed again, ``errors="replace"``.
For the decision's encoding that is not the decision's text wherever Python's codecs and
the WHATWG decoders differ (0x81 under windows-1252 is U+0081 in the standard, U+FFFD in
Python's ``cp1252``; the CJK tables; how many U+FFFD a malformed sequence gives), and five
WHATWG encodings have no Python codec at all. ``tests/crawlers`` shows such a page.

So the middleware replaces the response with the ``Decided*`` class of the same kind
(``HtmlResponse``, ``XmlResponse``, ``JsonResponse``, ``TextResponse``): the same body,
headers and URL, ``encoding`` set, and ``text`` the decision's text, given at construction.
Selectors (``response.css``, ``.xpath``) read ``text``, so they see it too, and ``json()``
parses it. ``replace()`` keeps the text only while the body and encoding stay; a new body
or encoding gives Scrapy's own class back, which decodes as Scrapy does.
"""

from __future__ import annotations

import json
from typing import Any

from scrapy.http import HtmlResponse, JsonResponse, Response, TextResponse, XmlResponse

__all__ = ["DecidedHtmlResponse", "DecidedJsonResponse", "DecidedTextResponse",
           "DecidedXmlResponse", "decided_class", "python_encoding"]

# WHATWG encodings Python has no codec for under that name: the nearest Python codec, for
# what Scrapy encodes with ``response.encoding`` (a followed URL's query, a form's fields).
_PYTHON = {"windows-874": "cp874", "x-mac-cyrillic": "mac-cyrillic",
           "iso-8859-8-i": "iso-8859-8", "x-user-defined": "windows-1252"}


def python_encoding(encoding: str) -> str:
    """The encoding Scrapy is given: the WHATWG name, or the nearest Python codec's name.

    >>> python_encoding("shift_jis"), python_encoding("windows-874")
    ('shift_jis', 'cp874')
    """
    return _PYTHON.get(encoding, encoding)


class DecidedTextResponse(TextResponse):
    """A ``TextResponse`` whose ``text`` is the decision's text (``decided_text``)."""

    __slots__ = ("_decided_json", "_decided_text")

    def __init__(self, *args: Any, decided_text: str | None = None, **kwargs: Any) -> None:
        self._decided_text = decided_text
        self._decided_json: tuple[Any] | None = None
        super().__init__(*args, **kwargs)

    @property
    def text(self) -> str:
        """The decision's text (the body is not decoded again); Scrapy's decode when the
        response was built without one (``Response.from_dict``, a cache)."""
        if self._decided_text is None:
            return super().text
        return self._decided_text

    def json(self) -> Any:
        """The decision's text parsed as JSON (cached)."""
        if self._decided_json is None:
            self._decided_json = (json.loads(self.text),)
        return self._decided_json[0]

    def replace(self, *args: Any, cls: type[Response] | None = None, **kwargs: Any) -> Any:
        """A copy with the decided text while body and encoding stay, else Scrapy's class."""
        target = cls or type(self)
        if "body" in kwargs or "encoding" in kwargs:
            target = _PLAIN.get(target, target)
        if issubclass(target, DecidedTextResponse):
            kwargs.setdefault("decided_text", self._decided_text)
        return super().replace(*args, cls=target, **kwargs)


class DecidedHtmlResponse(DecidedTextResponse, HtmlResponse):
    """An ``HtmlResponse`` whose ``text`` is the decision's text."""

    __slots__ = ()


class DecidedXmlResponse(DecidedTextResponse, XmlResponse):
    """An ``XmlResponse`` whose ``text`` is the decision's text."""

    __slots__ = ()


class DecidedJsonResponse(DecidedTextResponse, JsonResponse):
    """A ``JsonResponse`` whose ``text`` is the decision's text."""

    __slots__ = ()


_PLAIN: dict[type[Response], type[Response]] = {
    DecidedTextResponse: TextResponse, DecidedHtmlResponse: HtmlResponse,
    DecidedXmlResponse: XmlResponse, DecidedJsonResponse: JsonResponse}


def decided_class(response: TextResponse) -> type[DecidedTextResponse]:
    """The ``Decided*`` class for a Scrapy text response (the most specific kind it is)."""
    if isinstance(response, HtmlResponse):
        return DecidedHtmlResponse
    if isinstance(response, XmlResponse):
        return DecidedXmlResponse
    if isinstance(response, JsonResponse):
        return DecidedJsonResponse
    return DecidedTextResponse
