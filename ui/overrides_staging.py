"""Changing the overrides file from a page: who changes it, the diff first, written on confirm.

A change is staged in ``st.session_state`` with its diff and shown at the top of the page; it is
written only when the reviewer confirms, and a message about it is shown once after the rerun.
The diff and the summary quote the user's input: they are shown with ``st.code`` and
``st.text``; store messages go through ``md_escape``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from encoding_core.errors import OverrideError
from encoding_core.overrides import Change, OverrideStore
from ui.components import md_escape

PENDING, FLASH = "overrides_pending", "overrides_flash"
T = TypeVar("T")


def reviewer_name() -> str | None:
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


def guard(action: Callable[[], T]) -> T | None:
    """Run a store call; an OverrideError is shown, not raised."""
    try:
        return action()
    except OverrideError as exc:
        st.error(md_escape(str(exc)))
        return None


def stage(store: OverrideStore, change: Change, actor: str | None, what: str) -> None:
    """Show the change as a diff at the top of the page; it is written only when confirmed."""
    if actor is None:
        st.error("Enter your name in the sidebar first: every change records who made it.")
        return
    diff = guard(lambda: store.preview(change))
    if diff is not None:
        st.session_state[PENDING] = (change, diff, what)
        st.rerun()


def render_pending(store: OverrideStore) -> None:
    """The message about the last change written, then the staged change to confirm or discard."""
    if flash := st.session_state.pop(FLASH, None):
        st.success(md_escape(flash))
    pending = st.session_state.get(PENDING)
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
            del st.session_state[PENDING]
            entry = guard(lambda: store.apply(change))
            if entry is not None:
                st.session_state[FLASH] = (f"Written: {entry.id} for {entry.host} is "
                                           f"{entry.status}.")
                st.rerun()
        if discard.button("Discard", key="overrides_cancel"):
            del st.session_state[PENDING]
            st.rerun()
