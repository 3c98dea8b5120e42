"""An ``OverrideLookup`` that pickles: a host report built in a worker process (``ui.worker``)
applies the site overrides the page read, without reading the file again or loading
Streamlit in the worker."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from encoding_core.overrides.model import SiteOverride, choose_active


@dataclass(frozen=True, slots=True)
class ActiveOverrides:
    """Each host's active override encoding among ``entries`` on ``on``, or None."""

    entries: tuple[SiteOverride, ...]
    on: date

    def __call__(self, host: str) -> str | None:
        entry = choose_active(self.entries, host, self.on)
        return entry.encoding if entry is not None else None
