"""Rendering pieces shared by the pages. Untrusted text is escaped or shown as plain text.

Page content and uploaded files are untrusted: they reach the screen only through
``st.text``, ``st.code``, ``st.dataframe``, or, for highlighted spans, through
``highlighted_html`` which HTML-escapes every character of the text before adding marks.
Messages that quote page content (conflicts) go through ``md_escape`` before Markdown.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from encoding_core.decision.browsers import BrowserAnswer
from encoding_core.decision.models import Decoded, Source
from ui.state import CurrentInput, get_current, set_current
from ui.wording import md_code

SAMPLES_DIR = Path(__file__).resolve().parents[1] / "samples"
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:])")
# What GitHub-flavoured Markdown autolinks: a URL with a scheme, www., an e-mail address.
_LINK_LIKE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://\S+|www\.\S+|\S+@\S+\.\S+")


def md_escape(text: str) -> str:
    """Escape Markdown (and HTML) syntax so text shows literally in st.markdown/st.error.

    Streamlit turns ``http://...``, ``www.x`` and ``a@b.c`` into links even when escaped
    (checked in Chromium, also with character references), so those go in code spans
    (``ui.wording.md_code``): a code span is never a link.

    >>> md_escape("see *http://x.example/* now")
    'see \\\\*`http://x.example/*` now'
    """
    parts, pos = [], 0
    for match in _LINK_LIKE.finditer(text):
        parts.append(_MD_SPECIAL.sub(r"\\\1", text[pos:match.start()]))
        parts.append(md_code(match.group()))
        pos = match.end()
    parts.append(_MD_SPECIAL.sub(r"\\\1", text[pos:]))
    return "".join(parts)


def highlighted_html(text: str, spans: tuple[tuple[int, int], ...] = ()) -> str:
    """``text`` HTML-escaped in a <pre>, with the half-open ``spans`` wrapped in <mark>."""
    parts, pos = [], 0
    for start, end in spans:
        parts.append(html.escape(text[pos:start]))
        parts.append(f"<mark>{html.escape(text[start:end]) or '&#x2423;'}</mark>")
        pos = end
    parts.append(html.escape(text[pos:]))
    return ('<pre style="white-space: pre-wrap; word-break: break-all; margin: 0">'
            + "".join(parts) + "</pre>")


@st.cache_data(show_spinner=False)
def load_samples() -> list[dict[str, str]]:
    """The bundled samples' index (samples/samples.json)."""
    data: list[dict[str, str]] = json.loads((SAMPLES_DIR / "samples.json").read_text("utf-8"))
    return data


def sample_input(name: str) -> CurrentInput:
    """A bundled sample as the current input."""
    entry = next(s for s in load_samples() if s["name"] == name)
    body = (SAMPLES_DIR / entry["file"]).read_bytes()
    return CurrentInput(label=f"sample: {name}", body=body, content_type=entry["content_type"])


def input_picker(prefix: str) -> CurrentInput | None:
    """Choose the bytes to look at: the current input, a bundled sample, or an uploaded file."""
    current = get_current()
    modes = ["Sample", "Upload a file"]
    if current is not None:
        modes.insert(0, "Current input")
    mode = st.radio("Input", modes, horizontal=True, key=f"{prefix}_mode")
    if mode == "Current input" and current is not None:
        st.caption(f"Current input: {md_escape(current.label)} ({len(current.body):,} bytes)")
        return current
    if mode == "Sample":
        samples = load_samples()
        names = [s["name"] for s in samples]
        descriptions = {s["name"]: s["description"] for s in samples}
        name = st.selectbox("Sample", names, key=f"{prefix}_sample",
                            format_func=lambda n: f"{n}: {descriptions[n]}")
        item = sample_input(name)
        st.caption(f"Served with Content-Type: {item.content_type}")
        set_current(item)
        return item
    uploaded = st.file_uploader("A saved response body (any bytes)", key=f"{prefix}_upload")
    content_type = st.text_input("Content-Type header it was served with (optional)",
                                 key=f"{prefix}_content_type",
                                 placeholder="text/html; charset=iso-8859-1")
    if uploaded is None:
        return None
    item = CurrentInput(label=f"file: {uploaded.name}", body=uploaded.getvalue(),
                        content_type=content_type or None)
    set_current(item)
    return item


def evidence_frame(decoded: Decoded) -> pd.DataFrame:
    """The trace as a table, one row per source consulted."""
    return pd.DataFrame([
        {"source": str(e.source), "said": e.raw_label or "", "encoding": e.encoding or "",
         "used": e.used, "strict": {None: "", True: "ok", False: "failed"}[e.strict_ok],
         "error at": "" if e.error_offset is None else str(e.error_offset),
         "confidence": "" if e.confidence is None else f"{e.confidence:.2f}",
         "why": e.reason}
        for e in decoded.evidence])


def _text(width: int) -> Any:
    return st.column_config.TextColumn(width=width)


# The trace's why column holds sentences: the short columns are narrow (in pixels, with short
# headers) and the rows tall enough that the grid wraps text (only above 4rem), so the table
# fits the page at 1,400 px (about 940 px of content) and no column is cut.
TRACE_COLUMNS = {"source": _text(105), "said": _text(90), "encoding": _text(105),
                 "used": st.column_config.CheckboxColumn(width=50), "strict": _text(60),
                 "error at": _text(70), "confidence": _text(85), "why": _text(360)}


NOT_PREDICTED = "not predicted"


def browser_headline(decoded: Decoded, answers: Sequence[BrowserAnswer]
                     ) -> tuple[tuple[str, str], ...]:
    """The headline's (label, value) metrics about browsers, agreeing with their table.

    - no per-browser answers: the HTML Standard's answer (``Decoded.browser_encoding``);
    - both browsers answer the same: that, once;
    - otherwise each browser by name, ``not predicted`` where its own detector decides.
    """
    if not answers:
        return (("A browser would use", decoded.browser_encoding),)
    encodings = {a.encoding for a in answers}
    if len(encodings) == 1 and None not in encodings:
        return (("Both browsers would use", answers[0].encoding or NOT_PREDICTED),)
    return tuple((f"{a.browser.capitalize()} would use", a.encoding or NOT_PREDICTED)
                 for a in answers)


def review_reasons(decoded: Decoded) -> tuple[str, ...]:
    """Why a decision needs review, in words, from its trace and conflicts (never empty when
    ``needs_review`` is set: the last resort points at the trace)."""
    if not decoded.needs_review:
        return ()
    reasons = []
    if decoded.lossy:
        reasons.append(f"nothing decoded strictly, so {decoded.replacements:,} bytes became "
                       "U+FFFD")
    if any(c.severity == "error" for c in decoded.conflicts):
        reasons.append("a conflict below contradicts the decision")
    for e in decoded.evidence:
        if e.source != Source.DETECTOR or (e.encoding is None
                                           and "no confident" not in e.reason):
            continue
        if "no confident" in e.reason:
            reasons.append("the detector had no confident answer, so a fallback decided")
        elif e.used:
            reasons.append(f"the detector chose {e.encoding} but marked it uncertain (little "
                           "non-ASCII text to go on, or its voters disagree): check the text")
        elif e.strict_ok is False:
            reasons.append(f"the detector's answer ({e.encoding}) did not decode the page")
        else:
            reasons.append(f"the detector's answer ({e.encoding}) was set aside: {e.reason}")
    return tuple(reasons) or ("a step of the trace below is uncertain",)


def render_browsers(decoded: Decoded, answers: Sequence[BrowserAnswer], *, key: str) -> None:
    """What Chromium and Firefox would use, beside the decision; a warning where a user's
    browser would show another text than the one the pipeline stores."""
    if not answers:
        return
    st.dataframe(pd.DataFrame([{"browser": a.browser.capitalize(),
                                "would use": a.encoding or f"{NOT_PREDICTED} (its detector "
                                                           "decides)",
                                "because": a.why} for a in answers]),
                 hide_index=True, width="stretch", key=f"{key}_browsers", row_height=72,
                 column_config={"browser": _text(90), "would use": _text(160),
                                "because": _text(600)})
    differ = [a for a in answers if a.encoding is not None and a.encoding != decoded.encoding]
    if differ:
        names = " and ".join(f"{a.browser.capitalize()} ({a.encoding})" for a in differ)
        st.warning(f"A user's browser shows another text than the one stored: {names} would "
                   f"read this page differently from the decision ({decoded.encoding}).",
                   icon=":material/travel_explore:")


def render_decision(decoded: Decoded, *, key: str,
                    browsers: Sequence[BrowserAnswer] = ()) -> None:
    """The decision, its conflicts with advice, what browsers would do, and the trace."""
    a, b, c, d = st.columns(4)
    a.metric("Encoding", decoded.encoding)
    b.metric("Decided by", decoded.decided_by)
    c.metric("Replacements (U+FFFD)", decoded.replacements)
    for label, value in browser_headline(decoded, browsers):  # both browsers named when
        d.metric(label, value)                                # they differ, one under the other
    if decoded.needs_review:
        st.warning("Needs review: " + md_escape("; ".join(review_reasons(decoded))) + ".")
    for conflict in decoded.conflicts:
        show = {"error": st.error, "warning": st.warning}.get(conflict.severity, st.info)
        show(f"**{md_escape(conflict.kind)}**: {md_escape(conflict.message)}  \n"
             f"{md_escape(conflict.advice)}")
    if not decoded.conflicts:
        st.success("No conflicts: every source that spoke agrees with the decision."
                   + (" The review is for the reason above." if decoded.needs_review else ""))
    st.subheader("Trace")
    st.dataframe(evidence_frame(decoded), hide_index=True, width="stretch", key=f"{key}_trace",
                 row_height=72, column_config=TRACE_COLUMNS)
    if browsers:
        st.subheader("What browsers would do")
        render_browsers(decoded, browsers, key=key)
