"""Bytes: the offending sequences with a hex window, and the bytes behind a piece of text.

Another page can open it on a text before ``st.switch_page``, as the CSV scan page does for a
suspicious cell: ``st.session_state["bytes_tab"]`` is the tab's label ("Bytes behind a text"),
``"bytes_text"`` the text, and ``"bytes_mode"`` the input picker's choice ("Current input").
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from encoding_core import (
    ENCODING_NAMES,
    decode_with_overrides,
    explain_text,
    format_rows,
    inspect_bytes,
)
from encoding_core.decision.detect import default_detector
from encoding_core.decision.models import Decoded
from encoding_core.decision.segments import SegmentMap, segment_map
from encoding_core.overrides.model import OverrideStatus
from encoding_core.views.byteinspect import ByteReport, TextExplanation
from encoding_core.wording import plural
from ui.components import input_picker
from ui.overrides_access import host_overrides, say_applied

_COMMON = ("utf-8", "windows-1252", "iso-8859-2", "windows-1251", "shift_jis", "gbk")
_TABS = ["Offending bytes", "Bytes behind a text"]   # "bytes_tab" holds one (module docstring)


@st.cache_data(show_spinner=False, max_entries=32)
def _decide(body: bytes, content_type: str | None,
            statuses: tuple[OverrideStatus, ...]) -> Decoded:
    return decode_with_overrides(body, content_type, statuses)


@st.cache_data(show_spinner="Looking for offending bytes…", max_entries=32)
def _inspect(body: bytes, encoding: str, candidates: tuple[str, ...]) -> ByteReport:
    return inspect_bytes(body, encoding, candidates)


@st.cache_data(show_spinner=False, max_entries=64)
def _explain(text: str) -> TextExplanation:
    return explain_text(text)


@st.cache_data(show_spinner="Mapping the encodings…", max_entries=16)
def _segments(body: bytes) -> SegmentMap | None:
    return segment_map(body, default_detector)


def _segment_map(body: bytes) -> None:
    """Where a page that mixes encodings is UTF-8 and where it is the other: table, strip."""
    found = _segments(body)
    if found is None:
        return
    st.subheader("Segment map")
    st.caption(f"The page mixes UTF-8 and {found.legacy} ({found.reason}); each segment read "
               "in its own encoding. A boundary in ASCII bytes is not exact: it was put at "
               "the gap's last line break or tag.")
    frame = pd.DataFrame([{"from byte": s.start, "to byte": s.end, "encoding": s.encoding,
                           "boundary": "exact" if s.sure else f"somewhere in {s.gap[0]}-{s.gap[1]}"
                           if s.gap else "", "starts with": s.text[:60]}
                          for s in found.segments])
    st.dataframe(frame, hide_index=True, width="stretch", key="bytes_segments")
    strip = alt.Chart(frame).mark_bar(height=18).encode(
        x=alt.X("from byte:Q", title="byte offset"), x2="to byte:Q",
        color=alt.Color("encoding:N", title=None),
        tooltip=["from byte", "to byte", "encoding", "boundary"])
    st.altair_chart(strip.properties(height=60), width="stretch", key="bytes_segments_strip")


def bytes_page() -> None:
    st.title("Bytes")
    st.session_state.setdefault("bytes_text", "cafÃ©")   # unless another page set it
    tab_bytes, tab_text = st.tabs(_TABS, key="bytes_tab", on_change="rerun")
    with tab_text:
        _text_view()
    with tab_bytes:
        _bytes_view()


def _bytes_view() -> None:
    item = input_picker("bytes")
    if item is None:
        st.info("Pick a sample or upload a file to see its bytes.")
        return
    # decided as Compare and Fetch decide: the host's overrides, every matching entry traced
    decided = _decide(item.body, item.content_type, host_overrides(item.host))
    say_applied(decided)
    names = [n for n in ENCODING_NAMES if n != "replacement"]
    seen = (item.label, decided.encoding)
    if st.session_state.get("bytes_input_seen") != seen:
        # a new input (or a new decision for it) starts from its own decision, not the
        # previous input's encoding
        st.session_state["bytes_input_seen"] = seen
        st.session_state["bytes_encoding"] = decided.encoding
    encoding = st.selectbox("Read the bytes as", names, key="bytes_encoding",
                            help="Defaults to the decision's encoding.")
    candidates = tuple(dict.fromkeys([decided.encoding, *(_COMMON)]))
    report = _inspect(item.body, encoding, candidates)
    if report.total == 0:
        st.success(f"Every byte decodes as {encoding} and the body is ASCII: nothing to show.")
        return
    shown = sum(f.sequences for f in report.findings)
    if report.kind == "malformed":
        st.text(f"{plural(report.total, 'malformed sequence')} under {encoding}; "
                f"showing {shown:,}.")
    else:
        st.text(f"{plural(report.total, 'non-ASCII run')} under {encoding} (valid here; check "
                f"that they read as intended); showing {shown:,}.")
    st.caption("Each row is cut on whole characters of every encoding shown, so a row can "
               "hold more than one sequence (in Shift_JIS, 83 5C is one character: a second "
               "byte can be ASCII).")
    st.dataframe(pd.DataFrame([{"offset": f.offset, "line": f.line, "column": f.column,
                                "bytes": f.data.hex(" ").upper(),
                                **{enc: text for enc, text, _ in f.readings}}
                               for f in report.findings]),
                 hide_index=True, width="stretch", key="bytes_table")
    labels = [f"offset {f.offset} (line {f.line}, column {f.column})" for f in report.findings]
    chosen = st.selectbox("Look closer at", range(len(labels)), format_func=labels.__getitem__,
                          key="bytes_finding")
    finding = report.findings[chosen]
    st.code(format_rows(finding.rows), language=None)
    st.caption("Bytes in [brackets] are the sequence; the column on the right shows ASCII.")
    rows = []
    for enc, text, strict_ok in finding.readings:
        for cp in _explain(text).code_points:
            rows.append({"read as": enc, "strict": "ok" if strict_ok else "failed",
                         "character": cp.char, "code point": cp.code, "name": cp.name})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="bytes_readings")
    if any(c.kind == "mixed-encoding" for c in decided.conflicts):
        _segment_map(item.body)


def _text_view() -> None:
    text = st.text_input("Paste text that looks wrong", key="bytes_text")
    if not text:
        st.info("Paste some text, e.g. JosÃ© or â€™.")
        return
    explained = _explain(text)
    finding = explained.finding
    if explained.chains:
        best = explained.chains[0]
        st.success("This text is explained by a decode chain over the whole text.")
        st.text(f"chain: {' → '.join(best.steps)}\nrepaired: {best.repaired}\n"
                f"original bytes: {best.original_bytes.hex(' ').upper()}")
        if best.note:
            st.warning(f"Check it: {best.note}.", icon=":material/help:")
        if len(explained.chains) > 1:
            st.dataframe(pd.DataFrame([{"chain": " → ".join(c.steps), "repaired": c.repaired,
                                        "bytes": c.original_bytes.hex(" ").upper()}
                                       for c in explained.chains]),
                         hide_index=True, width="stretch", key="bytes_chains")
    if finding is not None and finding.repaired is not None and (
            not explained.chains or finding.repaired != explained.chains[0].repaired):
        if finding.kind == "partly-repairable":
            st.warning(f"Partly repairable: the repair below brings back all but "
                       f"{plural(finding.lost, 'character')}, which stay lost (U+FFFD or ?).")
        elif explained.chains:  # two readings: neither is known to be the right one
            st.info("ftfy reads it differently (it repairs span by span): compare the two.")
        else:
            st.warning("Damaged in parts or in mixed layers: ftfy repairs it span by span.")
        spans = ", ".join(f"{text[a:b]!r} at {a}" for a, b in finding.spans)
        st.text(f"chain: {finding.chain}\nrepaired: {finding.repaired}\ndamaged spans: {spans}")
    elif finding is not None and finding.repaired is None:
        st.error("Lost: the original characters were replaced and cannot be recovered here.")
        st.text(f"what happened: {finding.chain}")
    elif finding is None and not explained.chains:
        st.info("This text looks clean: no decode chain explains it and ftfy finds no damage.")
    st.code("UTF-8 bytes: " + explained.utf8.hex(" ").upper(), language=None)
    st.dataframe(pd.DataFrame([{"character": c.char, "code point": c.code, "name": c.name}
                               for c in explained.code_points]),
                 hide_index=True, width="stretch", key="bytes_codepoints")


bytes_page()
