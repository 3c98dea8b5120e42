"""``ActiveOverrides``: the overrides file as of one day, as a value an engine can ship.

A Spark task runs on another machine, where the driver's YAML file is not; a closure over an
``OverrideStore`` would read it there (or fail). The driver reads the file once and sends
this snapshot instead: the entries and the day, frozen and picklable. Calling it with a host
gives the encoding of the override that applies (``model.choose_active``, the rule the store
uses), so every record of a job is decided under the same overrides, whatever day a task runs.

It is the ``decision.overridden.OverrideSource`` the host report and the Spark job decide
through: ``for_host`` gives what ``decode_with_overrides`` is given on the Fetch page for the
same file and day (``model.host_overrides`` of ``statuses_for``), so a record's decision and
trace in a report are the ones Fetch shows for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ..decision.overridden import HostOverrides
from ..wording import plural
from .model import SiteOverride, Status, choose_active, host_overrides, statuses_for
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

    def for_host(self, host: str) -> HostOverrides:
        """The encoding of the entry that applies to ``host`` (named in its trace row), and a
        trace row for every other entry matching it (``decision.overridden.OverrideSource``)."""
        return host_overrides(statuses_for(self.entries, host, self.on))

    def __call__(self, host: str) -> str | None:
        """The encoding of the override that applies to ``host``, or None."""
        entry = choose_active(self.entries, host, self.on)
        return entry.encoding if entry is not None else None

    @property
    def live(self) -> tuple[SiteOverride, ...]:
        """The entries that would apply to some host on ``on``."""
        return tuple(e for e in self.entries
                     if e.status is Status.APPROVED and not e.expired_on(self.on))

    @property
    def approved(self) -> int:
        """How many entries would apply to some host on ``on`` (for a job's log line)."""
        return len(self.live)

    @property
    def unverified(self) -> tuple[SiteOverride, ...]:
        """The live entries whose last approval or renewal was by a typed, unverified name."""
        return tuple(e for e in self.live if not e.approval_verified)

    def summary(self, source: object) -> str:
        """One line for a job's or a command's log: how many apply, and which were approved
        by an unverified name (``ov-0002 by bob (unverified)``)."""
        line = f"{plural(self.approved, 'approved override')} applied from {source}"
        if self.unverified:
            line += (f"; {len(self.unverified)} of them approved by an unverified name: "
                     + ", ".join(f"{e.id} for {e.host} by {e.approver}" for e in self.unverified))
        return line
