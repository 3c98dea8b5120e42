"""Overrides: propose, review and re-test dated, reasoned per-site overrides kept in YAML."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import altair as alt
import pandas as pd
import streamlit as st

from encoding_core.errors import FetchError, OverrideError
from encoding_core.labels import ENCODING_NAMES
from encoding_core.landing import fetch_and_keep
from encoding_core.overrides import (
    MAX_REVIEW_DAYS,
    Approve,
    Change,
    OverrideEvidence,
    OverrideStore,
    Propose,
    Reject,
    Renew,
    Retire,
    SiteOverride,
    Status,
    default_path,
)
from encoding_core.overrides_model import due_state, host_matches
from encoding_core.overrides_retest import RetestResult, evidence_from_body, retest
from ui.components import md_escape
from ui.config import fetch_config
from ui.state import CurrentInput, get_current

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "overrides.yaml"
DUE_SOON_DAYS = 30
_PENDING, _FLASH, _RESULT = "overrides_pending", "overrides_flash", "overrides_retest_result"
_OPEN = (Status.PROPOSED, Status.APPROVED)
T = TypeVar("T")
_COLOURS = ["#f5a623", "#2e7d32", "#9e9e9e", "#cfcfcf"]  # proposed, approved, rejected, retired


@st.cache_data(show_spinner=False, max_entries=16)
def _evidence(body: bytes, content_type: str | None, url: str | None,
              capture: str | None) -> tuple[OverrideEvidence, str | None]:
    return evidence_from_body(body, content_type, url=url, capture=capture)


@st.cache_data(show_spinner="Decoding with and without the override…", max_entries=16)
def _retest(entry: SiteOverride, body: bytes, content_type: str | None) -> RetestResult:
    return retest(entry, body, content_type)


def overrides_page() -> None:
    st.title("Overrides")
    actor = _actor()
    store = OverrideStore(default_path())
    st.caption(f"File: {md_escape(str(store.path))} (set ENCODING_TRIAGE_OVERRIDES to use "
               "another one)")
    if flash := st.session_state.pop(_FLASH, None):
        st.success(md_escape(flash))
    _pending(store)
    try:
        entries = store.entries()
    except OverrideError as exc:
        st.error(f"The overrides file cannot be used, and will not be written until it is "
                 f"fixed by hand:  \n{md_escape(str(exc))}")
        if store.path.exists():
            st.code(store.path.read_text("utf-8", errors="replace"), language="yaml",
                    line_numbers=True)
        st.stop()
    if not entries:
        st.info("No overrides yet. Propose one below, or load the example file to look around.")
        if (not store.path.exists()
                and st.button("Load the example file", key="overrides_load_sample")
                and _guard(lambda: store.create(SAMPLE.read_text("utf-8"))) is not None):
            st.rerun()
    today = store.today()
    listing, propose, check, file = st.tabs(["Overrides", "Propose", "Re-test", "File"])
    with listing:
        _listing(store, entries, today, actor)
    with propose:
        _propose(store, today, actor)
    with check:
        _retest_view(entries, today)
    with file:
        st.download_button("Download the overrides file", store.text().encode("utf-8"),
                           file_name=store.path.name, mime="application/yaml",
                           key="overrides_download", on_click="ignore")
        st.code(store.text(), language="yaml", line_numbers=True)


def _actor() -> str | None:
    """The signed-in user when Streamlit auth is set up; else a name entered once a session."""
    user = st.user
    if getattr(user, "is_logged_in", False):
        name = user.get("email") or user.get("name")
        if name:
            st.sidebar.caption(f"Signed in as {md_escape(str(name))}")
            return str(name)
    if "reviewer_name" not in st.session_state and st.session_state.get("_reviewer_name"):
        st.session_state["reviewer_name"] = st.session_state["_reviewer_name"]
    name = st.sidebar.text_input("Your name", key="reviewer_name",
                                 placeholder="ada@example.com",
                                 help="Recorded with every proposal, approval and retirement.")
    st.session_state["_reviewer_name"] = name
    return name.strip() or None


def _guard(action: Callable[[], T]) -> T | None:
    """Run a store call; an OverrideError is shown, not raised."""
    try:
        return action()
    except OverrideError as exc:
        st.error(md_escape(str(exc)))
        return None


def _stage(store: OverrideStore, change: Change, actor: str | None, what: str) -> None:
    """Show the change as a diff at the top of the page; it is written only when confirmed."""
    if actor is None:
        st.error("Enter your name in the sidebar first: every change records who made it.")
        return
    diff = _guard(lambda: store.preview(change))
    if diff is not None:
        st.session_state[_PENDING] = (change, diff, what)
        st.rerun()


def _pending(store: OverrideStore) -> None:
    pending = st.session_state.get(_PENDING)
    if pending is None:
        return
    change, diff, what = pending
    with st.container(border=True, key="overrides_pending_box"):
        st.subheader("Check the change before it is written")
        st.text(what)
        st.code(diff, language="diff")
        st.caption("It is written under a lock to the file as it is then; a change someone "
                   "else made in the meantime is kept.")
        write, discard = st.columns(2)
        if write.button("Write this change", key="overrides_confirm", type="primary"):
            del st.session_state[_PENDING]
            entry = _guard(lambda: store.apply(change))
            if entry is not None:
                st.session_state[_FLASH] = (f"Written: {entry.id} for {entry.host} is "
                                            f"{entry.status}.")
                st.rerun()
        if discard.button("Discard", key="overrides_cancel"):
            del st.session_state[_PENDING]
            st.rerun()


def _marker(entry: SiteOverride, today: date) -> str:
    state = due_state(entry, today, DUE_SOON_DAYS)
    days = entry.days_left(today)
    return {"expired": f"OVERDUE by {-days} days", "due": f"due soon: {days} days left",
            "ok": f"{days} days left", "closed": ""}[state]


def _listing(store: OverrideStore, entries: tuple[SiteOverride, ...], today: date,
             actor: str | None) -> None:
    if not entries:
        return
    states = [due_state(e, today, DUE_SOON_DAYS) for e in entries]
    a, b, c, d = st.columns(4)
    a.metric("Applying", sum(e.status is Status.APPROVED and s != "expired"
                             for e, s in zip(entries, states, strict=True)))
    b.metric("Awaiting review", sum(e.status is Status.PROPOSED for e in entries))
    c.metric("Overdue", states.count("expired"))
    d.metric(f"Due within {DUE_SOON_DAYS} days", states.count("due"))
    st.dataframe(pd.DataFrame([{
        "id": e.id, "host": e.host, "encoding": e.encoding, "status": e.status.value,
        "review by": e.review_by, "due": _marker(e, today), "proposed by": e.created_by,
        "approved by": e.approved_by or "", "reason": e.reason} for e in entries]),
        hide_index=True, width="stretch", key="overrides_table")
    _timeline(entries, today)
    host = st.text_input("Which override applies to a host?", key="overrides_host_lookup",
                         placeholder="shop.example.com")
    if host.strip():
        statuses = store.status_for(host.strip(), today)
        st.dataframe(pd.DataFrame([{"id": s.entry.id, "pattern": s.entry.host,
                                    "encoding": s.entry.encoding, "applies": s.applied,
                                    "why": s.why} for s in statuses],
                                  columns=["id", "pattern", "encoding", "applies", "why"]),
                     hide_index=True, width="stretch", key="overrides_host_status")
    _actions(store, entries, today, actor)


def _timeline(entries: tuple[SiteOverride, ...], today: date) -> None:
    frame = pd.DataFrame([{"entry": f"{e.id} {e.host}", "status": e.status.value,
                           "created": e.created.date().isoformat(),
                           "review by": e.review_by.isoformat(), "due": _marker(e, today)}
                          for e in entries])
    bars = alt.Chart(frame).mark_bar(height=12).encode(
        x=alt.X("created:T", title="from proposal to review date"), x2="review by:T",
        y=alt.Y("entry:N", sort=None, title=None, axis=alt.Axis(labelLimit=320)),
        color=alt.Color("status:N", scale=alt.Scale(domain=[s.value for s in Status],
                                                    range=_COLOURS)),
        tooltip=["entry", "status", "created:T", "review by:T", "due"])
    rule = alt.Chart(pd.DataFrame({"today": [today.isoformat()]})).mark_rule(
        color="red", strokeDash=[4, 4]).encode(x="today:T", tooltip=["today:T"])
    st.altair_chart(bars + rule, key="overrides_timeline", width="stretch")


def _actions(store: OverrideStore, entries: tuple[SiteOverride, ...], today: date,
             actor: str | None) -> None:
    st.subheader("Review")
    open_entries = {e.id: e for e in entries if e.status in _OPEN}
    if not open_entries:
        st.info("Nothing to review: every entry is rejected or retired.")
        return
    ident = st.selectbox("Entry", list(open_entries), key="overrides_action_entry",
                         format_func=lambda i: f"{i}: {open_entries[i].host} → "
                         f"{open_entries[i].encoding} ({open_entries[i].status})")
    entry = open_entries[ident]
    reason = st.text_input("Reason (to reject, retire or renew)", key="overrides_action_reason")
    new_date = st.date_input("New review date (to renew)", value=today + timedelta(days=90),
                             min_value=today + timedelta(days=1),
                             max_value=today + timedelta(days=MAX_REVIEW_DAYS),
                             key="overrides_action_review_by")
    buttons = st.columns(4)
    who = actor or ""
    if buttons[0].button("Approve", key="overrides_approve"):
        _stage(store, Approve(entry.id, who), actor, f"{who} approves {entry.id}")
    if buttons[1].button("Reject", key="overrides_reject"):
        _stage(store, Reject(entry.id, who, reason), actor, f"{who} rejects {entry.id}")
    if buttons[2].button("Retire", key="overrides_retire"):
        _stage(store, Retire(entry.id, who, reason), actor, f"{who} retires {entry.id}")
    if buttons[3].button("Renew", key="overrides_renew"):
        _stage(store, Renew(entry.id, who, new_date, reason), actor,
               f"{who} renews {entry.id} until {new_date}")
    history = store.history(entry.id)
    st.dataframe(pd.DataFrame([{
        "at": h.at.isoformat(sep=" "), "by": h.by, "action": h.action, "reason": h.reason or "",
        "changed": "; ".join(f"{k}: {o} → {n}" for k, o, n in h.changes)} for h in history]),
        hide_index=True, width="stretch", key="overrides_history")


def _propose(store: OverrideStore, today: date, actor: str | None) -> None:
    current = get_current()
    evidence, suggested = None, None
    if current is None:
        st.info("No current input: pick a sample or fetch a page on another page to prefill "
                "the evidence, or fill the form by hand.")
    else:
        evidence, suggested = _evidence(current.body, current.content_type, current.url,
                                        current.capture_id)
        if st.session_state.get("overrides_propose_seen") != current.label:
            # a new input prefills the form again (before its widgets exist)
            st.session_state["overrides_propose_seen"] = current.label
            st.session_state["overrides_propose_host"] = current.host or ""
            st.session_state["overrides_propose_encoding"] = suggested or "utf-8"
        st.caption(f"Prefilled from the current input: {md_escape(current.label)}")
    names = [n for n in ENCODING_NAMES if n != "replacement"]
    st.session_state.setdefault("overrides_propose_encoding", "utf-8")
    st.session_state.setdefault("overrides_propose_review_by", today + timedelta(days=90))
    with st.form("overrides_propose_form"):
        host = st.text_input("Host (exact, or *.example.com for every subdomain)",
                             key="overrides_propose_host")
        encoding = st.selectbox("Encoding to force", names, key="overrides_propose_encoding")
        reason = st.text_area("Reason: what is wrong, and how do you know?",
                              key="overrides_propose_reason",
                              placeholder="The CDN sends charset=iso-8859-1 but the body has "
                                          "been UTF-8 since the 2025 migration.")
        review_by = st.date_input("Review by", min_value=today + timedelta(days=1),
                                  max_value=today + timedelta(days=MAX_REVIEW_DAYS),
                                  key="overrides_propose_review_by")
        attach = st.checkbox("Attach the evidence from the current input",
                             value=evidence is not None, disabled=evidence is None,
                             key="overrides_propose_attach")
        submitted = st.form_submit_button("Preview the proposal", key="overrides_propose_submit")
    if evidence is not None:
        st.dataframe(pd.DataFrame([{"field": k, "value": "" if v is None else str(v)}
                                   for k, v in _fields(evidence)]),
                     hide_index=True, width="stretch", key="overrides_propose_evidence")
    if submitted:
        change = Propose(host, encoding, reason, actor or "", review_by,
                         evidence if attach else None)
        _stage(store, change, actor, f"{actor} proposes {encoding} for {host}")


def _fields(evidence: OverrideEvidence) -> list[tuple[str, object]]:
    return [(k, getattr(evidence, k)) for k in ("url", "fetched_at", "sha256", "corrects",
                                                 "replacements", "conflicts", "capture")]


def _retest_view(entries: tuple[SiteOverride, ...], today: date) -> None:
    candidates = {e.id: e for e in entries if e.status in _OPEN}
    if not candidates:
        st.info("Nothing to re-test: no proposed or approved entries.")
        return
    order = sorted(candidates, key=lambda i: due_state(candidates[i], today, DUE_SOON_DAYS)
                   not in ("expired", "due"))
    ident = st.selectbox("Entry", order, key="overrides_retest_entry",
                         format_func=lambda i: f"{i}: {candidates[i].host} → "
                         f"{candidates[i].encoding} ({_marker(candidates[i], today)})")
    entry = candidates[ident]
    current = get_current()
    modes = ["Upload a sample"]
    if current is not None:
        modes.insert(0, "Current input")
    modes.append("Live fetch")
    mode = st.radio("Fresh sample", modes, horizontal=True, key="overrides_retest_source")
    load = _sample_loader(mode, entry, current)
    if st.button("Run the re-test", key="overrides_retest_run"):
        sample = load()
        if sample is not None:
            body, content_type, origin = sample
            if origin and not host_matches(entry.host, origin):
                st.warning(f"The sample comes from {md_escape(origin)}, which "
                           f"{md_escape(entry.host)} does not cover.")
            st.session_state[_RESULT] = _retest(entry, body, content_type)
    result = st.session_state.get(_RESULT)
    if isinstance(result, RetestResult) and result.entry_id == entry.id:
        _show_result(result)


Sample = tuple[bytes, str | None, str | None]  # body, Content-Type, host it came from


def _sample_loader(mode: str, entry: SiteOverride,
                   current: CurrentInput | None) -> Callable[[], Sample | None]:
    """Show the widgets for ``mode``; return what gets the sample when the re-test runs."""
    if mode == "Current input" and current is not None:
        st.caption(f"Current input: {md_escape(current.label)} ({len(current.body):,} bytes)")
        return lambda: (current.body, current.content_type, current.host)
    if mode == "Live fetch":
        default = (entry.evidence.url if entry.evidence and entry.evidence.url
                   else f"https://{entry.host.removeprefix('*.')}/")
        url = st.text_input("URL to fetch", value=default, key="overrides_retest_url")
        return lambda: _fetch(url)
    uploaded = st.file_uploader("A fresh response body (any bytes)", key="overrides_retest_upload")
    content_type = st.text_input("Content-Type it was served with (optional)",
                                 key="overrides_retest_content_type",
                                 placeholder="text/html; charset=iso-8859-1")

    def load() -> Sample | None:
        if uploaded is None:
            st.error("Upload a response body first.")
            return None
        return uploaded.getvalue(), content_type or None, None
    return load


def _fetch(url: str) -> Sample | None:
    settings, zone, _ = fetch_config()
    try:
        with st.spinner("Fetching…"):  # kept in the landing zone, like any other fetch
            capture = fetch_and_keep(url, zone, settings)
    except (FetchError, ValueError) as exc:
        st.error(md_escape(str(exc)))
        return None
    st.caption(f"Fetched {md_escape(capture.url)}: HTTP {capture.status}, "
               f"{len(capture.body):,} bytes at {capture.fetched_at}")
    return capture.body, capture.content_type, urlsplit(capture.url).hostname


def _use_as_reason(result: RetestResult) -> None:
    st.session_state["overrides_action_entry"] = result.entry_id
    st.session_state["overrides_action_reason"] = result.summary()


def _show_result(result: RetestResult) -> None:
    show = {"harmful": st.error, "unneeded": st.warning}.get(result.verdict, st.success)
    show(f"**{result.verdict}**: {md_escape(result.explanation)}")
    st.dataframe(pd.DataFrame([
        {"path": "without the override", "encoding": result.normal_encoding,
         "decided by": result.normal_source, "replacements": result.normal_replacements,
         "mojibake": result.normal_mojibake, "conflicts": result.normal_conflicts},
        {"path": "with the override", "encoding": result.override_encoding,
         "decided by": result.override_source, "replacements": result.override_replacements,
         "mojibake": result.override_mojibake, "conflicts": result.override_conflicts}]),
        hide_index=True, width="stretch", key="overrides_retest_table")
    st.code(result.summary(), language=None, wrap_lines=True)
    st.button("Use this as the reason to renew or retire", key="overrides_retest_use",
              on_click=_use_as_reason, args=(result,))


overrides_page()
