"""The site overrides, as the pages that decode apply them.

One way to open the overrides file for the pages that only read it (Compare, Fetch, the host
report): a file that cannot be used is reported with ``st.warning`` and no override is applied,
so a hand-broken YAML file never stops a diagnosis. An entry for the host that exists but does
not apply (expired, proposed, rejected) is reported with one ``st.warning`` saying what to do,
since the decision then silently follows the normal path. Host names, reasons, reviewer
names and entry ids come from the YAML file: they reach the screen through ``md_escape`` or,
where they could be autolinked (hosts, e-mail addresses), ``md_code``.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from encoding_core.decision.models import Decoded, Source
from encoding_core.decision.overridden import OverrideSource
from encoding_core.errors import OverrideError
from encoding_core.overrides.model import Applicability, OverrideStatus
from encoding_core.overrides.store import OverrideStore, default_path
from ui.components import md_escape
from ui.override_lookup import ActiveOverrides
from ui.wording import md_code

#: What to do about an entry that matches the host but is not applied. Retired and shadowed
#: entries are left out: a reviewer ended the first, and another entry applies for the second.
_WHAT_TO_DO = {
    Applicability.EXPIRED: "Do this on the Overrides page (Re-test tab).",
    Applicability.PROPOSED: "A reviewer can approve or reject it on the Overrides page.",
    Applicability.REJECTED: "If the pages still decode wrongly, propose a new override on the "
                            "Overrides page.",
}


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


def unapplied_notice(statuses: Sequence[OverrideStatus]) -> str | None:
    """The Markdown warning for entries that match but do not apply, or None when there are none."""
    lines = [f"Site override {md_escape(s.entry.id)} for {md_code(s.entry.host)} "
             f"({md_escape(s.entry.encoding)}) exists but is not applied: "
             f"{md_code(s.why.removeprefix('not applied: '))}. {_WHAT_TO_DO[s.applicability]}"
             for s in statuses if s.applicability in _WHAT_TO_DO]
    if not lines:
        return None
    return "  \n".join(lines)


def host_overrides(host: str | None) -> tuple[OverrideStatus, ...]:
    """Every override entry matching ``host``, the applied one first; () without a usable file.

    Warns once when the file cannot be used, and once when entries match but do not apply.
    """
    if not host:
        return ()
    store = _usable_store()
    statuses = store.status_for(host) if store is not None else ()
    notice = unapplied_notice(statuses)
    if notice is not None:
        st.warning(notice)
    return statuses


def say_applied(decided: Decoded) -> None:
    """A caption naming the site override that decided (its trace row's reason), if one did:
    for the pages that do not show the trace (Bytes)."""
    row = next((e for e in decided.evidence if e.source == Source.OVERRIDE and e.used), None)
    if row is not None:
        st.caption(f"Site override applies: {md_code(row.reason)}")


def override_lookup() -> OverrideSource | None:
    """Each host's overrides, for a host report (decided as Fetch decides); None without a
    usable file."""
    store = _usable_store()
    if store is None:
        return None
    return ActiveOverrides(store.entries(), store.today())   # pickles: a worker can use it
