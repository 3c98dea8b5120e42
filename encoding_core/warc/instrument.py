"""Seed 000's instrumentation for a live crawler: Prometheus counters and a quarantine log.

A crawler calls ``decode`` at the transport boundary and then ``record_decode(decoded, host)``:

- ``encoding_triage_decode_source_total{host, source}``: decisions by host and source
  (seed 000's ``decode_source``);
- ``encoding_triage_decode_replacements_total{host}``: U+FFFD replacements by host
  (``decode_replacements``), the metric that matters: a step change on one host means its
  encoding changed or its declaration became wrong;
- ``encoding_triage_decode_conflicts_total{kind}``: conflicts by kind;
- a page with more than ``QUARANTINE_THRESHOLD`` (20) replacements appends one JSON line
  (host, encoding, source, count, time, url) to the quarantine file, as seed 000's
  ``quarantine_encoding`` does; the Fetch page lists the hosts in it.

The counters live in a ``prometheus_client`` registry (the global one by default), so a
crawler exposes them with ``prometheus_client.start_http_server`` as usual.
"""

from __future__ import annotations

import json
import os
import threading
import weakref
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..datafolder import data_folder
from ..decision.models import Decoded
from ..extras import needs_extra
from .hostreport import QUARANTINE_THRESHOLD
from .limits import QUARANTINE_TAIL_BYTES

with needs_extra("metrics", "record_decode's counters"):
    from prometheus_client import REGISTRY, CollectorRegistry, Counter

__all__ = ["QUARANTINE_ENV_VAR", "QuarantineEntry", "QuarantineRead", "default_quarantine_path",
           "read_quarantine", "record_decode"]

#: Environment variable naming the quarantine file (else ``quarantine.jsonl`` in the data folder).
QUARANTINE_ENV_VAR = "ENCODING_TRIAGE_QUARANTINE"


@dataclass(frozen=True, slots=True)
class QuarantineEntry:
    """One page past the replacement threshold: its host's encoding, quarantined."""

    host: str
    encoding: str
    source: str
    count: int          # replacements on the page
    time: str           # ISO 8601, UTC
    url: str | None = None


@dataclass(frozen=True, slots=True)
class QuarantineRead:
    """What ``read_quarantine`` read: the entries, the lines it could not read, and how much
    of the file it looked at (only its newest part when the file is larger)."""

    entries: tuple[QuarantineEntry, ...] = ()
    bad: int = 0              # lines that could not be read (cut short, hand-edited)
    file_bytes: int = 0       # the file's size (0: no file)
    read_bytes: int = 0       # how much of its end was read

    @property
    def partial(self) -> bool:
        """True when older entries were left out (the file is larger than what was read)."""
        return self.read_bytes < self.file_bytes

    def coverage(self) -> str | None:
        """One plain-text line saying only the newest part is shown, or None when all is.

        >>> print(QuarantineRead(file_bytes=360 * 2**20, read_bytes=4 * 2**20).coverage())
        Only the newest 4.0 MiB of this 360.0 MiB file are shown: older entries are left out.
        """
        if not self.partial:
            return None
        return (f"Only the newest {_mib(self.read_bytes)} of this {_mib(self.file_bytes)} file "
                "are shown: older entries are left out.")


def _mib(size: int) -> str:
    return f"{size / 2**20:,.1f} MiB" if size >= 2**20 else f"{size:,} bytes"


@dataclass(frozen=True, slots=True)
class _Metrics:
    sources: Counter
    replacements: Counter
    conflicts: Counter


# keyed by the registry itself, not id(registry): an id is reused once its registry is freed,
# and a new registry would be handed counters registered in a dead one
_METRICS: weakref.WeakKeyDictionary[CollectorRegistry, _Metrics] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def _metrics(registry: CollectorRegistry) -> _Metrics:
    """The counters in ``registry``, created once per registry."""
    with _LOCK:
        found = _METRICS.get(registry)
        if found is None:
            found = _METRICS[registry] = _Metrics(
                Counter("encoding_triage_decode_source", "Decisions by host and source",
                        ["host", "source"], registry=registry),
                Counter("encoding_triage_decode_replacements",
                        "U+FFFD replacements in decoded pages, by host", ["host"],
                        registry=registry),
                Counter("encoding_triage_decode_conflicts", "Conflicts found, by kind",
                        ["kind"], registry=registry))
        return found


def default_quarantine_path() -> Path:
    """``$ENCODING_TRIAGE_QUARANTINE``, else ``quarantine.jsonl`` in the data folder."""
    configured = os.environ.get(QUARANTINE_ENV_VAR, "").strip()
    return Path(configured).expanduser() if configured else data_folder() / "quarantine.jsonl"


def record_decode(decoded: Decoded, host: str, *, registry: CollectorRegistry | None = None,
                  quarantine: str | Path | None = None, url: str | None = None,
                  ) -> QuarantineEntry | None:
    """Count one decision (seed 000's ``record_decode``); quarantine its host's encoding when
    the page needed more than 20 replacements and a ``quarantine`` file is given.

    Returns the quarantine entry written, or None.
    """
    metrics = _metrics(REGISTRY if registry is None else registry)
    metrics.sources.labels(host=host, source=decoded.decided_by).inc()
    if decoded.replacements:
        metrics.replacements.labels(host=host).inc(decoded.replacements)
    for conflict in decoded.conflicts:
        metrics.conflicts.labels(kind=conflict.kind).inc()
    if decoded.replacements <= QUARANTINE_THRESHOLD or quarantine is None:
        return None
    entry = QuarantineEntry(host, decoded.encoding, decoded.decided_by, decoded.replacements,
                            datetime.now(UTC).isoformat(timespec="seconds")
                            .replace("+00:00", "Z"), url)
    path = Path(quarantine)
    path.parent.mkdir(parents=True, exist_ok=True)
    line = (json.dumps(asdict(entry), ensure_ascii=False) + "\n").encode("utf-8")
    # one write on an O_APPEND descriptor: lines from several crawler processes never interleave
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, line)
    finally:
        os.close(descriptor)
    return entry


def read_quarantine(path: str | Path, *, max_bytes: int = QUARANTINE_TAIL_BYTES,
                    ) -> QuarantineRead:
    """The entries of a quarantine file, how many lines could not be read (a line cut short
    by a crash, a hand edit), and how much of the file was read; no file is no entries.

    Only the newest ``max_bytes`` of the file are read (``limits.QUARANTINE_TAIL_BYTES``), line
    by line: a file a crawler has appended to for months costs the same on every look, and the
    result says so (``QuarantineRead.partial``, ``coverage``). The first line of that tail, cut
    by the limit, is left out and not counted as bad.
    """
    entries: list[QuarantineEntry] = []
    bad = 0
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, after the tail is read
    except FileNotFoundError:
        return QuarantineRead()
    with handle:
        size = os.fstat(handle.fileno()).st_size
        if size > max_bytes:
            handle.seek(size - max_bytes)
            handle.readline()   # the rest of a line that began before the tail
        for raw in handle:
            line = raw.decode("utf-8", errors="replace")
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                entries.append(QuarantineEntry(str(data["host"]), str(data["encoding"]),
                                               str(data["source"]), int(data["count"]),
                                               str(data["time"]), data.get("url")))
            except (ValueError, KeyError, TypeError, RecursionError):
                bad += 1
    return QuarantineRead(tuple(entries), bad, size, min(size, max_bytes))
