"""Site overrides: dated, reasoned, reviewed encoding decisions kept in a YAML file.

``OverrideStore(path)`` reads and changes the file. Every change is a small record
(``Propose``, ``Approve``, ``Reject``, ``Retire``, ``Renew``) that can be previewed as a
unified diff (``store.preview(change)``) and then applied (``store.apply(change)``); the
methods ``propose``/``approve``/... build and apply one in a single call.

Integrity:

* a write re-reads the file under a lock (``<file>.lock``, filelock), applies the change to
  the round-trip tree, validates the result again, and replaces the file
  atomically (temporary file in the same folder, fsync, rename): several tabs or processes
  proposing and approving at once lose nothing;
* a file that does not parse or validate raises ``OverrideFileError`` (file, line, key,
  reason) and is never written;
* every change is appended to the entry's ``history`` (who, when, what changed).

Speed (issue 28: a write took 0.9 s at 160 entries, and four concurrent writers waited on
each other up to a 60 s lock timeout): under the lock a store reuses the document it wrote
last while the file is unchanged, parses only the entries another writer appended since
(``file.extend_document``), and writes a proposal as the file's text plus its one entry
(``file.appended_text``) when the file is in the app's own layout (LF, ``  - `` items:
``file._own_layout``); anything else (a change in place, a hand edit, a re-indented or CRLF
file) is parsed and rendered whole, as before. ``bench/bench_overrides_write.py`` measures
four writers.

The rules each change enforces are listed in ``changes.py`` (among them: a renewal
rests on a recent re-test that still supports the override). Reads are cached per
file while its size, times and inode stay the same, so looking up a host for every page of
a batch does not re-parse the file.
"""

from __future__ import annotations

import difflib
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

import filelock

from ..datafolder import DATA_ENV_VAR, data_folder
from ..errors import OverrideError
from .changes import (
    MAX_REVIEW_DAYS,
    RENEW_DAYS,
    Approve,
    Change,
    ChangeContext,
    Propose,
    Reject,
    Renew,
    Retire,
    actions_for,
    renewal_date,
)
from .file import (
    NEW_FILE,
    appended_text,
    extend_document,
    parse_document,
    read_document,
    render,
    revalidate,
    write_atomic,
)
from .identity import Identity, Verified
from .model import (
    Applicability,
    HistoryEvent,
    OverrideEvidence,
    OverrideStatus,
    SiteOverride,
    Status,
    choose_active,
    statuses_for,
)
from .retest import RetestResult
from .review import (
    DUE_DAYS,
    open_entries_for,
    overlap_warnings,
    renewal_refusal,
    review_order,
)
from .schema import Document, OverrideFileError

__all__ = [
    "DATA_ENV_VAR",
    "DUE_DAYS",
    "ENV_VAR",
    "MAX_REVIEW_DAYS",
    "RENEW_DAYS",
    "Applicability",
    "Approve",
    "Change",
    "ChangeContext",
    "HistoryEvent",
    "Identity",
    "OverrideError",
    "OverrideEvidence",
    "OverrideFileError",
    "OverrideStatus",
    "OverrideStore",
    "Propose",
    "Reject",
    "Renew",
    "RetestResult",
    "Retire",
    "SiteOverride",
    "Status",
    "Verified",
    "actions_for",
    "default_path",
    "open_entries_for",
    "overlap_warnings",
    "renewal_date",
    "renewal_refusal",
    "review_order",
]

#: Environment variable naming the overrides file used by the app and the CLI.
ENV_VAR = "ENCODING_TRIAGE_OVERRIDES"


def default_path() -> Path:
    """The overrides file of the app and the CLI, the first that is set of:

    - ``$ENCODING_TRIAGE_OVERRIDES``;
    - ``overrides.yaml`` in the data folder (``$ENCODING_TRIAGE_DATA``, else ``./data``:
      ``datafolder.data_folder``).
    """
    configured = os.environ.get(ENV_VAR, "").strip()
    if configured:
        return Path(configured).expanduser()
    return data_folder() / "overrides.yaml"


@dataclass(frozen=True, slots=True)
class _Snapshot:
    entries: tuple[SiteOverride, ...]
    history: dict[str, tuple[HistoryEvent, ...]]
    reviewers: tuple[str, ...]
    text: str


_Signature = tuple[int, int, int, int]
_CACHE: dict[Path, tuple[_Signature, _Snapshot]] = {}
_CACHE_LOCK = threading.Lock()


def _signature(path: Path) -> _Signature | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


class OverrideStore:
    """Site overrides in the YAML file at ``path`` (created on the first change).

    ``reviewers``, when given, replaces the file's ``reviewers`` list; ``clock`` returns
    the current time (UTC) and is there for tests. ``unverified_refusal``, when given, is why
    a typed (unverified) name may not approve or renew here (the app beyond loopback:
    ``identity.unverified_refusal``); without it such approvals are written, marked unverified.
    """

    def __init__(self, path: str | os.PathLike[str], *, reviewers: Sequence[str] | None = None,
                 clock: Callable[[], datetime] | None = None, lock_timeout: float = 10.0,
                 unverified_refusal: str | None = None):
        self.path = Path(path)
        self.unverified_refusal = unverified_refusal
        self._reviewers = None if reviewers is None else tuple(reviewers)
        self._clock = clock or _now
        self._lock_timeout = lock_timeout
        # the document this store last wrote, with the file's identity right after the write:
        # the next write under the lock reuses it while the file is unchanged (a re-parse of
        # a 160-entry file was 2/3 of a write), and drops it after any failed change
        self._written: tuple[tuple[int, int, int], Document] | None = None

    def __repr__(self) -> str:
        return f"OverrideStore({str(self.path)!r})"

    def today(self) -> date:
        """Today by the store's clock (UTC)."""
        return self._clock().date()

    def read(self) -> Document:
        """The validated file, freshly parsed (``OverrideFileError`` when it is not valid)."""
        return read_document(self.path)

    def _snapshot(self) -> _Snapshot:
        """The validated file, from the cache while the file is unchanged on disk."""
        key = self.path.resolve()
        before = _signature(self.path)
        with _CACHE_LOCK:
            cached = _CACHE.get(key)
        if before is not None and cached is not None and cached[0] == before:
            return cached[1]
        doc = read_document(self.path)
        snapshot = _Snapshot(tuple(doc.entries), dict(doc.history), doc.reviewers,
                             doc.text or NEW_FILE)
        if before is not None and _signature(self.path) == before:
            with _CACHE_LOCK:
                _CACHE[key] = (before, snapshot)
        return snapshot

    def text(self) -> str:
        """The file as it is on disk; the new-file template when there is none yet."""
        return self._snapshot().text

    def entries(self) -> tuple[SiteOverride, ...]:
        """The current entries in file order (their history: ``history(id)``)."""
        return self._snapshot().entries

    def get(self, id: str) -> SiteOverride:
        """The entry with ``id``, or OverrideError."""
        for entry in self.entries():
            if entry.id == id:
                return entry
        raise OverrideError(f"no override with id {id!r} in {self.path}")

    def history(self, id: str) -> tuple[HistoryEvent, ...]:
        """Every recorded change to the entry ``id``, oldest first."""
        history = self._snapshot().history
        if id not in history:
            raise OverrideError(f"no override with id {id!r} in {self.path}")
        return history[id]

    def reviewers(self) -> tuple[str, ...]:
        """Who may approve (empty: anyone but the author)."""
        return self._reviewers if self._reviewers is not None else self._snapshot().reviewers

    def active_for(self, host: str, on: date | None = None) -> SiteOverride | None:
        """The approved, unexpired override for ``host`` on ``on`` (today), most specific first."""
        return choose_active(self.entries(), host, on or self.today())

    def status_for(self, host: str, on: date | None = None) -> tuple[OverrideStatus, ...]:
        """Every entry matching ``host`` with whether it applies and why; applied first."""
        return statuses_for(self.entries(), host, on or self.today())

    def preview(self, change: Change) -> str:
        """The unified diff ``apply(change)`` would write now (raises what apply would)."""
        doc = self.read()
        _, after, _ = self._run(doc, change)
        name = self.path.name
        return "".join(difflib.unified_diff(
            doc.text.splitlines(keepends=True), after.splitlines(keepends=True),
            fromfile=f"a/{name}" if doc.text else "/dev/null", tofile=f"b/{name}"))

    def apply(self, change: Change) -> SiteOverride:
        """Apply ``change`` under the lock, write atomically, return the changed entry."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(str(self.path) + ".lock", timeout=self._lock_timeout)
        try:
            with lock:
                doc = self._read_for_write()
                self._written = None   # the change mutates doc: it is no copy of the file now
                entry, text, checked = self._run(doc, change)
                write_atomic(self.path, text)
                self._remember(checked, text)
        except filelock.Timeout as exc:
            raise OverrideError(f"{self.path} is locked by another writer for more than "
                                f"{self._lock_timeout:g} s; try again") from exc
        return entry

    def create(self, text: str) -> tuple[SiteOverride, ...]:
        """Write ``text`` (e.g. the example file) as the file, which must not exist yet.

        The text is validated first; an existing file is never replaced this way.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(str(self.path) + ".lock", timeout=self._lock_timeout)
        try:
            with lock:
                if self.path.exists():
                    raise OverrideError(f"{self.path} already exists: it is not replaced")
                doc = parse_document(self.path, text)
                write_atomic(self.path, text)
        except filelock.Timeout as exc:
            raise OverrideError(f"{self.path} is locked by another writer for more than "
                                f"{self._lock_timeout:g} s; try again") from exc
        return tuple(doc.entries)

    def _identity(self) -> tuple[int, int, int] | None:
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return stat.st_ino, stat.st_size, stat.st_mtime_ns

    def _read_for_write(self) -> Document:
        """The file as a document: the one this store wrote last when the file is still what
        it wrote (same inode, size and modification time); that one with only the entries
        another writer appended since parsed (``extend_document``: concurrent proposals);
        else freshly parsed."""
        written, self._written = self._written, None
        if written is not None and written[0] == self._identity():
            return written[1]
        if written is not None:
            try:
                text = self.path.read_bytes().decode("utf-8")
            except (OSError, UnicodeDecodeError):
                return self.read()   # (which says what is wrong)
            extended = extend_document(written[1], text)
            if extended is not None:
                return extended
        return self.read()

    def _remember(self, checked: Document, text: str) -> None:
        identity = self._identity()
        if identity is None or checked.prefix:   # a comment-only prefix is parsed into the tree
            return
        checked.text = text
        self._written = (identity, checked)

    def _run(self, doc: Document, change: Change) -> tuple[SiteOverride, str, Document]:
        """Apply ``change`` to ``doc``: the entry, the file's new text, the validated tree.

        A proposal appended to a file that ends with its entries is written as the file's
        text plus that entry (``appended_text``); any other change renders the whole tree.
        """
        ctx = ChangeContext(now=self._clock(),
                            reviewers=self._reviewers if self._reviewers is not None
                            else doc.reviewers, unverified_refusal=self.unverified_refusal)
        before = len(doc.root.get("overrides") or ())
        ident = change.apply(doc, ctx)
        checked = revalidate(doc)  # never write what would not read back
        entry = next(e for e in checked.entries if e.id == ident)
        added = (appended_text(doc, before) if isinstance(change, Propose)
                 and len(checked.entries) == before + 1 else None)
        return entry, doc.text + added if added is not None else render(doc), checked

    def propose(self, *, host: str, encoding: str, reason: str, author: str | Identity,
                review_by: date,
                evidence: OverrideEvidence | None = None) -> SiteOverride:
        """Propose an override; returns it with its new ``id``."""
        return self.apply(Propose(host, encoding, reason, author, review_by, evidence))

    def approve(self, id: str, *, reviewer: str | Identity) -> SiteOverride:
        """Approve the proposal ``id``."""
        return self.apply(Approve(id, reviewer))

    def reject(self, id: str, *, reviewer: str | Identity, reason: str) -> SiteOverride:
        """Reject the proposal ``id``."""
        return self.apply(Reject(id, reviewer, reason))

    def retire(self, id: str, *, by: str | Identity, reason: str) -> SiteOverride:
        """Retire the entry ``id``."""
        return self.apply(Retire(id, by, reason))

    def renew(self, id: str, *, reviewer: str | Identity, review_by: date | None, reason: str,
              retest: RetestResult | None = None) -> SiteOverride:
        """Renew the approved entry ``id`` until ``review_by`` (None: ``RENEW_DAYS`` after
        the re-test), on its latest ``retest``."""
        return self.apply(Renew(id, reviewer, review_by, reason, retest))
