"""Overrides: propose, review and re-test dated, reasoned per-site overrides kept in YAML."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

import streamlit as st

from encoding_core.errors import FetchError, OverrideError
from encoding_core.hosts import host_of
from encoding_core.overrides.model import due_state, host_matches
from encoding_core.overrides.retest import (
    RetestResult,
    evidence_from_body,
    override_problem,
    retest,
)
from encoding_core.overrides.store import (
    DUE_DAYS,
    MAX_REVIEW_DAYS,
    Approve,
    Change,
    Identity,
    OverrideEvidence,
    OverrideStore,
    Propose,
    Reject,
    Renew,
    Retire,
    SiteOverride,
    actions_for,
    default_path,
    overlap_warnings,
    renewal_date,
    renewal_refusal,
    review_order,
)
from encoding_core.warc.landing import LandingZone, LandingZoneError, fetch_and_keep, reopen
from encoding_core.whatwg.labels import ENCODING_NAMES
from ui.components import md_escape
from ui.config import fetch_config
from ui.overrides_identity import acting
from ui.overrides_staging import (
    author_earlier,
    guard,
    reason_key,
    render_pending,
    stage,
)
from ui.overrides_view import (
    due_marker,
    render_entry,
    render_evidence,
    render_history,
    render_host_status,
    render_overview,
)
from ui.retest_view import Sample, render_result, sample_loader
from ui.state import get_current

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "overrides.yaml"
_RESULTS = "overrides_retests"  # entry id -> its latest re-test in this session
# entry id -> what the run said beside its result (where the sample came from), kept so it is
# still shown after the rerun that lets the Review tab see the new re-test
_NOTES = "overrides_retest_notes"
_FETCHED = "overrides_retest_fetched"  # the live fetch's own line, for the next notes


@st.cache_data(show_spinner=False, max_entries=16)
def _evidence(body: bytes, content_type: str | None, url: str | None,
              capture: str | None, fetched_at: str | None) -> tuple[OverrideEvidence, str]:
    return evidence_from_body(body, content_type, url=url, capture=capture,
                              fetched_at=fetched_at)


@st.cache_data(show_spinner=False, max_entries=16)
def _problem(body: bytes, content_type: str | None, encoding: str) -> str | None:
    return override_problem(body, content_type, encoding)


@st.cache_data(show_spinner=False, max_entries=16)
def _fetched_at(capture: str, zone: LandingZone) -> str | None:
    """When the kept capture was fetched (None once it has left the landing zone)."""
    try:
        return reopen(capture, zone).fetched_at
    except LandingZoneError:
        return None


def _retests() -> dict[str, RetestResult]:
    results: dict[str, RetestResult] = st.session_state.setdefault(_RESULTS, {})
    return results


def overrides_page() -> None:
    st.title("Overrides")
    who = acting()
    actor = who.identity
    store = OverrideStore(default_path(), unverified_refusal=who.unverified_refusal)
    st.caption(f"File: {md_escape(str(store.path))} (set ENCODING_TRIAGE_OVERRIDES to use "
               "another one)")
    render_pending(store)
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
                and guard(lambda: store.create(SAMPLE.read_text("utf-8"))) is not None):
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


def _listing(store: OverrideStore, entries: tuple[SiteOverride, ...], today: date,
             actor: Identity | None) -> None:
    if not entries:
        return
    render_overview(entries, today)
    host = st.text_input("Which override applies to a host?", key="overrides_host_lookup",
                         placeholder="shop.example.com")
    if host.strip():
        render_host_status(store.status_for(host.strip(), today))
    _actions(store, entries, today, actor)


def _actions(store: OverrideStore, entries: tuple[SiteOverride, ...], today: date,
             actor: Identity | None) -> None:
    st.subheader("Review")
    open_entries = {e.id: e for e in review_order(entries, today)}
    if not open_entries:
        st.info("Nothing to review: every entry is rejected or retired.")
        return
    ident = st.selectbox("Entry", list(open_entries), key="overrides_action_entry",
                         format_func=lambda i: f"{i}: {open_entries[i].host} → "
                         f"{open_entries[i].encoding} ({open_entries[i].status})")
    entry = open_entries[ident]
    render_entry(entry, today)
    notes = author_earlier(entry.created_by, entry.id, actor)
    for note in notes:
        st.warning(md_escape(note))
    actions = actions_for(entry.status)  # only what the entry's status allows
    latest = _retests().get(entry.id)
    refusal = renewal_refusal(entry, latest, today) if "renew" in actions else None
    # the reason belongs to the entry it is written for (cleared once a change is written)
    reason = st.text_input(f"Reason (to {' or '.join(a for a in actions if a != 'approve')})",
                           key=reason_key(entry.id))
    # the new review date counts from the re-test the renewal rests on
    first, last = today + timedelta(days=1), today + timedelta(days=MAX_REVIEW_DAYS)
    suggested = renewal_date(latest) if latest else today + timedelta(days=90)
    new_date = (st.date_input("New review date (to renew)",
                              value=min(max(suggested, first), last),
                              min_value=first, max_value=last,
                              key="overrides_action_review_by")
                if "renew" in actions else today)
    who = actor or Identity.typed("")
    changes: dict[str, Callable[[], Change]] = {
               "approve": lambda: Approve(entry.id, who),
               "reject": lambda: Reject(entry.id, who, reason),
               "retire": lambda: Retire(entry.id, who, reason),
               "renew": lambda: Renew(entry.id, who, new_date, reason, latest)}
    for action, column in zip(actions, st.columns(len(actions)), strict=True):
        renew = action == "renew"
        if column.button(action.capitalize(), key=f"overrides_{action}",
                         disabled=renew and refusal is not None, help=refusal if renew else None):
            until = f" until {new_date}" if renew else ""
            stage(store, changes[action](), actor, f"{who.name} ({who.how()}) {action}s "
                  f"{entry.id}{until}",
                  () if action == "retire" else notes)
    if "renew" in actions:
        _renewal_note(entry, latest, refusal, today)
    render_history(store.history(entry.id))


def _renewal_note(entry: SiteOverride, latest: RetestResult | None, refusal: str | None,
                  today: date) -> None:
    """What a renewal would rest on, or why it is not possible: a warning only when the
    reviewer could want to renew (the entry is due or overdue, or was just re-tested)."""
    if refusal is None:
        assert latest is not None  # renewal_refusal refuses a missing re-test
        st.caption(f"Renewing rests on the re-test of {latest.tested_at:%Y-%m-%d %H:%M} "
                   f"UTC ({latest.verdict}); its summary is recorded with the reason.")
    elif latest is not None or due_state(entry, today, DUE_DAYS) in ("due", "expired"):
        st.warning(f"Renew is not possible: {md_escape(refusal)}.")
    else:
        st.caption(f"Not due for renewal yet. Renew: {md_escape(refusal)}.")


def _propose(store: OverrideStore, today: date, actor: Identity | None) -> None:
    current = get_current()
    evidence, suggested = None, None
    if current is None:
        st.info("No current input: pick a sample or fetch a page on another page to prefill "
                "the evidence, or fill the form by hand.")
    else:
        fetched_at = (_fetched_at(current.capture_id, fetch_config()[1])
                      if current.capture_id else None)
        evidence, suggested = _evidence(current.body, current.content_type, current.url,
                                        current.capture_id, fetched_at)
        if st.session_state.get("overrides_propose_seen") != current.label:
            # a new input prefills the form again (before its widgets exist)
            st.session_state["overrides_propose_seen"] = current.label
            st.session_state["overrides_propose_host"] = current.host or ""
            st.session_state["overrides_propose_encoding"] = suggested
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
        render_evidence(evidence)
    if submitted:
        change = Propose(host, encoding, reason, actor or Identity.typed(""), review_by,
                         evidence if attach else None)
        notes = list(overlap_warnings(store.entries(), host))
        problem = (_problem(current.body, current.content_type, encoding)
                   if attach and current is not None and evidence is not None else None)
        if problem is not None:
            notes.append(f"Check the encoding before writing: on the attached evidence, "
                         f"{problem}. Confirming writes it all the same.")
        stage(store, change, actor, f"{actor.name if actor else ''} proposes {encoding} for "
                                    f"{host}", notes)


def _retest_view(entries: tuple[SiteOverride, ...], today: date) -> None:
    candidates = {e.id: e for e in review_order(entries, today)}
    if not candidates:
        st.info("Nothing to re-test: no proposed or approved entries.")
        return
    ident = st.selectbox("Entry", list(candidates), key="overrides_retest_entry",
                         format_func=lambda i: f"{i}: {candidates[i].host} → "
                         f"{candidates[i].encoding} ({due_marker(candidates[i], today)})")
    entry = candidates[ident]
    current = get_current()
    modes = ["Upload a sample"]
    if current is not None:
        modes.insert(0, "Current input")
    modes.append("Live fetch")
    mode = st.radio("Fresh sample", modes, horizontal=True, key="overrides_retest_source")
    load = sample_loader(mode, entry, current, _fetch)
    if st.button("Run the re-test", key="overrides_retest_run"):
        st.session_state.pop(_FETCHED, None)
        sample = load()
        if sample is not None:
            body, content_type, origin = sample
            fetched = st.session_state.pop(_FETCHED, None)
            notes = [("caption", fetched)] if fetched else []
            if origin and not host_matches(entry.host, origin):
                notes.append(("warning", f"The sample comes from {md_escape(origin)}, which "
                                         f"{md_escape(entry.host)} does not cover."))
            # run on each click, not cached: the result's tested_at is when it ran, which a
            # renewal needs (two decodes; the session keeps the result for the reruns)
            with st.spinner("Decoding with and without the override…"):
                _retests()[entry.id] = retest(entry, body, content_type)
            st.session_state.setdefault(_NOTES, {})[entry.id] = tuple(notes)
            # The Review tab was drawn earlier in this run, before the re-test existed: draw
            # the page again so that it shows what a renewal now rests on.
            st.rerun()
    result = _retests().get(entry.id)
    if result is not None:
        for kind, note in st.session_state.get(_NOTES, {}).get(entry.id, ()):
            (st.warning if kind == "warning" else st.caption)(note)
        render_result(result)


def _fetch(url: str) -> Sample | None:
    settings, zone, _ = fetch_config()
    try:
        with st.spinner("Fetching…"):  # kept in the landing zone, like any other fetch
            capture = fetch_and_keep(url, zone, settings)
    except (FetchError, ValueError) as exc:
        st.error(md_escape(str(exc)))
        return None
    st.session_state[_FETCHED] = (f"Fetched {md_escape(capture.url)}: HTTP {capture.status}, "
                                  f"{len(capture.body):,} bytes at {capture.fetched_at}")
    return capture.body, capture.content_type, host_of(capture.url)


overrides_page()
