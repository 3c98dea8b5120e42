"""The approved site overrides, as the pages that decode apply them.

One way to open the overrides file for the pages that only read it (Compare, Fetch): a file
that cannot be used is reported once with ``st.warning`` and no override is applied, so a
hand-broken YAML file never stops a diagnosis.
"""

from __future__ import annotations

import streamlit as st

from encoding_core.errors import OverrideError
from encoding_core.hostreport import OverrideLookup
from encoding_core.overrides import OverrideStore, SiteOverride, default_path
from ui.components import md_escape


def _usable_store() -> OverrideStore | None:
    """The overrides store; None when there is no file or it cannot be used (warned)."""
    path = default_path()
    if not path.exists():
        return None
    store = OverrideStore(path)
    try:
        store.entries()
    except OverrideError as exc:
        st.warning(f"The overrides file cannot be used, so none is applied: "
                   f"{md_escape(str(exc))}")
        return None
    return store


def active_override(host: str | None) -> SiteOverride | None:
    """The approved, unexpired site override for ``host``, if any."""
    if not host:
        return None
    store = _usable_store()
    return store.active_for(host) if store is not None else None


def override_lookup() -> OverrideLookup | None:
    """Each host's active override encoding, for a host report; None without a usable file."""
    store = _usable_store()
    if store is None:
        return None

    def active(host: str) -> str | None:
        entry = store.active_for(host)
        return entry.encoding if entry is not None else None
    return active
