"""Landing zone: every capture kept as a WARC file for a few days, so it can be re-decoded.

Seed 000: "raw bytes are retained briefly in the landing zone so a mis-decode can be re-run
without a recrawl". Each capture is one file, ``<capture_id>.warc.gz``, in the WARC form of
``capture`` (its records, and how it differs from WARC practice, are documented there).
``reopen`` rebuilds the same ``Capture``: same bytes, same headers, hence the same decision.

The capture id starts with the fetch time (``20250101T120000Z-1a2b3c4d5e6f``); files older
than ``retention_days`` by that time are deleted by ``purge``, which runs on every ``keep``
and ``recent``. All captures together are kept under ``max_bytes`` (``limits.LANDING_MAX_BYTES``,
2 GiB, by default): past it ``keep`` deletes the oldest first, and says so in the new capture's
notes. Only files named like captures are ever deleted.

A write costs the same however many captures the folder holds (issue 28: ``keep`` listed the
whole folder twice per write). The zone's running size and the time of its next purge are kept
in ``.landing-state.json`` beside the captures, read and written under ``.landing.lock``
(``filelock``: several app workers and crawler processes share one zone). ``keep`` adds the new
file's size and lists the folder only when

- the state is missing or unreadable (first use, a hand edit): counted afresh;
- the last listing is ``purge_interval`` old (``last_listed`` in the state): counted afresh, so
  a running size that is off (a writer that died between its file and the lock, captures
  copied in by hand, a lowered ``retention_days``) is right again within an interval;
- the running size passes ``max_bytes``: the oldest go until the zone is at ``LOW_WATER`` of
  the cap, so the next writes do not list it again;
- the next purge is due: the oldest capture's expiry, at most ``purge_interval`` late (see
  below), or at once for a capture kept already expired.

Every listing counts the zone afresh, so files deleted or added by hand are taken into account
at the next one. Differences from the rule above:

=====================  =============================================================================
where                  what and why
=====================  =============================================================================
``keep``'s purge       an expired capture is deleted by the first write after its expiry at which
                       ``purge_interval`` (1 hour, or 1/100 of the retention) has passed since the
                       last listing: at most that late, so a steady stream of writes lists the
                       folder once an interval, not once a write. ``purge`` and ``recent`` delete
                       every expired capture at once.
``keep``'s trim        deletes down to ``LOW_WATER`` (90%) of ``max_bytes``, not just under it, so
                       a zone at its cap is not listed on every write.
=====================  =============================================================================
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import filelock

from ..datafolder import data_folder
from ..errors import EncodingCoreError
from ..fetch.client import Capture, FetchSettings, fetch_page
from ..fetch.http_message import parse_http_message
from .capture import SUFFIX as _SUFFIX
from .capture import capture_as_warc, capture_from_warc
from .limits import LANDING_MAX_BYTES
from .warcfile import WarcFormatError, read_records

__all__ = ["LOW_WATER", "CaptureSummary", "LandingZone", "LandingZoneError", "configured_zone",
           "fetch_and_keep", "keep", "new_capture_id", "purge", "recent", "reopen", "trim"]

_ID = re.compile(r"^(\d{8}T\d{6}Z)-[0-9a-f]{12}$")
_STATE, _LOCK = ".landing-state.json", ".landing.lock"
#: ``keep`` trims an over-full zone down to this share of its cap (see the module docstring).
LOW_WATER = 0.9


class LandingZoneError(EncodingCoreError, LookupError):
    """A capture that is not (or no longer) in the landing zone, or cannot be read."""


@dataclass(frozen=True, slots=True)
class LandingZone:
    """Where captures are kept, and for how long."""

    folder: Path
    retention_days: float = 7.0
    #: all kept captures together at most this many bytes; past it the oldest go first
    max_bytes: int = LANDING_MAX_BYTES

    def __post_init__(self) -> None:
        if self.retention_days <= 0:
            raise ValueError("retention_days must be positive")
        if self.max_bytes <= 0:
            raise ValueError("max_bytes must be positive")

    @property
    def purge_interval(self) -> timedelta:
        """How late ``keep`` may delete an expired capture: 1 hour, or 1/100 of the retention."""
        return min(timedelta(hours=1), timedelta(days=self.retention_days) / 100)

    def path(self, capture_id: str) -> Path:
        """The file of ``capture_id``; refuses anything not shaped like a capture id."""
        if not _ID.match(capture_id):
            raise LandingZoneError(f"{capture_id!r} is not a capture id")
        return Path(self.folder) / f"{capture_id}{_SUFFIX}"


@dataclass(frozen=True, slots=True)
class CaptureSummary:
    """One kept capture, as listed."""

    capture_id: str
    url: str
    status: int
    fetched_at: str
    body_length: int
    content_type: str | None


def configured_zone(config: Mapping[str, Any] | None = None,
                    environ: Mapping[str, str] | None = None) -> LandingZone:
    """The landing zone from the app's config, then the environment, then the defaults.

    - folder: ``landing_dir`` in ``config``, else ``$ENCODING_TRIAGE_LANDING``, else
      ``landing`` in the data folder (``$ENCODING_TRIAGE_DATA``, else ``./data``:
      ``datafolder.data_folder``), where the overrides file is too;
    - retention: ``retention_days`` in ``config``, else ``$ENCODING_TRIAGE_RETENTION_DAYS``,
      else 7;
    - size cap: ``landing_max_bytes`` in ``config``, else ``$ENCODING_TRIAGE_LANDING_MAX_BYTES``,
      else ``limits.LANDING_MAX_BYTES`` (2 GiB).

    >>> configured_zone({}, {"ENCODING_TRIAGE_DATA": "/srv/triage"})
    LandingZone(folder=PosixPath('/srv/triage/landing'), retention_days=7.0, max_bytes=2147483648)
    """
    config = config or {}
    env = environ if environ is not None else os.environ
    folder = (config.get("landing_dir") or env.get("ENCODING_TRIAGE_LANDING")
              or data_folder(env) / "landing")
    days = config.get("retention_days") or env.get("ENCODING_TRIAGE_RETENTION_DAYS") or 7
    cap = (config.get("landing_max_bytes") or env.get("ENCODING_TRIAGE_LANDING_MAX_BYTES")
           or LANDING_MAX_BYTES)
    try:
        return LandingZone(Path(folder), float(days), int(cap))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad landing zone settings: {exc}") from exc


def new_capture_id(fetched_at: str) -> str:
    """A capture id for a fetch made at ``fetched_at`` (ISO 8601, UTC).

    >>> new_capture_id("2025-01-02T03:04:05Z")[:17]
    '20250102T030405Z-'
    """
    when = datetime.fromisoformat(fetched_at.replace("Z", "+00:00")).astimezone(UTC)
    return f"{when:%Y%m%dT%H%M%SZ}-{secrets.token_hex(6)}"


def _id_time(capture_id: str) -> datetime | None:
    match = _ID.match(capture_id)
    if match is None:
        return None
    return datetime.strptime(match.group(1), "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)


def keep(capture: Capture, zone: LandingZone, *, now: datetime | None = None) -> Capture:
    """Write ``capture`` to the landing zone (atomically); the capture with its id set.

    The zone's running size is updated under its lock; the folder is listed only when a purge
    is due, the cap is passed or the last listing is an interval old (see the module
    docstring), so a write costs the same however many captures the zone holds. ``now`` is
    the time of the write (the clock, by default).
    """
    capture_id = new_capture_id(capture.fetched_at)
    path = zone.path(capture_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.tmp")
    data = capture_as_warc(capture, capture_id)
    partial.write_bytes(data)
    os.replace(partial, path)
    expires = _expiry(capture_id, zone)
    dropped: tuple[str, ...] = ()
    now = now or datetime.now(UTC)
    with _locked(zone) as state:
        if state.get("total") is None or (now.timestamp() - state["last_listed"]
                                          >= zone.purge_interval.total_seconds()):
            _count(zone, state, now)   # first use, an unreadable state, or an interval since
        else:
            state["total"] += len(data)
        if expires is not None:   # kept already expired: purged now; else due by its expiry
            state["next_purge"] = min(state["next_purge"], (
                expires if expires <= now else expires + zone.purge_interval).timestamp())
        if now.timestamp() >= state["next_purge"]:
            _purge(zone, now, state)
        if state["total"] > zone.max_bytes:
            dropped = _trim(zone, int(zone.max_bytes * LOW_WATER), capture_id, state, now)
    notes = capture.notes + ((
        f"the landing zone is over its cap of {zone.max_bytes:,} bytes: the "
        f"{len(dropped):,} oldest kept captures were deleted to make room",) if dropped else ())
    return replace(capture, capture_id=capture_id, notes=notes)


def _expiry(capture_id: str, zone: LandingZone) -> datetime | None:
    when = _id_time(capture_id)
    return None if when is None else when + timedelta(days=zone.retention_days)


@contextlib.contextmanager
def _locked(zone: LandingZone) -> Iterator[dict[str, Any]]:
    """The zone's state (``total``: bytes kept, None when unknown; ``next_purge`` and
    ``last_listed``: POSIX times), read and written back under the zone's lock."""
    folder = Path(zone.folder)
    folder.mkdir(parents=True, exist_ok=True)
    with filelock.FileLock(str(folder / _LOCK)):
        state: dict[str, Any] = {"total": None, "next_purge": float("-inf"),
                                 "last_listed": float("-inf")}
        with contextlib.suppress(OSError, ValueError):
            read = json.loads((folder / _STATE).read_text(encoding="utf-8"))
            if (isinstance(read, dict) and type(read.get("total")) is int
                    and isinstance(read.get("next_purge"), int | float)):
                listed = read.get("last_listed")   # (a state written before it: count now)
                state = {"total": read["total"], "next_purge": float(read["next_purge"]),
                         "last_listed": float(listed) if isinstance(listed, int | float)
                         else float("-inf")}
        yield state
        if state["total"] is not None:
            partial = folder / f".{_STATE}.tmp"
            partial.write_text(json.dumps(state), encoding="utf-8")
            os.replace(partial, folder / _STATE)


def _captures(zone: LandingZone) -> list[tuple[str, int, Path]]:
    """(id, size, path) of each capture file, oldest first (ids start with the fetch time)."""
    kept: list[tuple[str, int, Path]] = []
    for entry in Path(zone.folder).iterdir():
        capture_id = entry.name.removesuffix(_SUFFIX)
        if entry.name.endswith(_SUFFIX) and _ID.match(capture_id):
            with contextlib.suppress(FileNotFoundError):
                kept.append((capture_id, entry.stat().st_size, entry))
    return sorted(kept)


def _count(zone: LandingZone, state: dict[str, Any], now: datetime,
           kept: list[tuple[str, int, Path]] | None = None) -> list[tuple[str, int, Path]]:
    """List the zone (unless ``kept`` is that list): its total, when its oldest capture
    expires and when it was listed (``now``) go into ``state``."""
    kept = _captures(zone) if kept is None else kept
    state["last_listed"] = now.timestamp()
    state["total"] = sum(size for _, size, _ in kept)
    oldest = _expiry(kept[0][0], zone) if kept else None
    state["next_purge"] = (float("inf") if oldest is None else
                           (oldest + zone.purge_interval).timestamp())
    return kept


def fetch_and_keep(url: str, zone: LandingZone, settings: FetchSettings | None = None
                   ) -> Capture:
    """``fetch_page`` then ``keep``; a capture that could not be kept says so in its notes."""
    capture = fetch_page(url, settings=settings)
    try:
        return keep(capture, zone)
    except OSError as exc:
        note = f"not kept in the landing zone ({zone.folder}): {exc.strerror or exc}"
        return replace(capture, notes=(*capture.notes, note))


def reopen(capture_id: str, zone: LandingZone) -> Capture:
    """The capture kept under ``capture_id``, exactly as it was fetched."""
    path = zone.path(capture_id)
    if not path.is_file():
        raise LandingZoneError(
            f"capture {capture_id} is not in {zone.folder}: captures are kept "
            f"{zone.retention_days:g} days, so it may have expired; fetch the URL again")
    try:
        capture = capture_from_warc(path, capture_id)
    except WarcFormatError as exc:
        raise LandingZoneError(f"capture {capture_id} cannot be read: {exc}") from exc
    if capture is None:
        raise LandingZoneError(f"capture {capture_id} holds no response record")
    return capture


def purge(zone: LandingZone, *, now: datetime | None = None) -> tuple[str, ...]:
    """Delete captures older than the retention period; the ids deleted."""
    if not Path(zone.folder).is_dir():
        return ()
    with _locked(zone) as state:
        return _purge(zone, now or datetime.now(UTC), state)


def _purge(zone: LandingZone, now: datetime, state: dict[str, Any]) -> tuple[str, ...]:
    cutoff = now - timedelta(days=zone.retention_days)
    deleted = []
    for entry in Path(zone.folder).iterdir():
        name = entry.name.removeprefix(".").removesuffix(".tmp")
        capture_id = name.removesuffix(_SUFFIX)
        when = _id_time(capture_id) if name.endswith(_SUFFIX) else None
        if when is not None and when < cutoff:
            entry.unlink(missing_ok=True)
            deleted.append(capture_id)
    _count(zone, state, now)
    return tuple(sorted(deleted))


def trim(zone: LandingZone, *, keep_id: str | None = None) -> tuple[str, ...]:
    """Delete the oldest captures until all of them hold at most ``zone.max_bytes``; the ids
    deleted, oldest first. ``keep_id`` (the capture just kept) is never deleted."""
    if not Path(zone.folder).is_dir():
        return ()
    with _locked(zone) as state:
        return _trim(zone, zone.max_bytes, keep_id, state, datetime.now(UTC))


def _trim(zone: LandingZone, target: int, keep_id: str | None, state: dict[str, Any],
          now: datetime) -> tuple[str, ...]:
    """Delete the oldest until the zone holds at most ``target`` bytes, counted afresh (the
    running total may be off: files deleted or added by hand), and only if it is over the cap."""
    kept = _count(zone, state, now)
    total = state["total"]
    deleted: list[str] = []
    if total <= zone.max_bytes:
        return ()
    left = []
    for capture_id, size, entry in kept:
        if total <= target or capture_id == keep_id:
            left.append((capture_id, size, entry))
            continue
        entry.unlink(missing_ok=True)
        total -= size
        deleted.append(capture_id)
    _count(zone, state, now, left)
    return tuple(deleted)


def recent(zone: LandingZone, *, limit: int = 20) -> tuple[CaptureSummary, ...]:
    """The newest kept captures (after purging expired ones), newest first."""
    purge(zone)
    folder = Path(zone.folder)
    if not folder.is_dir():
        return ()
    ids = sorted((p.name.removesuffix(_SUFFIX) for p in folder.glob(f"*{_SUFFIX}")
                  if _ID.match(p.name.removesuffix(_SUFFIX))), reverse=True)
    summaries = []
    for capture_id in ids[:limit]:
        try:
            records = list(read_records(zone.path(capture_id), types=("response",)))
        except (WarcFormatError, LandingZoneError):
            continue  # expired or damaged meanwhile: not listed
        if not records:
            continue
        last = records[-1]
        message = parse_http_message(last.block)
        values = message.header_values("content-type")
        summaries.append(CaptureSummary(
            capture_id, last.header("WARC-Target-URI") or "", message.status or 0,
            last.header("WARC-Date") or "", last.length - (len(last.block) - len(message.body)),
            ", ".join(values) if values else None))
    return tuple(summaries)
