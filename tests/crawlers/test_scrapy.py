"""EncodingTriageMiddleware in a real Scrapy crawl of a real server on 127.0.0.1 and 127.0.0.2."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request
from scrapy.utils.test import get_crawler

from encoding_core import decode
from encoding_core.crawlers import decide_body
from encoding_core.crawlers.scrapy import EncodingTriageMiddleware
from encoding_core.errors import OverrideError
from encoding_core.warc.instrument import read_quarantine
from encoding_core.warc.landing import LandingZone, reopen
from tests.conformance import case_body, case_params
from tests.crawlers.pages import APPROVED_HOST, CASES, serving
from tests.crawlers.scrapyrun import run_crawl

MIDDLEWARE = {"encoding_core.crawlers.scrapy.EncodingTriageMiddleware": 585}
BY_LABEL = {case["label"]: case for case in CASES}


@pytest.fixture(scope="module")
def crawled(tmp_path_factory):
    """One crawl with the middleware and every part on; one with its parts switched off."""
    tmp = tmp_path_factory.mktemp("scrapy")
    with serving(tmp) as site:
        urls = [site.url(c["label"]) for c in CASES]
        urls += [site.url("lying-header", approved=True), site.url("logo.png")]
        (tmp / "on").mkdir()
        on = run_crawl(tmp / "on", urls, {
            "DOWNLOADER_MIDDLEWARES": MIDDLEWARE,
            "ENCODING_TRIAGE_OVERRIDES": str(site.overrides),
            "ENCODING_TRIAGE_PROMETHEUS": True,
            "ENCODING_TRIAGE_QUARANTINE": str(tmp / "quarantine.jsonl"),
            "ENCODING_TRIAGE_LANDING": str(tmp / "landing")})
        (tmp / "off").mkdir()
        off = run_crawl(tmp / "off", urls, {
            "DOWNLOADER_MIDDLEWARES": MIDDLEWARE, "ENCODING_TRIAGE_TEXT": False,
            "ENCODING_TRIAGE_META": False, "ENCODING_TRIAGE_STATS": False})
    return {"on": on, "off": off, "tmp": tmp, "site": site}


def _response(crawl, label, *, host="127.0.0.1"):
    found = [r for r in crawl["responses"] if r["url"].endswith(f"/{label}") and host in r["url"]]
    assert len(found) == 1, [r["url"] for r in crawl["responses"]]
    return found[0]


@pytest.mark.parametrize("case", case_params(CASES))
def test_text_is_the_decision(crawled, case):
    """response.text is the core's text for the page, and meta holds the decision's dict."""
    got = _response(crawled["on"], case["label"])
    body = case_body(case)
    decided = decide_body(body, case["content_type"])
    assert got["text"] == decided.text
    if case["label"] not in ("json", "xml-prolog"):   # seed 000's own rules for those two
        assert got["text"] == decode(body, case["content_type"]).text
    meta = got["meta"]
    assert (meta["encoding"], meta["source"]) == (case["expect_encoding"], case["expect_source"])
    assert meta["replacements"] == case["expect_replacements"]
    assert sorted({c["kind"] for c in meta["conflicts"]}) == case["expect_conflicts"]
    assert meta["needs_review"] is case["expect_needs_review"]
    assert "text" not in meta                      # the text is response.text's
    assert set(meta) == set(decided.to_dict(include_text=False))
    assert got["cls"].startswith("Decided")


def test_lossy_text_keeps_its_replacements(crawled):
    """The mixed page's 25 U+FFFD are in response.text: a lossy decision is not re-decoded."""
    got = _response(crawled["on"], "mixed")
    assert got["text"].count("\ufffd") == 25
    assert got["meta"]["lossy"] is True


def test_scrapy_alone_decodes_differently(crawled):
    """With the text part off, Scrapy's own decode differs where it should."""
    off = {label: _response(crawled["off"], label)["text"] for label in BY_LABEL}
    on = {label: _response(crawled["on"], label)["text"] for label in BY_LABEL}
    # 0x81 under windows-1252: U+0081 in the Encoding Standard, U+FFFD in Python's cp1252
    assert "\x81" in on["meta-only"] and "\ufffd" in off["meta-only"]
    assert "José" in on["json"] and "JosÃ©" in off["json"]     # seed 000's JSON rule
    assert "CafÃ©" in off["lying-header"] and "CafÃ©" in on["lying-header"]  # order wins
    assert _response(crawled["off"], "meta-only")["cls"] == "HtmlResponse"


def test_selectors_read_the_decided_text(crawled):
    """response.css sees the decision's text (Selector reads response.text)."""
    assert _response(crawled["on"], "meta-only")["title"] == "Café"


def test_approved_override_applies_and_proposed_does_not(crawled):
    """The approved override (127.0.0.2) decides utf-8; the proposed one (127.0.0.1) is a row."""
    case = BY_LABEL["lying-header"]
    approved = _response(crawled["on"], "lying-header", host=APPROVED_HOST)
    assert (approved["meta"]["encoding"], approved["meta"]["source"]) == ("utf-8", "override")
    assert approved["text"] == decode(case_body(case), case["content_type"],
                                      override="utf-8").text
    assert "Café" in approved["title"]
    proposed = _response(crawled["on"], "lying-header")
    assert proposed["meta"]["source"] == "http-header"
    rows = [e["reason"] for e in proposed["meta"]["evidence"] if e["source"] == "override"]
    assert len(rows) == 1 and "not applied: proposed" in rows[0]


def test_stats(crawled):
    """Stats under encoding_triage/: sources, replacements, conflicts, review, quarantine."""
    stats = crawled["on"]["stats"]
    pages = len(CASES) + 1
    assert stats["encoding_triage/decisions"] == pages
    sources = {k.rsplit("/", 1)[1]: v for k, v in stats.items()
               if k.startswith("encoding_triage/source/")}
    expected = Counter(case["expect_source"] for case in CASES) + Counter(override=1)
    assert sources == dict(expected)
    assert stats["encoding_triage/replacements"] == 25
    assert stats["encoding_triage/quarantined"] == 1
    assert stats["encoding_triage/lossy"] == 1
    assert stats["encoding_triage/conflicts/json-not-utf-8-declared"] == 1
    assert stats["encoding_triage/conflicts/utf8-under-legacy"] == 1   # the proposed host only
    assert stats["encoding_triage/overrides_applied"] == 1
    reviews = sum(c["expect_needs_review"] for c in CASES)
    assert stats["encoding_triage/needs_review"] == reviews
    assert stats["encoding_triage/landed"] == pages
    assert not any(k.startswith("encoding_triage/") for k in crawled["off"]["stats"])


def test_non_text_response_is_left_alone(crawled):
    """A PNG is no text: no decision, no meta, Scrapy's own class."""
    png = _response(crawled["on"], "logo.png")
    assert png["meta"] is None and not png["cls"].startswith("Decided")


def test_prometheus_and_quarantine(crawled):
    """record_decode's counters in the global registry, and the quarantine log's one line."""
    metrics = crawled["on"]["metrics"]
    assert re.search(r'encoding_triage_decode_replacements_total\{host="127.0.0.1"\} 25\.0',
                     metrics)
    assert re.search(r'encoding_triage_decode_source_total\{host="127.0.0.2",source="override"\}'
                     r" 1\.0", metrics)
    read = read_quarantine(crawled["tmp"] / "quarantine.jsonl")
    entries, bad = read.entries, read.bad
    assert bad == 0 and [(e.host, e.count) for e in entries] == [("127.0.0.1", 25)]
    assert entries[0].url.endswith("/mixed")


def test_landing_zone_keeps_the_raw_response(crawled):
    """The raw bytes are kept: reopening the capture gives the same decision, no recrawl."""
    got = _response(crawled["on"], "meta-only")
    capture = reopen(got["capture"], LandingZone(crawled["tmp"] / "landing"))
    assert capture.body == case_body(BY_LABEL["meta-only"])
    assert capture.content_type == "text/html"
    assert decode(capture.body, capture.content_type).text == got["text"]


def test_switched_off_parts(crawled):
    """TEXT, META and STATS off: Scrapy's class and text, no meta key, no stats."""
    got = _response(crawled["off"], "json")
    assert got["meta"] is None and got["cls"] == "JsonResponse"


def test_disabled_is_not_configured():
    """ENCODING_TRIAGE_ENABLED off: Scrapy skips the middleware."""
    with pytest.raises(NotConfigured):
        EncodingTriageMiddleware.from_crawler(get_crawler(settings_dict={
            "ENCODING_TRIAGE_ENABLED": False}))


def test_missing_overrides_file_stops_the_crawl(tmp_path):
    """A named overrides file that does not exist is an error before any request."""
    with pytest.raises(OverrideError, match="no such overrides file"):
        EncodingTriageMiddleware.from_crawler(get_crawler(settings_dict={
            "ENCODING_TRIAGE_OVERRIDES": str(tmp_path / "typo.yaml")}))



class _CountingResponse(HtmlResponse):
    """An HtmlResponse that counts reads of ``encoding`` (Scrapy's own inference)."""

    __slots__ = ()
    reads = 0

    @property
    def encoding(self) -> str:
        type(self).reads += 1
        return super().encoding


def test_scrapy_does_not_decode_the_page_too():
    """The middleware never asks Scrapy for its encoding: its inference (charset-normalizer
    on an undeclared page) is the decode the decision replaces."""
    middleware = EncodingTriageMiddleware.from_crawler(get_crawler(settings_dict={
        "ENCODING_TRIAGE_OVERRIDES_ENABLED": False}))
    request = Request("http://shop.example/")
    body = case_body(BY_LABEL["no-header"])
    decided = middleware.process_response(request, _CountingResponse(
        "http://shop.example/", body=body, request=request))
    assert _CountingResponse.reads == 0
    assert decided.text == decode(body).text and request.meta["encoding_triage"]["source"]


def test_bad_site_default_is_refused():
    """A site default that is no encoding label stops the crawl with a clear message."""
    with pytest.raises(ValueError, match="ENCODING_TRIAGE_SITE_DEFAULT"):
        EncodingTriageMiddleware.from_crawler(get_crawler(settings_dict={
            "ENCODING_TRIAGE_SITE_DEFAULT": "klingon"}))



def _process(settings, label):
    middleware = EncodingTriageMiddleware.from_crawler(get_crawler(settings_dict={
        "ENCODING_TRIAGE_OVERRIDES_ENABLED": False, **settings}))
    case = BY_LABEL[label]
    request = Request(f"http://shop.example/{label}")
    headers = {} if case["content_type"] is None else {"Content-Type": case["content_type"]}
    middleware.process_response(request, HtmlResponse(request.url, body=case_body(case),
                                                      headers=headers, request=request))
    return request.meta


def test_landing_flagged_only(tmp_path):
    """ENCODING_TRIAGE_LANDING_FLAGGED keeps the lying page (needs review), not a clean one."""
    settings = {"ENCODING_TRIAGE_LANDING": str(tmp_path / "landing"),
                "ENCODING_TRIAGE_LANDING_FLAGGED": True}
    assert "encoding_triage_capture" in _process(settings, "lying-header")
    assert "encoding_triage_capture" not in _process(settings, "no-header")
    assert len(list((tmp_path / "landing").glob("*.warc.gz"))) == 1


def test_quarantine_without_prometheus(tmp_path):
    """The quarantine log alone: the mixed page's line is written, no counters exported."""
    from prometheus_client import REGISTRY

    before = REGISTRY.get_sample_value("encoding_triage_decode_replacements_total",
                                       {"host": "shop.example"})
    _process({"ENCODING_TRIAGE_QUARANTINE": str(tmp_path / "q.jsonl")}, "mixed")
    entries = read_quarantine(tmp_path / "q.jsonl").entries
    assert [(e.host, e.count) for e in entries] == [("shop.example", 25)]
    assert REGISTRY.get_sample_value("encoding_triage_decode_replacements_total",
                                     {"host": "shop.example"}) == before
