"""browser_answers checked against the real thing: a grid of pages served from 127.0.0.1 and
read back from Debian's Chromium (``document.characterSet``)."""

from __future__ import annotations

import itertools

import pytest

from encoding_core import browser_answers
from encoding_core.whatwg.labels import get_encoding
from tests.httpserver import ScriptedServer, respond

pytestmark = pytest.mark.browser

FR = "<p>Le café est très bon à Paris, où l’été dernier nous avons mangé des crêpes.</p>"
RU = ("<p>Последние новости дня: погода в Москве. Правительство России объявило новые меры. "
      "Президент встретился с губернаторами регионов.</p>")
JA = "<p>東京の天気は晴れです。日本語のページ、ソフトウェアのダウンロード。</p>"
PAD = "<!-- " + "x" * 1100 + " -->"

BODIES = {
    "ascii": b"<html><body><p>plain text</p></body></html>",
    "utf8": f"<html><body>{FR}</body></html>".encode(),
    "cp1252": f"<html><body>{FR}</body></html>".encode("cp1252"),
    "meta-sjis": f'<html><head><meta charset="shift_jis"></head><body>{JA}</body></html>'
                 .encode("shift_jis"),
    "late-meta-head": f'<html><head>{PAD}<meta charset="windows-1250"></head><body>'
                      "<p>plain</p></body></html>".encode(),
    "late-meta-script": f'<html><head>{PAD}<script>var a="<meta charset=windows-1250>";'
                        "</script></head><body><p>plain</p></body></html>".encode(),
    "late-meta-body": f'<html><body>{PAD}<p>plain</p><meta charset="koi8-r"></body></html>'
                      .encode(),
    "xml-first": b'<?xml version="1.0" encoding="windows-1250"?><html><body><p>plain</p>'
                 b"</body></html>",
    "xml-late": f'{" " * 1100}<?xml version="1.0" encoding="windows-1250"?><html><body>'
                "<p>plain</p></body></html>".encode(),
    "bom-utf16le": b"\xff\xfe" + f"<html><body>{FR}</body></html>".encode("utf-16-le"),
    "bom-utf8": b"\xef\xbb\xbf" + f"<html><body>{FR}</body></html>".encode(),
    "utf16-no-bom": f"<html><body>{FR}</body></html>".encode("utf-16-le"),
    "undeclared-cp1251": f"<html><body>{RU}</body></html>".encode("cp1251"),
    "undeclared-sjis": f"<html><body>{JA}</body></html>".encode("shift_jis"),
}
HEADERS = {"none": "text/html", "utf-8": "text/html; charset=utf-8",
           "latin1": "text/html; charset=iso-8859-1", "bogus": "text/html; charset=bogus",
           "x-user-defined": "text/html; charset=x-user-defined",
           "replacement": "text/html; charset=iso-2022-kr"}


def test_chromium_does_what_browser_answers_predicts(browser):
    """Every page of the grid: where a Chromium answer is predicted, Chromium agrees; where
    it is not (its detector decides), the page is undeclared legacy text."""
    grid = list(itertools.product(HEADERS, BODIES))
    routes = {f"/{h}/{b}": respond(BODIES[b], headers=[("Content-Type", HEADERS[h])])
              for h, b in grid}
    wrong, unpredicted = [], []
    with ScriptedServer(routes=routes) as server:
        context = browser.new_context()
        page = context.new_page()
        for header, name in grid:
            url = server.url(f"/{header}/{name}")
            page.goto(url)
            seen = get_encoding(page.evaluate("document.characterSet"))
            chromium = browser_answers(BODIES[name], HEADERS[header], url)[0]
            if chromium.encoding is None:
                unpredicted.append((header, name, seen))
            elif chromium.encoding != seen:
                wrong.append((header, name, chromium.encoding, seen, chromium.why))
        context.close()
    assert wrong == []
    assert {name for _, name, _ in unpredicted} <= {"undeclared-cp1251", "undeclared-sjis",
                                                    "cp1252"}
    assert len(unpredicted) < len(grid) // 4
