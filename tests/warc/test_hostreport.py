"""Tests for encoding_core.warc.hostreport: seed 000's per-host numbers over WARC files and URLs."""

from __future__ import annotations

import csv
import io
import itertools
import json
import pickle
import re
from collections.abc import Iterator
from datetime import date, timedelta

import pytest

from encoding_core.fetch.client import Capture, FetchSettings
from encoding_core.hosts import host_of
from encoding_core.overrides.lookup import ActiveOverrides
from encoding_core.overrides.retest import decode_with_overrides
from encoding_core.overrides.store import OverrideStore
from encoding_core.warc.hostreport import (
    QUARANTINE_THRESHOLD,
    RecordOutcome,
    decide,
    report_from_urls,
    report_from_warc,
    summarise,
)
from encoding_core.warc.warcfile import WarcFormatError, iter_indexed_captures, read_response
from tests.httpserver import ScriptedServer, redirect, respond
from tests.overridefiles import approved_override
from tests.warcs import poison_warc, response_record, warc_file

GOOD = "<p>café “quoted”</p>".encode()
BROKEN = "é".encode() * 50 + b"\xff" * 25          # mostly UTF-8, 25 malformed bytes
LYING = "<p>José Müller – “quoted” café</p>".encode()  # UTF-8 under an iso-8859-1 header


PAGES = [
    ("http://a.example/1", "text/html; charset=utf-8", GOOD),
    ("http://a.example/2", "text/html; charset=utf-8", GOOD),
    ("http://b.example/1", "text/html; charset=utf-8", BROKEN),
    ("http://b.example/2", "text/html; charset=utf-8", GOOD),
    ("http://c.example/1", "text/html; charset=iso-8859-1", LYING),
    ("http://c.example/logo.png", "image/png", b"\x89PNG\r\n"),
]
WARC = b"".join(response_record(*page) for page in PAGES)


def test_report_counts_sources_replacements_and_quarantine() -> None:
    """Per host: pages, sources, replacements, lossy pages, conflicts; quarantined first."""
    seen: list[int] = []
    report = report_from_warc(WARC, detector=None, progress=lambda done, _: seen.append(done))
    assert seen == [1, 2, 3, 4, 5, 6]
    assert [h.host for h in report.hosts] == ["b.example", "a.example", "c.example"]
    b, a, c = report.hosts
    assert b.quarantine and b.quarantined_records == 1 and b.replacements == 25 > 20
    assert b.lossy == 1 and dict(b.sources)["http-header"] == 1
    assert (a.records, a.replacements, a.sources, a.quarantine) == (
        2, 0, (("http-header", 2),), False)
    assert c.conflicts == 1 and c.conflict_kinds
    # the lossy page and the UTF-8 page under iso-8859-1 need a person; the clean ones do not
    assert (b.needs_review, a.needs_review, c.needs_review) == (1, 0, 1)
    # the override the UTF-8 check points at, on the host it concerns only
    assert (c.suggested_override, c.suggested_pages) == ("utf-8", 1)
    assert (a.suggested_override, a.suggested_pages) == ("", 0)
    assert report.quarantined_hosts == ("b.example",)
    assert report.skipped == (("not HTML", 1),)
    assert report.problem is None


def test_exports() -> None:
    """CSV (hosts and records) and JSON carry the same numbers."""
    report = report_from_warc(WARC, detector=None)
    hosts = list(csv.DictReader(io.StringIO(report.hosts_csv())))
    assert [row["host"] for row in hosts] == ["b.example", "a.example", "c.example"]
    assert hosts[0]["quarantine"] == "True" and hosts[0]["replacements"] == "25"
    assert hosts[1]["source:http-header"] == "2"
    assert [row["needs_review"] for row in hosts] == ["1", "0", "1"]
    assert [row["suggested_override"] for row in hosts] == ["", "", "utf-8"]
    records = list(csv.DictReader(io.StringIO(report.records_csv())))
    assert len(records) == 5 and records[2]["quarantined"] == "True"
    assert [r["suggested"] for r in records] == ["", "", "", "", "utf-8"]
    data = json.loads(report.to_json())
    assert data["quarantined_hosts"] == ["b.example"]
    assert data["hosts"][0]["quarantine"] is True and len(data["records"]) == 5
    assert data["hosts"][2]["suggested_override"] == "utf-8"


def test_csv_cells_that_look_like_formulas_are_quoted() -> None:
    """A URL from page data that a spreadsheet would run as a formula is quoted."""
    report = summarise([RecordOutcome(url="=HYPERLINK(1)", host="=cmd", encoding="utf-8",
                                      source="fallback")])
    assert "'=cmd" in report.hosts_csv() and "'=HYPERLINK(1)" in report.records_csv()


def test_truncated_warc_reports_what_it_read() -> None:
    """A file cut short reports the records before the damage and says so."""
    report = report_from_warc(WARC[:-40], detector=None)
    assert report.problem is not None and "covers the records before it" in report.problem
    assert sum(h.records for h in report.hosts) == 5  # the cut record is the PNG


def test_not_a_warc_file() -> None:
    """A file that is not WARC raises WarcFormatError."""
    with pytest.raises(WarcFormatError):
        report_from_warc(b"<html>not a warc</html>")


def test_threshold_is_seed_000s() -> None:
    """Seed 000 quarantines above 20 replacements, not at 20."""
    assert QUARANTINE_THRESHOLD == 20
    at = RecordOutcome(url="u", host="h", replacements=20)
    assert not at.quarantined and RecordOutcome(url="u", host="h", replacements=21).quarantined


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[ScriptedServer, ScriptedServer]]:
    routes = {"/good": respond(GOOD, headers=[("Content-Type", "text/html; charset=utf-8")]),
              "/broken": respond(BROKEN, headers=[("Content-Type", "text/html; charset=utf-8")]),
              "/to-js": redirect("javascript:alert(1)")}
    with ScriptedServer("127.0.0.1", routes) as one, ScriptedServer("127.0.0.2", routes) as two:
        yield one, two


def test_report_from_urls_is_polite(servers: tuple[ScriptedServer, ScriptedServer]) -> None:
    """URLs are fetched at most one at a time per host, delay apart; failures are counted."""
    one, two = servers
    settings = FetchSettings(connect_timeout=2, read_timeout=1, total_timeout=3,
                             allowed_networks=("127.0.0.1/32", "127.0.0.2/32"))
    urls = [one.url("/good"), one.url("/broken"), one.url("/good"), two.url("/good"),
            "http://169.254.169.254/"]
    before = len(one.requests)
    progress: list[tuple[int, int | None]] = []
    report = report_from_urls(urls, settings=settings, concurrency=3, delay=0.15,
                              detector=None, progress=lambda d, t: progress.append((d, t)))
    times = [r.received for r in one.requests[before:]]
    assert len(times) == 3
    assert all(b - a >= 0.14 for a, b in itertools.pairwise(times))
    assert progress[-1] == (5, 5)
    by_host = {h.host: h for h in report.hosts}
    assert by_host["127.0.0.1"].records == 3 and by_host["127.0.0.1"].quarantine
    assert by_host["169.254.169.254"].errors == 1
    assert "refusing to fetch" in (report.records[-1].error or "")
    assert [r.url for r in report.records] == urls


def test_a_host_whose_pages_point_at_one_override() -> None:
    """Shift_JIS pages under a wrong iso-8859-1 header: the host suggests shift_jis, with
    how many pages say so, also when another page of the host is fine; when fewer than half
    the pages say so, they are a section of the site, and the host suggests nothing."""
    japanese = "<p>日本語のテキストです。東京都の天気は晴れ。</p>".encode("shift_jis")
    pages = [(f"http://jp.example/{i}", "text/html; charset=iso-8859-1", japanese)
             for i in range(3)] + [("http://jp.example/en", "text/html", b"<p>plain</p>")]
    report = report_from_warc(b"".join(response_record(*page) for page in pages))
    (host,) = report.hosts
    assert (host.suggested_override, host.suggested_pages, host.needs_review) == (
        "shift_jis", 3, 3)
    english = [(f"http://jp.example/en/{i}", "text/html", b"<p>plain</p>") for i in range(4)]
    (host,) = report_from_warc(b"".join(response_record(*p) for p in pages + english)).hosts
    assert (host.suggested_override, host.suggested_pages, host.needs_review) == ("", 0, 3)
    assert [r.suggested for r in report.records].count("shift_jis") == 3


def test_redirect_hops_and_empty_bodies_are_counted_apart() -> None:
    """A crawl's 302 hops and empty bodies are no pages: counted per host by status, not as
    pages decided by "fallback"; only bodies are decided."""
    warc = b"".join([
        response_record("http://d.example/", "text/html", b"<a href=/home>Moved</a>",
                        status="302 Found", headers=(("Location", "/home"),)),
        response_record("http://d.example/old", "text/html", b"",
                        status="301 Moved Permanently", headers=(("Location", "/home"),)),
        response_record("http://d.example/ping", "text/html; charset=utf-8", b"",
                        status="204 No Content"),
        response_record("http://d.example/home", "text/html; charset=utf-8", GOOD),
    ])
    report = report_from_warc(warc, detector=None)
    (d,) = report.hosts
    assert (d.records, d.pages) == (4, 1)
    assert d.not_pages == ((204, 1), (301, 1), (302, 1))
    assert d.sources == (("http-header", 1),)  # no "fallback" for the hops
    assert d.encodings == (("utf-8", 1),)
    undecided = {r.url: r.not_a_page for r in report.records if not r.decided}
    assert undecided == {"http://d.example/": "redirect", "http://d.example/old": "redirect",
                         "http://d.example/ping": "empty body"}
    hosts = list(csv.DictReader(io.StringIO(report.hosts_csv())))
    assert hosts[0]["pages"] == "1" and hosts[0]["not_pages"] == "204:1 301:1 302:1"
    assert "source:fallback" not in hosts[0]


def test_a_report_written_as_json_reads_back_the_same() -> None:
    """report --json (or a job's report.json) opens again as the same report."""
    from encoding_core.warc.hostreport import report_from_json

    report = report_from_warc(WARC, detector=None)
    again = report_from_json(report.to_json())
    assert again.hosts == report.hosts and again.records == report.records
    assert again.skipped == report.skipped and again.records_omitted == 0
    capped = json.loads(report.to_json()) | {"records": [], "records_omitted": 7}
    assert report_from_json(json.dumps(capped)).records_omitted == 7
    with pytest.raises(ValueError, match="not a host report"):
        report_from_json(json.dumps(capped | {"records_omitted": -1}))
    with pytest.raises(ValueError, match="not a host report"):
        report_from_json('{"hosts": [{"nope": 1}]}')
    with pytest.raises(ValueError, match="not a host report"):
        report_from_json(b"\xff not json")


# --- one poison record among good ones (issue 28) ---------------------------------------------

def test_a_poison_record_is_named_and_every_good_record_kept() -> None:
    """A record with 1,000 content codings (a RecursionError that ended the report after the
    25 records before it) is an error row named in ``problem``; all 50 good records are there."""
    data, bad_url = poison_warc(50)
    report = report_from_warc(data, detector=None)
    decided = [r for r in report.records if r.decided]
    assert len(decided) == 50 and len(report.records) == 51
    [bad] = [r for r in report.records if r.error]
    assert bad.url == bad_url and bad.record_index == 25
    assert bad.error is not None and "record 26: the Content-Encoding lists 1,000 codings" \
        in bad.error
    assert report.problem is not None and bad_url in report.problem
    assert report.problem.startswith("1 record could not be read: record 26")
    assert {h.host: h.errors for h in report.hosts}["poison.example"] == 1


def test_a_bad_redirect_is_one_error_row(servers: tuple[ScriptedServer, ScriptedServer]) -> None:
    """[ok, a redirect to ``javascript:alert(1)``, ok] gives two pages and one error row that
    names the hop (httpx's raw InvalidURL failed the whole report before)."""
    one, _ = servers
    settings = FetchSettings(connect_timeout=2, read_timeout=1, total_timeout=3,
                             allowed_networks=("127.0.0.1/32",))
    urls = [one.url("/good"), one.url("/to-js"), one.url("/good")]
    report = report_from_urls(urls, settings=settings, delay=0, detector=None)
    assert [r.url for r in report.records] == urls
    assert [r.decided for r in report.records] == [True, False, True]
    assert "redirect 1 of the chain" in (report.records[1].error or "")
    assert "'javascript:alert(1)'" in (report.records[1].error or "")


@pytest.mark.parametrize(("change", "says"), [
    (lambda d: d["hosts"][0].update(replacements="lots"), "hosts[0].replacements is 'lots'"),
    (lambda d: d["hosts"][0].update(sources=[["http-header", "2"]]), "hosts[0].sources"),
    (lambda d: d["records"][0].update(conflicts="x"), "records[0].conflicts is 'x'"),
    (lambda d: d["records"][0].update(status=True), "records[0].status is True"),
    (lambda d: d.update(skipped={"not HTML": "1"}), "skipped is not an object of counts"),
    (lambda d: d.update(problem=["x"]), "problem is not text"),
    (lambda d: d.update(hosts={}), "hosts is not a list"),
], ids=["replacements-text", "sources-count-text", "conflicts-text", "status-bool",
        "skipped-text", "problem-list", "hosts-object"])
def test_a_report_json_of_the_wrong_types_is_refused(change, says) -> None:
    """report_from_json checks every field's type (a wrong one passed and crashed rendering)."""
    from encoding_core.warc.hostreport import report_from_json

    data = json.loads(report_from_warc(WARC, detector=None).to_json())
    change(data)
    with pytest.raises(ValueError, match=f"not a host report written by encoding-triage: "
                                         f"{re.escape(says)}"):
        report_from_json(json.dumps(data))


def test_a_deeply_nested_report_json_is_a_value_error() -> None:
    """100,000 nested lists are a ValueError saying so, not a RecursionError."""
    from encoding_core.warc.hostreport import report_from_json

    with pytest.raises(ValueError, match="nested too deeply"):
        report_from_json('{"hosts": ' + "[" * 100_000 + "]" * 100_000 + "}")


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"],
                         ids=["equals", "plus", "minus", "at", "tab", "carriage-return"])
def test_every_formula_start_is_quoted_in_both_exports(start: str) -> None:
    """Each of OWASP's formula starts, a tab and a carriage return included (missed before),
    is written as text in the host CSV, as in the findings CSV (one helper, ``cells``)."""
    report = summarise([RecordOutcome(url=f"{start}HYPERLINK(1)", host=f"{start}cmd",
                                      encoding="utf-8", source="fallback")])
    hosts = list(csv.reader(io.StringIO(report.hosts_csv())))
    records = list(csv.reader(io.StringIO(report.records_csv())))
    assert hosts[1][0] == f"'{start}cmd" and records[1][0] == f"'{start}HYPERLINK(1)"


def test_a_report_decides_each_record_with_the_trace_fetch_shows(tmp_path) -> None:
    """Issue 26: for the same record of a real WARC file and the same real overrides file, the
    host report (a pickled ``ActiveOverrides``, as a job or the worker gets it) gives the
    decision and trace the Fetch page gives (``read_response`` + ``decode_with_overrides``)."""
    overrides = tmp_path / "overrides.yaml"
    approved_override(overrides, "shop.example.com", "utf-8")
    store = OverrideStore(overrides)
    store.propose(host="*.example.com", encoding="koi8-r", author="carol@example.com",
                  reason="A wider guess for every example host, never reviewed by anyone.",
                  review_by=date.today() + timedelta(days=30))
    warc = tmp_path / "crawl.warc.gz"
    warc.write_bytes(warc_file([
        ("http://shop.example.com/1", "text/html; charset=iso-8859-1", LYING),
        ("http://news.example.com/1", "text/html; charset=utf-8", GOOD)]))
    snapshot = pickle.loads(pickle.dumps(ActiveOverrides.of(store)))
    report = report_from_warc(warc, overrides=snapshot)
    for index, capture in iter_indexed_captures(warc):
        assert isinstance(capture, Capture)
        fetched = read_response(warc, index)                       # the Fetch page's reader
        shown = decode_with_overrides(fetched.body, fetched.content_type,
                                      store.status_for(host_of(fetched.url) or ""))
        assert decide(capture, overrides=snapshot) == shown       # trace included
        row = report.records[index]
        assert (row.encoding, row.source, row.replacements, row.needs_review, row.suggested,
                row.conflicts) == (shown.encoding, shown.source, shown.replacements,
                                   shown.needs_review, shown.suggested_encoding or "",
                                   tuple(c.kind for c in shown.conflicts))
        reasons = [e.reason for e in shown.evidence if e.source == "override"]
        assert any("ov-0002" in r and "not applied: proposed" in r for r in reasons)
    shop = report.records[0]
    assert (shop.encoding, shop.source) == ("utf-8", "override")
    trace = decide(read_response(warc, 0), overrides=snapshot).evidence
    assert any(e.used and e.source == "override" and "override ov-0001 for shop.example.com" in
               e.reason for e in trace)
