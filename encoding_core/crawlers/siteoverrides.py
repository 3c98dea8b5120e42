"""``SiteOverrides``: the overrides file a crawler applies, per host, as ``fetch`` applies it.

The file is chosen as the CLI chooses it (``cli/_overrides_file.py``): a path named in the
settings must exist (a typo must not silently crawl without overrides); none named means
the app's file (``overrides.store.default_path``: ``$ENCODING_TRIAGE_OVERRIDES``, else
``overrides.yaml`` in the data folder) when it exists; switched off means none. Each
response gets ``OverrideStore.status_for(host)``: the approved, unexpired entry applies,
and every other matching entry (proposed, expired, rejected ...) is a trace row saying why
not (``overrides.retest.decode_with_overrides``).

A long crawl sees the file as it is now: the store re-reads it when it changes on disk
(one ``stat`` a response otherwise) and judges expiry by today's date. A file that breaks
during a crawl (a half-saved edit) does not stop it: the last entries read stay in force
and ``problem`` says why, so a crawler can count and log it. A file that is broken when
the crawl starts is an ``OverrideError`` then, as ``fetch`` exits 2.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..decision.overridden import HostOverrides
from ..errors import OverrideError
from ..overrides.model import OverrideStatus, SiteOverride, host_overrides, statuses_for
from ..overrides.store import OverrideStore, default_path

__all__ = ["SiteOverrides"]


class SiteOverrides:
    """The entries of one overrides file, applied per host; the last good ones on an error."""

    def __init__(self, store: OverrideStore) -> None:
        self.store = store
        self._entries: tuple[SiteOverride, ...] = store.entries()  # OverrideError: say so now
        #: why the file could not be read the last time it was (None while it reads)
        self.problem: str | None = None

    def __repr__(self) -> str:
        return f"SiteOverrides({str(self.store.path)!r})"

    @classmethod
    def configured(cls, path: str | os.PathLike[str] | None = None, *,
                   enabled: bool = True) -> SiteOverrides | None:
        """The overrides to apply, or None.

        - ``enabled`` false: none;
        - ``path`` given: that file, which must exist (``OverrideError`` otherwise);
        - else the app's file (``default_path``) when it exists, else none.
        """
        if not enabled:
            return None
        if path is not None and str(path).strip():
            chosen = Path(path).expanduser()
            if not chosen.exists():
                raise OverrideError(f"{chosen}: no such overrides file")
        else:
            chosen = default_path()
            if not chosen.exists():
                return None
        return cls(OverrideStore(chosen))

    def statuses(self, host: str | None) -> tuple[OverrideStatus, ...]:
        """Every entry matching ``host`` today, the applied one first (empty for no host)."""
        if not host:
            return ()
        try:
            self._entries = self.store.entries()
            self.problem = None
        except OverrideError as exc:
            self.problem = f"{self.store.path}: {exc}; the entries read before stay in force"
        return statuses_for(self._entries, host, self.store.today())

    def for_host(self, host: str) -> HostOverrides:
        """What the entries say for deciding a body of ``host`` (a
        ``decision.overridden.OverrideSource``: a host report can decide through it)."""
        return host_overrides(self.statuses(host))

    def encoding_for(self, host: str | None) -> str | None:
        """The encoding of the override that applies to ``host`` today, or None."""
        applied = next((s for s in self.statuses(host) if s.applied), None)
        return applied.entry.encoding if applied is not None else None
