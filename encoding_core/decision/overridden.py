"""Deciding with a host's site overrides: the one call every caller makes.

Fetch, the CLI, Compare, Bytes, the host report (a WARC file, a URL list, a Spark job) and the
crawlers all decide a body under its host's overrides through ``decode_overridden``, so a record
gets the same decision and the same trace wherever it is looked at.

The overrides themselves (a YAML file, its review rules, which entry applies on which day) live
in the ``overrides`` room, above this one. What deciding needs from them is a value
(``HostOverrides``: the encoding to force, the words naming the applied entry, one trace row per
matching entry that does not apply) and, for callers that decide many hosts' records (the host
report), a source of such values (``OverrideSource``, a Protocol the overrides room implements:
``ActiveOverrides``, the crawlers' ``SiteOverrides``). The rooms between (``warc``, ``spark``)
depend on this interface, never on the overrides room.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from .decode import DEFAULT_DETECTOR, Detector, decode
from .models import Decoded, Evidence, Source
from .resolve import UseDefault

__all__ = ["NO_OVERRIDES", "HostOverrides", "OverrideSource", "decode_overridden"]


@dataclass(frozen=True, slots=True)
class HostOverrides:
    """What a host's site overrides say for one decision.

    ``encoding`` is the applied entry's encoding (None: no entry applies); ``applied_note``
    names that entry in its trace row (``override ov-1 for shop.example: ...``); ``unapplied``
    holds a trace row for each entry that matches the host but does not apply (expired,
    proposed, rejected, retired, shadowed), in the order they are shown.
    """

    encoding: str | None = None
    applied_note: str = ""
    unapplied: tuple[Evidence, ...] = ()


#: No override matches the host.
NO_OVERRIDES = HostOverrides()


class OverrideSource(Protocol):
    """Each host's overrides (``overrides.lookup.ActiveOverrides`` is one; a Spark job ships
    it to its tasks, so an implementation that crosses processes must pickle)."""

    def for_host(self, host: str) -> HostOverrides:
        """What the overrides say for ``host`` (``NO_OVERRIDES`` when none matches)."""
        ...


def decode_overridden(body: bytes, content_type: str | None,
                      overrides: HostOverrides | None = None, *,
                      site_default: str | None = None,
                      detector: Detector | UseDefault | None = DEFAULT_DETECTOR) -> Decoded:
    """``decode`` with a host's applied override, every other matching entry in the trace.

    - the applied entry's encoding is ``decode``'s ``override`` (a byte-order mark still
      decides first, and an encoding that does not decode the body strictly is skipped);
    - its trace row's reason names the entry (``applied_note``);
    - a row for each entry that matches but does not apply follows it (after the byte-order
      mark's row when no override row was written).

    >>> rows = (Evidence(Source.OVERRIDE, "koi8-r", "koi8-r", False, "not applied: expired"),)
    >>> decided = decode_overridden(b"caf\\xc3\\xa9", None, HostOverrides("utf-8", "ov-1", rows))
    >>> [(str(e.source), e.encoding, e.used) for e in decided.evidence][:3]
    [('bom', None, False), ('override', 'utf-8', True), ('override', 'koi8-r', False)]
    >>> decided.evidence[1].reason.endswith("(ov-1)")
    True
    """
    overrides = overrides or NO_OVERRIDES
    decoded = decode(body, content_type, override=overrides.encoding,
                     site_default=site_default, detector=detector)
    if overrides == NO_OVERRIDES:
        return decoded
    evidence = list(decoded.evidence)
    position = next((i for i, e in enumerate(evidence) if e.source == Source.OVERRIDE), None)
    if position is not None and overrides.encoding is not None:
        row = evidence[position]
        if overrides.applied_note:
            evidence[position] = replace(row, reason=f"{row.reason} ({overrides.applied_note})")
    else:  # after the byte-order mark row, where decode puts the override
        position = next((i for i, e in enumerate(evidence) if e.source == Source.BOM), -1)
    evidence[position + 1:position + 1] = overrides.unapplied
    return replace(decoded, evidence=tuple(evidence))
