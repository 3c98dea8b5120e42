"""Showing site overrides: the due marker, the list with its timeline, host status and history.

Entries, hosts and reasons come from a YAML file people edit by hand: they reach the screen
only through ``st.dataframe`` and the Altair chart's data, never through Markdown.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from encoding_core.overrides.model import due_state
from encoding_core.overrides.store import (
    DUE_DAYS,
    HistoryEvent,
    OverrideEvidence,
    OverrideStatus,
    SiteOverride,
    Status,
)
from encoding_core.wording import plural

# Reasons are sentences: a wide column, and rows tall enough that the grid wraps them
# (st.dataframe wraps text only when row_height is above 4rem).
_WRAPPED: dict[str, Any] = {  # (keyword arguments of st.dataframe, typed by Streamlit there)
    "row_height": 72,
    "column_config": {"reason": st.column_config.TextColumn(width="large"),
                      # a timestamp on one line (2026-12-01 20:06 UTC), never four
                      "at": st.column_config.TextColumn(width=150),
                      **{c: st.column_config.Column(width="small") for c in (
                          "id", "encoding", "status", "review by", "action")}}}
_COLOURS = ["#f5a623", "#2e7d32", "#9e9e9e", "#cfcfcf"]  # proposed, approved, rejected, retired


def due_marker(entry: SiteOverride, today: date) -> str:
    """How the entry stands against its review date, in words ("" once closed)."""
    state = due_state(entry, today, DUE_DAYS)
    days = entry.days_left(today)
    return {"expired": f"OVERDUE by {plural(-days, 'day')}",
            "due": f"due soon: {plural(days, 'day')} left",
            "ok": f"{plural(days, 'day')} left", "closed": ""}[state]


def render_overview(entries: tuple[SiteOverride, ...], today: date) -> None:
    """The counts, the table of every entry, and the timeline."""
    states = [due_state(e, today, DUE_DAYS) for e in entries]
    a, b, c, d = st.columns(4)
    a.metric("Applying", sum(e.status is Status.APPROVED and s != "expired"
                             for e, s in zip(entries, states, strict=True)))
    b.metric("Awaiting review", sum(e.status is Status.PROPOSED for e in entries))
    c.metric("Overdue", states.count("expired"))
    d.metric(f"Due within {DUE_DAYS} days", states.count("due"))
    st.dataframe(pd.DataFrame([{
        "id": e.id, "host": e.host, "encoding": e.encoding, "status": e.status.value,
        "due": due_marker(e, today), "review by": e.review_by, "proposed by": e.created_by,
        "approved by": e.approver,  # "(unverified)" unless a sign-in or proxy verified it
        # last: the people stay in view at 1,400 px; the whole reason is in Review
        "reason": e.reason} for e in entries]),
        hide_index=True, width="stretch", key="overrides_table", **_WRAPPED)
    _timeline(entries, today)


def _timeline(entries: tuple[SiteOverride, ...], today: date) -> None:
    frame = pd.DataFrame([{"entry": f"{e.id} {e.host}", "status": e.status.value,
                           "created": e.created.date().isoformat(),
                           "review by": e.review_by.isoformat(), "due": due_marker(e, today)}
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


def render_host_status(statuses: tuple[OverrideStatus, ...]) -> None:
    """Which entries match a host, and whether each applies and why."""
    st.dataframe(pd.DataFrame([{"id": s.entry.id, "pattern": s.entry.host,
                                "encoding": s.entry.encoding, "applies": s.applied,
                                "why": s.why} for s in statuses],
                              columns=["id", "pattern", "encoding", "applies", "why"]),
                 hide_index=True, width="stretch", key="overrides_host_status")


def render_history(history: tuple[HistoryEvent, ...]) -> None:
    """An entry's history, one row per recorded change."""
    st.dataframe(pd.DataFrame([{
        "at": f"{h.at:%Y-%m-%d %H:%M} UTC", "by": h.by, "action": h.action,
        "verified": h.verified_how,  # how "by" was established: oidc, proxy, or unverified
        "reason": h.reason or "",
        "changed": "; ".join(f"{k}: {o} → {n}" for k, o, n in h.changes)} for h in history]),
        hide_index=True, width="stretch", key="overrides_history", **_WRAPPED)


def render_evidence(evidence: OverrideEvidence, key: str = "overrides_propose_evidence") -> None:
    """The evidence a proposal attaches (or attached), one row per field."""
    st.dataframe(pd.DataFrame([{"field": k, "value": "" if v is None else str(v), "means": m}
                               for k, v, m in _fields(evidence)]),
                 hide_index=True, width="stretch", key=key)


def render_entry(entry: SiteOverride, today: date) -> None:
    """What a reviewer decides on: the entry as written, then the evidence it rests on."""
    rows = [("host", entry.host), ("encoding", entry.encoding), ("status", entry.status.value),
            ("proposed", f"{entry.created.isoformat(sep=' ')} by {entry.created_by}"),
            ("review by", f"{entry.review_by} ({due_marker(entry, today) or 'closed'})")]
    if entry.approved_by:
        rows.append(("approved", f"{entry.approved_on} by {entry.approver}"))
    st.caption("Reason")
    st.text(entry.reason)  # whole, wrapped: a sentence the reviewer has to read
    st.dataframe(pd.DataFrame(rows, columns=["field", "value"]), hide_index=True,
                 width="stretch", key="overrides_review_entry")
    if entry.evidence is None:
        st.caption("No evidence attached: the proposal was filled in by hand. Re-test it on "
                   "a fresh sample before approving.")
        return
    st.caption("Evidence the proposal rests on (the sha256 identifies the body that was "
               "decoded; the capture id finds it in the landing zone while it is kept):")
    render_evidence(entry.evidence, key="overrides_review_evidence")


_MEANS = {
    "url": "the page the problem was seen on",
    "fetched_at": "when that page was fetched (UTC)",
    "sha256": "SHA-256 of the response body that was decoded",
    "corrects": "the source whose answer the override replaces",
    "replacements": "U+FFFD replacements on the normal path, without the override",
    "conflicts": "warning or error conflicts on the normal path",
    "capture": "landing-zone capture id of those bytes",
}


def _fields(evidence: OverrideEvidence) -> list[tuple[str, object, str]]:
    return [(k, getattr(evidence, k), m) for k, m in _MEANS.items()]
