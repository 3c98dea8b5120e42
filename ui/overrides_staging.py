"""Changing the overrides file from a page: who changes it, the diff first, written on confirm.

A change is staged in ``st.session_state`` with its diff and shown at the top of the page; it is
written only when the reviewer confirms, and a message about it is shown once after the rerun.
The reason typed for an entry is kept under that entry's key (``reason_key``), so it never
carries over to another entry, and it is cleared once a change to the entry is written.
The diff and the summary quote the user's input: they are shown with ``st.code`` and
``st.text``; store messages go through ``md_escape``.

Who acts is ``ui.overrides_identity.acting()``: a signed-in or proxy-verified user, or a
typed name marked unverified; a review by a session that acted as the entry's author under
another name is flagged (``author_earlier``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import streamlit as st

from encoding_core.errors import OverrideError
from encoding_core.overrides.identity import Identity
from encoding_core.overrides.model import same_person
from encoding_core.overrides.store import Change, OverrideStore
from ui.components import md_escape
from ui.overrides_identity import LOG, PENDING

FLASH = "overrides_flash"
T = TypeVar("T")


def reason_key(entry_id: str) -> str:
    """The session-state key of the reason typed (or taken from a re-test) for one entry."""
    return f"overrides_action_reason_{entry_id}"


def author_earlier(author: str, entry_id: str, actor: Identity | None) -> list[str]:
    """A warning when this session acted as ``author`` before switching to ``actor``."""
    name = actor.name if actor is not None else None
    earlier = [typed for _, _, typed in st.session_state.get(LOG, [])
               if same_person(typed, author) and not same_person(typed, name)]
    if not earlier:
        return []
    return [f"This browser session acted as {earlier[0]}, who proposed {entry_id}, before "
            f"switching to {name}: the review is meant to be someone else's."]


def guard(action: Callable[[], T]) -> T | None:
    """Run a store call; an OverrideError is shown, not raised."""
    try:
        return action()
    except OverrideError as exc:
        st.error(md_escape(str(exc)))
        return None


def stage(store: OverrideStore, change: Change, actor: Identity | None, what: str,
          notes: Sequence[str] = ()) -> None:
    """Show the change as a diff at the top of the page; it is written only when confirmed.

    ``notes`` are warnings shown with the diff (plain text, may quote the file).
    """
    if actor is None:
        st.error("Enter your name (or log in) in the sidebar first: every change records who "
                 "made it.")
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
