"""decide_response and the hooks, through real httpx and requests clients and a real server."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import requests
from prometheus_client import CollectorRegistry

from encoding_core import decode
from encoding_core.crawlers import (
    ResponseTriage,
    SiteOverrides,
    decide_body,
    decide_response,
    default_encoding,
    httpx_async_hook,
    httpx_hook,
    requests_hook,
)
from encoding_core.warc.instrument import read_quarantine
from tests.conformance import case_body, case_params
from tests.crawlers.pages import APPROVED_HOST, CASES, serving

BY_LABEL = {case["label"]: case for case in CASES}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Both servers, and the overrides file (approved for 127.0.0.2, proposed for 127.0.0.1)."""
    with serving(tmp_path_factory.mktemp("responses")) as running:
        yield running


def _expected(case):
    return decide_body(case_body(case), case["content_type"])


def _check(decided, case):
    assert (decided.encoding, decided.decided_by) == (case["expect_encoding"],
                                                  case["expect_source"])
    assert decided.replacements == case["expect_replacements"]
    assert sorted({c.kind for c in decided.conflicts}) == case["expect_conflicts"]


@pytest.mark.parametrize("case", case_params(CASES))
def test_requests_hook(site, case):
    """The requests hook: r.encoding_triage is the decision, r.text its text exactly."""
    with requests.Session() as session:
        session.trust_env = False
        session.hooks["response"].append(requests_hook)
        r = session.get(site.url(case["label"]), timeout=30)
    _check(r.encoding_triage, case)
    assert r.text == _expected(case).text == r.encoding_triage.text
    assert r.encoding.startswith("x-encoding-triage-")


@pytest.mark.parametrize("case", case_params(CASES))
def test_httpx_event_hook(site, case):
    """The httpx event hook: response.encoding_triage, and response.text its text exactly."""
    with httpx.Client(trust_env=False, event_hooks={"response": [httpx_hook]}) as client:
        r = client.get(site.url(case["label"]))
    _check(r.encoding_triage, case)
    assert r.text == _expected(case).text


@pytest.mark.parametrize("case", case_params(CASES))
def test_decide_response_without_hooks(site, case):
    """decide_response reads a plain httpx or requests response the same way."""
    with httpx.Client(trust_env=False) as client:
        from_httpx = decide_response(client.get(site.url(case["label"])))
    from_requests = decide_response(requests.get(site.url(case["label"]), timeout=30))
    _check(from_httpx, case)
    _check(from_requests, case)
    assert from_httpx.text == from_requests.text == _expected(case).text


def test_httpx_async_hook(site):
    """An AsyncClient with the async hook, a streamed response read whole."""
    async def fetch() -> httpx.Response:
        async with httpx.AsyncClient(trust_env=False,
                                     event_hooks={"response": [httpx_async_hook]}) as client:
            return await client.get(site.url("meta-only"))
    r = asyncio.run(fetch())
    assert r.encoding_triage.encoding == "windows-1252"
    assert r.text == _expected(BY_LABEL["meta-only"]).text and "\x81" in r.text


def test_clients_alone_decode_differently(site):
    """Without the hooks: requests reads text/html without a charset as ISO-8859-1 (no
    <meta>), httpx as UTF-8; neither gives the windows-1252 page's text."""
    expected = _expected(BY_LABEL["meta-only"]).text
    plain_requests = requests.get(site.url("meta-only"), timeout=30)
    assert plain_requests.encoding == "ISO-8859-1" and plain_requests.text != expected
    with httpx.Client(trust_env=False) as client:
        assert client.get(site.url("meta-only")).text != expected


@pytest.mark.parametrize("label", ["no-header", "meta-only"])
def test_default_encoding_reads_meta(site, label):
    """httpx's default_encoding (used without a header charset) decides from the bytes."""
    case = BY_LABEL[label]
    with httpx.Client(trust_env=False, default_encoding=default_encoding) as client:
        r = client.get(site.url(label))
    assert r.text == decode(case_body(case), None).text


def test_default_encoding_is_not_asked_when_the_header_names_a_charset(site):
    """httpx honours a header charset before default_encoding: the event hook is for that."""
    with httpx.Client(trust_env=False, default_encoding=default_encoding) as client:
        r = client.get(site.url("lying-header"))
    assert r.encoding == "iso-8859-1"


def test_overrides_apply_per_host(site):
    """The approved override applies on 127.0.0.2; the proposed one on 127.0.0.1 is a row."""
    triage = ResponseTriage(overrides=SiteOverrides.configured(site.overrides))
    with requests.Session() as session:
        session.trust_env = False
        session.hooks["response"].append(triage.requests_hook)
        approved = session.get(site.url("lying-header", approved=True), timeout=30)
        proposed = session.get(site.url("lying-header"), timeout=30)
    assert APPROVED_HOST in approved.url
    assert (approved.encoding_triage.encoding, approved.encoding_triage.source) == (
        "utf-8", "override")
    assert "Café" in approved.text
    assert proposed.encoding_triage.source == "http-header"
    rows = [e.reason for e in proposed.encoding_triage.evidence if e.source == "override"]
    assert len(rows) == 1 and "not applied: proposed" in rows[0]


def test_instrumentation(site, tmp_path):
    """ResponseTriage counts in its registry and quarantines the page past 20 replacements."""
    registry = CollectorRegistry()
    triage = ResponseTriage(prometheus=True, registry=registry,
                            quarantine=tmp_path / "quarantine.jsonl")
    with httpx.Client(trust_env=False, event_hooks={"response": [triage.httpx_hook]}) as client:
        for label in ("mixed", "json"):
            client.get(site.url(label))
    assert registry.get_sample_value("encoding_triage_decode_replacements_total",
                                     {"host": "127.0.0.1"}) == 25
    assert registry.get_sample_value("encoding_triage_decode_source_total",
                                     {"host": "127.0.0.1", "source": "fallback"}) == 1
    read = read_quarantine(tmp_path / "quarantine.jsonl")
    entries, bad = read.entries, read.bad
    assert bad == 0 and [(e.host, e.count) for e in entries] == [("127.0.0.1", 25)]
