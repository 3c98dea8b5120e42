"""Changing the overrides file from a page: who changes it, the diff first, written on confirm.

A change is staged in ``st.session_state`` with its diff and shown at the top of the page; it is
written only when the reviewer confirms, and a message about it is shown once after the rerun.
The reason typed for an entry is kept under that entry's key (``reason_key``), so it never
carries over to another entry, and it is cleared once a change to the entry is written.
The diff and the summary quote the user's input: they are shown with ``st.code`` and
``st.text``; store messages go through ``md_escape``.

Who acts: the signed-in user when Streamlit authentication (``st.user``) is set up, and then
it cannot be typed. Without it a name is only what someone types, so it is made deliberate
and visible, not verified: it is fixed once entered, "Switch user" clears it, and every name
the session acted as is listed in the sidebar; a review by a session that acted as the entry's
author under another name is flagged (``author_earlier``). Reloading the page starts a new
session: this is honesty about who typed what, not authentication.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TypeVar

import streamlit as st

from encoding_core.errors import OverrideError
from encoding_core.overrides.model import same_person
from encoding_core.overrides.store import Change, OverrideStore
from ui.components import md_escape

PENDING, FLASH = "overrides_pending", "overrides_flash"
_ACTING, _LOG = "overrides_acting_as", "overrides_acting_log"
T = TypeVar("T")


def reason_key(entry_id: str) -> str:
    """The session-state key of the reason typed (or taken from a re-test) for one entry."""
    return f"overrides_action_reason_{entry_id}"


def reviewer_name() -> str | None:
    """The signed-in user when Streamlit auth is set up; else the name this session uses."""
    user = st.user
    if getattr(user, "is_logged_in", False):
        name = user.get("email") or user.get("name")
        if name:
            st.sidebar.caption("Signed in as")
            st.sidebar.text(str(name))
            return str(name)
    name = st.session_state.get(_ACTING)
    if name:
        st.sidebar.caption("Acting as (a typed name, not verified)")
        st.sidebar.text(name)
        st.sidebar.button("Switch user", key="reviewer_switch", on_click=_switch,
                          help="Clears the name (and any change waiting to be written); the "
                               "switch is listed below.")
    else:
        with st.sidebar.form("reviewer_form", border=False):
            st.text_input("Your name", key="reviewer_name", placeholder="ada@example.com",
                          help="Recorded with every proposal, approval and retirement. It is "
                               "fixed for this session once used.")
            st.form_submit_button("Use this name", key="reviewer_use", on_click=_use_name)
    log = st.session_state.get(_LOG, [])
    if log:
        st.sidebar.caption("This session so far:")
        st.sidebar.text("\n".join(f"{at}  {what}" for at, what, _ in log))
    st.sidebar.caption("Without sign-in a name is what you type: nothing verifies it. "
                       "With Streamlit authentication configured, the signed-in account "
                       "is used instead and cannot be typed.")
    return name or None


def _record(what: str, name: str) -> None:
    at = datetime.now(UTC).strftime("%H:%M:%S UTC")
    st.session_state[_LOG] = [*st.session_state.get(_LOG, []), (at, what, name)]


def _use_name() -> None:
    name = " ".join(str(st.session_state.get("reviewer_name", "")).split())
    if name:
        st.session_state[_ACTING] = name
        _record(f"acting as {name}", name)


def _switch() -> None:
    name = st.session_state.pop(_ACTING, None)
    st.session_state.pop(PENDING, None)  # a staged change was made as the previous name
    if name:
        _record(f"{name} switched user", name)


def author_earlier(author: str, entry_id: str, actor: str | None) -> list[str]:
    """A warning when this session acted as ``author`` before switching to ``actor``."""
    earlier = [name for _, _, name in st.session_state.get(_LOG, [])
               if same_person(name, author) and not same_person(name, actor)]
    if not earlier:
        return []
    return [f"This browser session acted as {earlier[0]}, who proposed {entry_id}, before "
            f"switching to {actor}: the review is meant to be someone else's."]


def guard(action: Callable[[], T]) -> T | None:
    """Run a store call; an OverrideError is shown, not raised."""
    try:
        return action()
    except OverrideError as exc:
        st.error(md_escape(str(exc)))
        return None


def stage(store: OverrideStore, change: Change, actor: str | None, what: str,
          notes: Sequence[str] = ()) -> None:
    """Show the change as a diff at the top of the page; it is written only when confirmed.

    ``notes`` are warnings shown with the diff (plain text, may quote the file).
    """
    if actor is None:
        st.error("Enter your name in the sidebar first: every change records who made it.")
        return
    diff = guard(lambda: store.preview(change))
    if diff is not None:
        st.session_state[PENDING] = (change, diff, what, tuple(notes))
        st.rerun()


def render_pending(store: OverrideStore) -> None:
    """The message about the last change written, then the staged change to confirm or discard."""
    if flash := st.session_state.pop(FLASH, None):
        st.success(md_escape(flash))
    pending = st.session_state.get(PENDING)
    if pending is None:
        return
    change, diff, what, notes = pending
    with st.container(border=True, key="overrides_pending_box"):
        st.subheader("Check the change before it is written")
        st.text(what)
        for note in notes:
            st.warning(md_escape(note))
        st.code(diff, language="diff")
        st.caption("It is written under a lock to the file as it is then; a change someone "
                   "else made in the meantime is kept.")
        write, discard = st.columns(2)
        if write.button("Write this change", key="overrides_confirm", type="primary"):
            del st.session_state[PENDING]
            entry = guard(lambda: store.apply(change))
            if entry is not None:
                st.session_state.pop(reason_key(entry.id), None)  # it has been used
                st.session_state[FLASH] = (f"Written: {entry.id} for {entry.host} is "
                                           f"{entry.status}.")
                st.rerun()
        if discard.button("Discard", key="overrides_cancel"):
            del st.session_state[PENDING]
            st.rerun()
