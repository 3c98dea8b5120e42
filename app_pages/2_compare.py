"""Compare: the decision and its trace, and the same bytes under every candidate, side by side."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from encoding_core import ENCODING_NAMES, BrowserAnswer, browser_answers, compare_candidates
from encoding_core.decision.models import Source
from encoding_core.overrides.model import OverrideStatus
from encoding_core.overrides.retest import decode_with_overrides
from encoding_core.views.cases import cases_json, regression_case
from encoding_core.views.compare import Comparison, line_count, shown_lines
from ui.components import highlighted_html, input_picker, md_escape, render_decision
from ui.overrides_access import host_overrides, say_applied

MAX_LINES = 200
_SOURCES = frozenset(str(source) for source in Source)
MAX_LINE_CHARS = 2_000  # a minified page is one line: shown cut, with how much is left


#: A comparison holds every candidate's whole text (several times the input): inputs up to
#: this size share one server-wide cache bounded in bytes; a larger one is cached only for its
#: own session, one at a time, and goes when the tab closes.
SHARED_CACHE_INPUT = 1 << 20


@st.cache_data(show_spinner="Decoding under every candidate…", max_entries=32,
               max_size="128MiB")
def _compare_small(body: bytes, content_type: str | None, extra: tuple[str, ...],
                   statuses: tuple[OverrideStatus, ...]) -> Comparison:
    return _decided_comparison(body, content_type, extra, statuses)


@st.cache_data(show_spinner="Decoding under every candidate…", max_entries=1, scope="session")
def _compare_large(body: bytes, content_type: str | None, extra: tuple[str, ...],
                   statuses: tuple[OverrideStatus, ...]) -> Comparison:
    return _decided_comparison(body, content_type, extra, statuses)


def _decided_comparison(body: bytes, content_type: str | None, extra: tuple[str, ...],
                        statuses: tuple[OverrideStatus, ...]) -> Comparison:
    # decided as Fetch and Bytes decide: the host's overrides, every matching entry traced
    return compare_candidates(body, content_type, extra=extra,
                              decision=decode_with_overrides(body, content_type, statuses))


def _compare(body: bytes, content_type: str | None, extra: tuple[str, ...],
             statuses: tuple[OverrideStatus, ...]) -> Comparison:
    cached = _compare_small if len(body) <= SHARED_CACHE_INPUT else _compare_large
    return cached(body, content_type, extra, statuses)


@st.cache_data(show_spinner=False, max_entries=32)
def _browsers(body: bytes, content_type: str | None, url: str | None
              ) -> tuple[BrowserAnswer, ...]:
    return browser_answers(body, content_type, url)


def _regression_case(body: bytes, content_type: str | None, result: Comparison, label: str,
                     slot: DeltaGenerator) -> None:
    """Offer the bytes as a test case that pins (or corrects) the decision."""
    names = [c.encoding for c in result.columns if c.mixed_with is None]
    with slot.popover("Save as a regression case"):
        expected = st.selectbox("The right encoding for these bytes is", names,
                                key="compare_case_expect")
        try:
            case = regression_case(body, content_type, result.decision, label=label,
                                   expect_encoding=expected)
        except ValueError as exc:
            st.info(md_escape(str(exc)))
            return
        st.caption("Add it to a file in tests/cases (see tests/cases/README.md). "
                   + ("It pins today's decision." if case["expect"] == "pass" else
                      "It disagrees with today's decision, so it runs as a known failure."))
        st.download_button("Download the case (JSON)", cases_json([case]).encode("utf-8"),
                           file_name=f"{case['label']}.json", mime="application/json",
                           key="compare_download_case", on_click="ignore")


def _origin(sources: tuple[str, ...]) -> str:
    """Why a column is there, in words: the sources that named it, a conflict's suggestion,
    a reference encoding, or one the user added."""
    words = {"reference": "a reference encoding", "added": "added by you"}
    named = [words.get(s, s if s in _SOURCES else f"suggested by {s}") for s in sources]
    return "from " + (", ".join(named) if named else "the decision")


def compare_page() -> None:
    st.title("Compare")
    st.caption("The decision, every source's opinion, and the same bytes decoded under each "
               "candidate encoding, with the spans where they differ highlighted.")
    item = input_picker("compare")
    if item is None:
        st.info("Pick a sample or upload a file to compare.")
        st.stop()
    extra = st.multiselect("Also decode as", [n for n in ENCODING_NAMES if n != "replacement"],
                           key="compare_extra")
    result = _compare(item.body, item.content_type, tuple(extra), host_overrides(item.host))
    say_applied(result.decision)
    render_decision(result.decision, key="compare",
                    browsers=_browsers(item.body, item.content_type, item.url))
    left, right = st.columns(2)
    left.download_button("Download the decision (JSON)",
                         result.decision.to_json(include_text=False).encode("utf-8"),
                         file_name="decision.json", mime="application/json",
                         key="compare_download_json", on_click="ignore")
    _regression_case(item.body, item.content_type, result, item.label, right)

    st.subheader("Side by side")
    scores = pd.DataFrame([{"encoding": c.encoding, "mojibake score": c.mojibake,
                            "replacements": c.replacements} for c in result.columns])
    st.altair_chart(
        alt.Chart(scores).transform_fold(["mojibake score", "replacements"], as_=["measure", "n"])
        .mark_bar().encode(x=alt.X("n:Q", title="count",  # counts: whole-number ticks only
                                   axis=alt.Axis(format="d", tickMinStep=1)),
                           y=alt.Y("encoding:N", sort="-x"), color="measure:N", yOffset="measure:N",
                           tooltip=["encoding", "measure:N", "n:Q"]),
        width="stretch")
    lines = result.differing_lines
    only_diff = st.toggle("Only the line that differs" if len(lines) == 1 else
                          f"Only the {len(lines):,} lines that differ", value=bool(lines),
                          key="compare_only_diff")
    total = line_count(result, only_differing=only_diff)
    first = 0
    if total > MAX_LINES:
        pages = -(-total // MAX_LINES)
        page = st.number_input(f"{total:,} lines: {MAX_LINES} a page; page", min_value=1,
                               max_value=pages, value=1, key="compare_lines_page")
        first = (int(page) - 1) * MAX_LINES
        st.caption(f"Lines {first + 1:,} to {min(first + MAX_LINES, total):,} of {total:,}"
                   + (" that differ." if only_diff else "."))
    per_row = 3
    for i in range(0, len(result.columns), per_row):
        for column, slot in zip(result.columns[i:i + per_row], st.columns(per_row), strict=False):
            # the decision's column stands out: a border and a badge, not only its title
            with slot, st.container(border=column.is_decision,
                                    key=f"compare_column_{column.encoding}"):
                title = (f"read segment by segment (utf-8 + {column.mixed_with})"
                         if column.mixed_with is not None else
                         f"{column.encoding}{' (decision)' if column.is_decision else ''}")
                st.markdown(f"**{title}**")
                if column.is_decision:
                    st.badge("what the pipeline stores", icon=":material/check:", color="green")
                st.caption(f"{_origin(column.sources)} · strict: "
                           f"{'ok' if column.strict_ok else 'failed'} · replacements "
                           f"{column.replacements} · mojibake score {column.mojibake}")
                chunks = []
                for line in shown_lines(result, column, only_differing=only_diff,
                                        max_lines=MAX_LINES, max_chars=MAX_LINE_CHARS,
                                        first=first):
                    chunks.append(highlighted_html(*line.numbered()))
                # every chunk is page text through highlighted_html, which escapes it all
                st.html("".join(chunks) or "<p>(no differing lines)</p>")


compare_page()
