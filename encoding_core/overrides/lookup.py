"""``ActiveOverrides``: the overrides file as of one day, as a value an engine can ship.

A Spark task runs on another machine, where the driver's YAML file is not; a closure over an
``OverrideStore`` would read it there (or fail). The driver reads the file once and sends
this snapshot instead: the entries and the day, frozen and picklable. Calling it with a host
gives the encoding of the override that applies (``model.choose_active``, the rule the store
uses), so every record of a job is decided under the same overrides, whatever day a task runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from .model import SiteOverride, Status, choose_active
from .store import OverrideStore

__all__ = ["ActiveOverrides"]


@dataclass(frozen=True, slots=True)
class ActiveOverrides:
    """The entries of an overrides file and the day they are judged on."""

    entries: tuple[SiteOverride, ...]
    on: date

    @classmethod
    def of(cls, store: OverrideStore, on: date | None = None) -> ActiveOverrides:
        """The store's entries now (``OverrideError`` when the file is broken), as of ``on``
        (the store's today)."""
        return cls(store.entries(), on or store.today())

    def __call__(self, host: str) -> str | None:
        """The encoding of the override that applies to ``host``, or None."""
        entry = choose_active(self.entries, host, self.on)
        return entry.encoding if entry is not None else None

    @property
    def approved(self) -> int:
        """How many entries would apply to some host on ``on`` (for a job's log line)."""
        return sum(1 for e in self.entries
                   if e.status is Status.APPROVED and not e.expired_on(self.on))
