"""The Decided* responses: text is the decision's, kept across replace() only while it holds."""

from __future__ import annotations

import pytest
from scrapy.http import HtmlResponse, JsonResponse, TextResponse, XmlResponse

from encoding_core.crawlers._scrapy_responses import (
    DecidedHtmlResponse,
    DecidedJsonResponse,
    DecidedTextResponse,
    DecidedXmlResponse,
    decided_class,
    python_encoding,
)

BODY = b'<html><head><meta charset="windows-1252"><title>Caf\xe9 \x81</title></head></html>'


def _decided() -> DecidedHtmlResponse:
    plain = HtmlResponse("http://shop.example/", body=BODY)
    decided = plain.replace(cls=DecidedHtmlResponse, encoding="windows-1252",
                            decided_text=BODY.decode("latin-1"))
    assert isinstance(decided, DecidedHtmlResponse)
    return decided


def test_text_is_the_given_text_not_a_decode():
    """Scrapy's decode would put U+FFFD for 0x81 (Python's cp1252); the given text stays."""
    assert "\ufffd" in HtmlResponse("http://shop.example/", body=BODY).text
    decided = _decided()
    assert decided.text == BODY.decode("latin-1") and "\x81" in decided.text
    assert decided.css("title::text").get() == "Café \x81"


def test_replace_keeps_the_text_while_the_body_stays():
    """A new URL keeps the decided text; a new body or encoding gives Scrapy's class back."""
    decided = _decided()
    moved = decided.replace(url="http://shop.example/other")
    assert isinstance(moved, DecidedHtmlResponse) and moved.text == decided.text
    rebodied = decided.replace(body=b"<p>caf\xc3\xa9</p>", encoding="utf-8")
    assert type(rebodied) is HtmlResponse and rebodied.text == "<p>café</p>"
    recoded = decided.replace(encoding="utf-8")
    assert type(recoded) is HtmlResponse


def test_without_a_text_scrapy_decodes():
    """Built without a decided text (Response.from_dict, a cache), text is Scrapy's."""
    response = DecidedTextResponse("http://x.example/", body=b"caf\xc3\xa9", encoding="utf-8")
    assert response.text == "café"


def test_json_parses_the_decided_text():
    """response.json() reads the decision's text, not the raw bytes."""
    response = DecidedJsonResponse("http://api.example/", body=b'{"a": "caf\xe9"}',
                                   encoding="windows-1252", decided_text='{"a": "café"}')
    assert response.json() == {"a": "café"}


@pytest.mark.parametrize(("plain", "decided"), [
    (HtmlResponse, DecidedHtmlResponse), (XmlResponse, DecidedXmlResponse),
    (JsonResponse, DecidedJsonResponse), (TextResponse, DecidedTextResponse),
], ids=lambda c: c.__name__)
def test_decided_class_keeps_the_kind(plain, decided):
    """Each Scrapy kind gets its Decided subclass (selectors pick HTML or XML from it)."""
    cls = decided_class(plain("http://x.example/", body=b"x"))
    assert cls is decided and issubclass(cls, plain)


def test_python_encoding():
    """WHATWG names Python lacks get the nearest codec; the others stay as they are."""
    assert [python_encoding(e) for e in ("windows-1252", "x-user-defined", "iso-8859-8-i")] \
        == ["windows-1252", "windows-1252", "iso-8859-8"]
