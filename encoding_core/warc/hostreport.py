"""Host report: seed 000's per-host instrumentation, over a WARC file or a list of URLs.

Seed 000 counts ``decode_source`` per host and source, adds ``decode_replacements`` per host,
and quarantines a host's encoding when one page needs more than 20 replacements. This module
runs ``decode`` over every HTML response and returns those numbers per host, with the
conflicts ``decode`` reported, as data (charts and exports are the page's and the CLI's).
Per host it also names the encoding the conflicts of at least half its pages point at
(``suggested_override``, with how many pages): a host whose pages consistently say so is worth
a site override; a few pages saying so are a section of the site, not the host (they keep
their own ``suggested``).

Only bodies are decided. A redirect hop (a 3xx with a Location, as a crawl's WARC file records
every hop) and a response with an empty body (204, 304, a HEAD-like 200) are no page: they are
counted apart per host by status (``HostSummary.not_pages``), never as pages decided by
"fallback".

Each body is decided with its host's site overrides through the one call every caller makes
(``decision.overridden.decode_overridden``, given ``OverrideSource.for_host``: an
``overrides.lookup.ActiveOverrides``), so a report row's decision and trace are the ones the
Fetch page shows for the same record, file and day (``decide``).

URLs are fetched politely: at most ``concurrency`` at a time, one at a time per host, with
``delay`` seconds between two requests to the same host.
"""

from __future__ import annotations

import csv
import io
import json
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from typing import Any

from ..cells import spreadsheet_cell
from ..decision.decode import DEFAULT_DETECTOR, Detector
from ..decision.models import Decoded
from ..decision.overridden import OverrideSource, decode_overridden
from ..decision.resolve import UseDefault
from ..errors import FetchError
from ..fetch.client import Capture, FetchSettings, fetch_page
from ..hosts import host_of
from ..limits import MAX_BODY_BYTES
from .hostjson import read_report
from .hostmodels import QUARANTINE_THRESHOLD, HostSummary, RecordOutcome
from .hosttally import HostTally, tally_hosts
from .landing import LandingZone, fetch_and_keep
from .warcfile import (
    UnreadableRecord,
    WarcFormatError,
    WarcSource,
    iter_indexed_captures,
    record_error,
)

__all__ = ["QUARANTINE_THRESHOLD", "HostReport", "HostSummary", "RecordOutcome", "decide",
           "outcome", "report_from_json", "report_from_urls", "report_from_warc", "report_of",
           "summarise", "unreadable_problem", "warc_outcomes"]

Progress = Callable[[int, int | None], None]  # (records done, total if known)


@dataclass(frozen=True, slots=True)
class HostReport:
    """Per-host summaries (quarantined first, then most replacements) and every record."""

    hosts: tuple[HostSummary, ...]
    records: tuple[RecordOutcome, ...]
    skipped: tuple[tuple[str, int], ...] = ()  # records not decoded, by reason
    problem: str | None = None                 # why the input ended early, if it did
    #: records decided (and counted in ``hosts``) but not listed in ``records``: a job's
    #: cap on what the driver collects (``records.parquet`` has them all)
    records_omitted: int = 0

    @property
    def quarantined_hosts(self) -> tuple[str, ...]:
        """The hosts seed 000 would quarantine."""
        return tuple(h.host for h in self.hosts if h.quarantine)

    def to_dict(self) -> dict[str, Any]:
        """A plain dict for JSON."""
        return {"hosts": [asdict(h) | {"quarantine": h.quarantine} for h in self.hosts],
                "quarantined_hosts": list(self.quarantined_hosts),
                "records": [asdict(r) for r in self.records],
                "records_omitted": self.records_omitted,
                "skipped": dict(self.skipped), "problem": self.problem}

    def to_json(self, *, indent: int | None = 2) -> str:
        """The report as JSON."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def hosts_csv(self) -> str:
        """One row per host; one ``source:<name>`` column per source seen."""
        sources = sorted({s for h in self.hosts for s, _ in h.sources})
        rows: list[list[Any]] = [[
            "host", "records", "quarantine", "quarantined_records", "replacements",
            "max_replacements", "lossy", "conflicts", "needs_review", "errors",
            "suggested_override", "suggested_pages", "pages", "not_pages",
            *(f"source:{s}" for s in sources)]]
        for h in self.hosts:
            counts = dict(h.sources)
            rows.append([h.host, h.records, h.quarantine, h.quarantined_records, h.replacements,
                         h.max_replacements, h.lossy, h.conflicts, h.needs_review, h.errors,
                         h.suggested_override, h.suggested_pages, h.pages,
                         " ".join(f"{status}:{n}" for status, n in h.not_pages),
                         *(counts.get(s, 0) for s in sources)])
        return _csv(rows)

    def records_csv(self) -> str:
        """One row per record."""
        rows: list[list[Any]] = [["url", "host", "status", "encoding", "source", "replacements",
                                  "quarantined", "conflicts", "needs_review", "suggested",
                                  "body_length", "error", "not_a_page"]]
        rows += [[r.url, r.host, r.status, r.encoding, r.source, r.replacements, r.quarantined,
                  " ".join(r.conflicts), r.needs_review, r.suggested, r.body_length,
                  r.error or "", r.not_a_page]
                 for r in self.records]
        return _csv(rows)


def _csv(rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    # the csv module quotes a cell holding its line terminator, not one holding a lone CR,
    # which a reader takes for a line break: such a row is written with every cell quoted
    quoted = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
    for row in rows:
        # a cell from page data that a spreadsheet would run as a formula is quoted
        cells = [spreadsheet_cell(c) for c in row]
        (quoted if any(isinstance(c, str) and "\r" in c for c in cells) else writer
         ).writerow(cells)
    return out.getvalue()


def _host(url: str) -> str:
    return host_of(url) or "(no host)"


def decide(capture: Capture, *, detector: Detector | UseDefault | None = DEFAULT_DETECTOR,
           overrides: OverrideSource | None = None) -> Decoded:
    """The decision a report row counts for ``capture``: its body under its host's overrides.

    The same call, and so the same decision and trace, as the Fetch page's and the CLI's
    ``decode_with_overrides`` for the same bytes, overrides file and day.
    """
    host = overrides.for_host(_host(capture.url)) if overrides is not None else None
    return decode_overridden(capture.body, capture.content_type, host, detector=detector)


def outcome(capture: Capture, *, detector: Detector | UseDefault | None = DEFAULT_DETECTOR,
            overrides: OverrideSource | None = None,
            record_index: int | None = None, warc_file: str = "") -> RecordOutcome:
    """Decode one capture (``decide``: with its host's overrides) and keep seed 000's numbers.

    A redirect hop or an empty body is no page: it is returned undecided (``not_a_page``).
    The outcome names what it was decided from (the capture's id, or ``record_index`` in
    its WARC file, and ``warc_file``'s path), so a report row reopens exactly that page, not
    another one of its URL.
    """
    host = _host(capture.url)
    kept, index = capture.capture_id, record_index
    sent = capture.content_type or ""
    if 300 <= capture.status < 400 and capture.final.header_values("location"):
        return RecordOutcome(url=capture.url, host=host, status=capture.status,
                             body_length=len(capture.body), not_a_page="redirect",
                             capture_id=kept, record_index=index, content_type=sent,
                             warc_file=warc_file)
    if not capture.body:
        return RecordOutcome(url=capture.url, host=host, status=capture.status,
                             not_a_page="empty body",
                             capture_id=kept, record_index=index, content_type=sent,
                             warc_file=warc_file)
    decided = decide(capture, detector=detector, overrides=overrides)
    return RecordOutcome(
        url=capture.url, host=host, status=capture.status,
        encoding=decided.encoding, source=decided.decided_by, replacements=decided.replacements,
        conflicts=tuple(c.kind for c in decided.conflicts), needs_review=decided.needs_review,
        suggested=decided.suggested_encoding or "", body_length=len(capture.body),
        capture_id=kept, record_index=index, content_type=sent, warc_file=warc_file)


def summarise(records: Iterable[RecordOutcome], skipped: Iterable[tuple[str, int]] = (),
              problem: str | None = None) -> HostReport:
    """Group record outcomes by host, through the same mergeable tallies as the engines."""
    records = tuple(records)
    return report_of(tally_hosts(records).values(), records, skipped, problem)


def report_of(tallies: Iterable[HostTally], records: Iterable[RecordOutcome] = (),
              skipped: Iterable[tuple[str, int]] = (), problem: str | None = None,
              records_omitted: int = 0) -> HostReport:
    """The report from per-host tallies (merged however an engine merged them); ``records``
    those listed, ``records_omitted`` how many decided ones are not (a job's cap)."""
    hosts = sorted((tally.summary() for tally in tallies),
                   key=lambda h: (not h.quarantine, -h.replacements, h.host))
    return HostReport(tuple(hosts), tuple(records),
                      tuple(sorted(Counter(dict(skipped)).items())), problem, records_omitted)


def report_from_json(text: str | bytes) -> HostReport:
    """A host report read back from the JSON ``HostReport.to_json`` wrote (``report --json``,
    a job's ``report.json``); ``ValueError`` saying what is wrong when it is not one
    (``hostjson.read_report``: every field checked against its type).
    """
    return HostReport(*read_report(text))


def warc_outcomes(source: WarcSource, *, max_bytes: int = MAX_BODY_BYTES,
                  detector: Detector | UseDefault | None = DEFAULT_DETECTOR,
                  overrides: OverrideSource | None = None, warc_file: str = "",
                  ) -> Iterator[RecordOutcome | str]:
    """Each record's outcome, or the reason it was skipped, in file order.

    A record that cannot be read or decided is an outcome with ``error`` set (it names the
    record), and the records after it go on: one poison record never ends a batch.
    Raises ``WarcFormatError`` as ``iter_indexed_captures`` does (the file, not a record).
    """
    for index, item in iter_indexed_captures(source, max_bytes=max_bytes):
        if isinstance(item, str):
            yield item
        elif isinstance(item, UnreadableRecord):
            yield _unreadable(item.url, index, item.reason, warc_file)
        else:
            try:
                yield outcome(item, detector=detector, overrides=overrides,
                              record_index=index, warc_file=warc_file)
            except Exception as exc:  # any: one record must not end the batch
                yield _unreadable(item.url, index, record_error(exc), warc_file)


def _unreadable(url: str, index: int, reason: str, warc_file: str) -> RecordOutcome:
    return RecordOutcome(url=url, host=_host(url), error=f"record {index + 1}: {reason}",
                         record_index=index, warc_file=warc_file)


def unreadable_problem(records: Iterable[RecordOutcome], *, shown: int = 3) -> str | None:
    """The ``problem`` line naming the records of a WARC file that could not be read or
    decided (the first ``shown`` of them), or ``None`` when there are none."""
    bad = [r for r in records if r.error is not None and r.record_index is not None]
    if not bad:
        return None
    named = "; ".join(f"{r.error} ({r.url or 'no URL'})" for r in bad[:shown])
    more = f"; and {len(bad) - shown:,} more (see the records' error)" if len(bad) > shown else ""
    return (f"{len(bad):,} record{'s' if len(bad) > 1 else ''} could not be read: {named}{more};"
            " the report has every other record")


def report_from_warc(source: WarcSource, *, max_bytes: int = MAX_BODY_BYTES,
                     progress: Progress | None = None,
                     detector: Detector | UseDefault | None = DEFAULT_DETECTOR,
                     overrides: OverrideSource | None = None) -> HostReport:
    """The host report over the HTML responses of a WARC file.

    Raises ``WarcFormatError`` when the file is not WARC or holds no response record (an
    empty file); damage after good records ends the report early with ``problem`` set. A
    record that cannot be read (too many content codings, ...) is listed with its ``error``,
    named in ``problem``, and the report goes on.
    """
    records: list[RecordOutcome] = []
    skipped: Counter[str] = Counter()
    stopped = None
    path = str(source) if isinstance(source, str | os.PathLike) else ""
    try:
        for done, item in enumerate(warc_outcomes(source, max_bytes=max_bytes,
                                                  detector=detector, overrides=overrides,
                                                  warc_file=path), start=1):
            if isinstance(item, str):
                skipped[item] += 1
            else:
                records.append(item)
            if progress is not None:
                progress(done, None)
    except WarcFormatError as exc:
        if not exc.records_read:
            raise
        stopped = f"{exc}; the report covers the records before it"
    if not records and not skipped and stopped is None:
        # an empty report would look like a crawl with nothing wrong in it
        raise WarcFormatError("no response records: the file is empty or holds none")
    problem = "; ".join(p for p in (unreadable_problem(records), stopped) if p) or None
    return summarise(records, skipped.items(), problem)


def report_from_urls(urls: Sequence[str], *, settings: FetchSettings | None = None,
                     zone: LandingZone | None = None, concurrency: int = 4, delay: float = 1.0,
                     progress: Progress | None = None,
                     detector: Detector | UseDefault | None = DEFAULT_DETECTOR,
                     overrides: OverrideSource | None = None) -> HostReport:
    """The host report over ``urls``, fetched politely (and kept in ``zone`` when given)."""
    locks: dict[str, threading.Lock] = {}
    last: dict[str, float] = {}
    guard = threading.Lock()

    def one(url: str) -> RecordOutcome:
        host = _host(url)
        with guard:
            lock = locks.setdefault(host, threading.Lock())
        with lock:  # one request at a time per host, ``delay`` apart
            wait = last.get(host, float("-inf")) + delay - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            try:
                capture = (fetch_and_keep(url, zone, settings) if zone is not None
                           else fetch_page(url, settings=settings))
                return outcome(capture, detector=detector, overrides=overrides)
            except FetchError as exc:
                return RecordOutcome(url=url, host=host, error=str(exc))
            except Exception as exc:  # any: one URL must not end the batch
                return RecordOutcome(url=url, host=host, error=record_error(exc))
            finally:
                last[host] = time.monotonic()

    results: dict[int, RecordOutcome] = {}
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        futures = {pool.submit(one, url): i for i, url in enumerate(urls)}
        for done, future in enumerate(as_completed(futures), start=1):
            results[futures[future]] = future.result()
            if progress is not None:  # called from the caller's thread (Streamlit needs it)
                progress(done, len(urls))
    return summarise(results[i] for i in range(len(urls)))
