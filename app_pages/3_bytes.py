"""Bytes: the offending sequences with a hex window, and the bytes behind a piece of text."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from encoding_core import ENCODING_NAMES, decode, explain_text, format_rows, inspect_bytes
from encoding_core.byteinspect import ByteReport, TextExplanation
from encoding_core.models import Decoded
from ui.components import input_picker

_COMMON = ("utf-8", "windows-1252", "iso-8859-2", "windows-1251", "shift_jis", "gbk")


@st.cache_data(show_spinner=False, max_entries=32)
def _decide(body: bytes, content_type: str | None) -> Decoded:
    return decode(body, content_type)


@st.cache_data(show_spinner="Looking for offending bytes…", max_entries=32)
def _inspect(body: bytes, encoding: str, candidates: tuple[str, ...]) -> ByteReport:
    return inspect_bytes(body, encoding, candidates)


@st.cache_data(show_spinner=False, max_entries=64)
def _explain(text: str) -> TextExplanation:
    return explain_text(text)


def bytes_page() -> None:
    st.title("Bytes")
    tab_bytes, tab_text = st.tabs(["Offending bytes", "Bytes behind a text"])
    with tab_text:
        _text_view()
    with tab_bytes:
        _bytes_view()


def _bytes_view() -> None:
    item = input_picker("bytes")
    if item is None:
        st.info("Pick a sample or upload a file to see its bytes.")
        return
    decided = _decide(item.body, item.content_type)
    names = [n for n in ENCODING_NAMES if n != "replacement"]
    if st.session_state.get("bytes_input_seen") != item.label:
        # a new input starts from its own decision, not the previous input's encoding
        st.session_state["bytes_input_seen"] = item.label
        st.session_state["bytes_encoding"] = decided.encoding
    encoding = st.selectbox("Read the bytes as", names, key="bytes_encoding",
                            help="Defaults to the decision's encoding.")
    candidates = tuple(dict.fromkeys([decided.encoding, *(_COMMON)]))
    report = _inspect(item.body, encoding, candidates)
    if report.total == 0:
        st.success(f"Every byte decodes as {encoding} and the body is ASCII: nothing to show.")
        return
    what = ("malformed sequences" if report.kind == "malformed"
            else "non-ASCII runs (valid here; check that they read as intended)")
    st.write(f"{report.total} {what} under {encoding}; showing {len(report.findings)}.")
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
        for cp in explain_text(text).code_points:
            rows.append({"read as": enc, "strict": "ok" if strict_ok else "failed",
                         "character": cp.char, "code point": cp.code, "name": cp.name})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="bytes_readings")


def _text_view() -> None:
    text = st.text_input("Paste text that looks wrong", value="cafÃ©", key="bytes_text")
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
        if len(explained.chains) > 1:
            st.dataframe(pd.DataFrame([{"chain": " → ".join(c.steps), "repaired": c.repaired,
                                        "bytes": c.original_bytes.hex(" ").upper()}
                                       for c in explained.chains]),
                         hide_index=True, width="stretch", key="bytes_chains")
    if finding is not None and finding.repaired is not None and (
            not explained.chains or finding.repaired != explained.chains[0].repaired):
        st.warning("Damaged in parts or in mixed layers: ftfy's reading goes further.")
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
