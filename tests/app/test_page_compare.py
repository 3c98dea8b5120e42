"""AppTest of Compare on pages that once made it slow or misleading."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, markdown_html


def _compare(body: bytes, content_type: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.secrets["placeholder"] = "set explicitly"
    at.run()
    at.switch_page("app_pages/2_compare.py").run()
    at.radio(key="compare_mode").set_value("Upload a file").run()
    at.text_input(key="compare_content_type").input(content_type)
    at.file_uploader(key="compare_upload").upload("page.html", body, "text/html").run()
    assert not at.exception, at.exception
    return at


def test_a_minified_page_is_shown_cut():
    """A 1 MB page on one line (UTF-8 under iso-8859-1) is compared, its line shown cut
    with how much is left (difflib once took minutes on such a line)."""
    body = ("<p>José Müller – café " * 40_000).encode("utf-8")
    at = _compare(body, "text/html; charset=iso-8859-1")
    htmls = [el.proto.body for el in at.get("html")]
    assert any("more characters)" in h for h in htmls)
    assert any("<mark>" in h for h in htmls)  # the differing spans are still marked
    assert all(len(h) < 100_000 for h in htmls)


def test_shift_jis_under_a_wrong_meta_is_flagged_with_a_column():
    """Shift_JIS under iso-8859-1: an implausible-reading error, and a shift_jis column."""
    body = "<p>日本語のテキストです。東京都の天気は晴れ。</p>".encode("shift_jis")
    at = _compare(body, "text/html; charset=iso-8859-1")
    assert any("implausible" in e.value and "shift\\_jis" in e.value for e in at.error)
    assert any(m.value.startswith("**shift_jis") for m in at.markdown)


def test_many_differing_lines_are_paged():
    """20,000 differing lines: 200 a page, the page says which, and a later page shows them."""
    body = "".join(f"<p>{i} café</p>\n" for i in range(20_000)).encode("utf-8")
    at = _compare(body, "text/html; charset=iso-8859-1")
    assert any("Lines 1 to 200 of 20,000 that differ." in c.value for c in at.caption)
    at.number_input(key="compare_lines_page").set_value(100).run()
    assert not at.exception, at.exception
    assert any("Lines 19,801 to 20,000 of 20,000" in c.value for c in at.caption)
    assert any("20000" in h.proto.body for h in at.get("html"))
    assert any("suggested by utf8-under-legacy" in c.value for c in at.caption)


def test_the_decisions_column_stands_out():
    """The decision's column is framed and badged as what the pipeline stores; others are not."""
    body = "<p>José Müller – café</p>".encode()
    at = _compare(body, "text/html; charset=iso-8859-1")
    badges = [m for m in at.markdown if "badge[" in m.value and "what the pipeline stores"
              in m.value]
    assert len(badges) == 1

    def blocks(node):
        for child in getattr(node, "children", {}).values():
            yield child
            yield from blocks(child)
    framed = [b.proto.id for b in blocks(at.main) if type(b).__name__ == "Block"
              and b.proto.WhichOneof("type") == "flex_container" and b.proto.flex_container.border]
    assert len(framed) == 1 and framed[0].endswith("compare_column_windows-1252")


def test_the_trace_wraps_its_why_column():
    """The trace's why column is the wide one and its rows wrap; the others are narrow."""
    import json

    at = _compare("<p>café</p>".encode(), "text/html; charset=iso-8859-1")
    trace = next(d for d in at.dataframe if "why" in d.value.columns)
    assert trace.proto.row_height > 64  # the grid wraps text only above 4rem
    widths = {name: config["width"] for name, config in json.loads(trace.proto.columns).items()
              if name in trace.value.columns}
    assert set(widths) == set(trace.value.columns)  # every column has a set width
    assert widths["why"] == max(widths.values())
    assert sum(widths.values()) <= 940  # the content width at a 1,400 px window


def test_a_mixed_page_gets_a_segment_by_segment_column():
    """UTF-8 with a windows-1252 footer: Compare offers the text read segment by segment."""
    body = ("<p>José Müller — “ok”</p>\n".encode()
            + "<footer>© 2009 – it’s “old”</footer>".encode("cp1252"))
    at = _compare(body, "text/html; charset=utf-8")
    assert any(m.value.startswith("**read segment by segment (utf-8 + windows-1252)")
               for m in at.markdown)
    assert any("2009" in h.proto.body and "old" in h.proto.body and "\ufffd" not in h.proto.body
               for h in at.get("html"))


def test_browsers_are_shown_and_a_different_reading_flagged():
    """Undeclared UTF-8: the pipeline stores UTF-8, Chromium shows windows-1252 mojibake,
    and the page says so beside the decision."""
    at = _compare("<p>José Müller — “Bitte klingeln”.</p>".encode(), "")
    table = next(d.value for d in at.dataframe if "would use" in d.value.columns)
    assert table.set_index("browser").loc["Chromium", "would use"] == "windows-1252"
    assert any("Chromium (windows-1252)" in w.value for w in at.warning)


def test_page_markup_reaches_st_html_escaped():
    """The page's own tags, scripts and entities are shown as text in every column: st.html
    gets them escaped, marks around the differing spans are the only tags it adds."""
    body = ("<p>Jos\u00e9</p><img src=x onerror=alert(1)><script>alert('x')</script>"
            "&amp; <b>caf\u00e9</b>").encode("utf-8")
    at = _compare(body, "text/html; charset=iso-8859-1")
    htmls = [el.proto.body for el in at.get("html")]
    assert htmls and all("<img" not in h and "<script" not in h and "<b>" not in h
                         for h in htmls)
    assert any("&lt;img src=x onerror=alert(1)&gt;" in h for h in htmls)
    assert any("&amp;amp;" in h for h in htmls)        # the entity itself, not what it means
    tags = {tag for h in htmls for tag in re.findall(r"</?([a-z]+)", h)}
    assert tags <= {"pre", "mark", "p"}


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_the_headline_names_both_browsers_when_they_differ():
    """Undeclared Shift_JIS: the headline agrees with the table (Firefox shift_jis, Chromium
    not predicted), not the HTML Standard's windows-1252 (issue 24)."""
    body = "<p>東京の天気は晴れです。日本語のページ、ソフトウェアのダウンロード。</p>".encode(
        "cp932")
    at = _compare(body, "")
    metrics = _metrics(at)
    assert metrics["Firefox would use"] == "shift_jis"
    assert metrics["Chromium would use"] == "not predicted"
    assert "A browser would use" not in metrics
    table = next(d.value for d in at.dataframe if "would use" in d.value.columns)
    rows = table.set_index("browser")["would use"]
    assert rows["Firefox"] == metrics["Firefox would use"]
    assert rows["Chromium"].startswith(metrics["Chromium would use"])


def test_the_headline_says_both_when_they_agree():
    """A declared page: one answer, for both browsers."""
    at = _compare("<p>café</p>".encode(), "text/html; charset=utf-8")
    assert _metrics(at)["Both browsers would use"] == "utf-8"
    assert not any(label.startswith(("Chromium", "Firefox")) for label in _metrics(at))


def test_needs_review_says_why():
    """Undeclared windows-1252 with little text: the review says why (the detector was
    unsure), and the "No conflicts" line below it points at that reason. (Italian: windows-1250
    reads its letters as Czech ones, so the detector's doubt stands; a French sentence whose
    every other reading is worse is settled since issue 21's second pass.)"""
    body = "<p>Il caffè è buono, città.</p>".encode("cp1252")
    at = _compare(body, "")
    review = [w.value for w in at.warning if w.value.startswith("Needs review")]
    assert len(review) == 1 and "detector" in review[0], review
    assert review[0] != "Needs review: the evidence is contradictory or the answer is uncertain."
    assert any("reason above" in s.value for s in at.success)


def test_a_hostile_override_id_is_shown_as_text(app_data) -> None:
    """An override id from the YAML file holding a Markdown image and a link is shown
    literally in Compare's "Site override ... applies" caption."""
    from tests.httpserver import ScriptedServer, respond
    from tests.overridefiles import approved_override

    path = app_data / "overrides.yaml"
    entry = approved_override(path, "127.0.0.1")
    hostile = "![p](http://127.0.0.1:9/p)[l](http://127.0.0.1:9/l)"
    path.write_text(path.read_text().replace(f"id: {entry.id}", f'id: "{hostile}"'))
    page = respond("<p>José</p>".encode(), headers=[("Content-Type", "text/html")])
    with ScriptedServer(routes={"/": page}) as srv:
        at = AppTest.from_file(APP, default_timeout=60)
        at.secrets["fetch"] = {"allowed_networks": ["127.0.0.1/32"], "total_timeout": 5}
        at.run()
        at.switch_page("app_pages/1_live_fetch.py").run()
        at.text_input(key="fetch_url").input(srv.url("/"))
        at.button(key="fetch_go").click().run()
    at.switch_page("app_pages/2_compare.py").run()
    assert not at.exception, at.exception
    [applies] = [c.value for c in at.caption if "applies" in c.value]
    html = markdown_html(applies)
    assert "<img" not in html and "<a " not in html and "127.0.0.1:9/p" in html


def _compare_cache_bytes() -> int:
    """The pickled bytes Compare's comparison caches hold (Streamlit's cache statistics, the
    numbers its /_stcore/metrics endpoint serves)."""
    from streamlit.runtime.caching import get_data_cache_stats_provider

    return sum(stat.byte_length for stats in get_data_cache_stats_provider().get_stats().values()
               for stat in stats if stat.cache_name.split(".")[-1].startswith("_compare"))


def test_large_inputs_do_not_pile_up_in_the_comparison_cache():
    """A comparison holds every candidate's whole text: a second large input in a session
    replaces the first in the cache instead of adding to it (32 could once pile up)."""
    at = _compare(("<p>0 José Müller – café " * 45_000).encode(), "text/html; charset=latin1")
    one = _compare_cache_bytes()
    assert one > 1_000_000
    second = ("<p>1 José Müller – café " * 45_000).encode()
    at.file_uploader(key="compare_upload").set_value(("p2.html", second, "text/html")).run()
    assert not at.exception, at.exception
    assert _compare_cache_bytes() < 1.5 * one
