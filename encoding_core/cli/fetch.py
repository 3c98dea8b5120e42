"""``python -m encoding_core fetch URL`` and ``python -m encoding_core report FILE.warc[.gz]``.

``fetch`` fetches one page (address guard, limits, redirects), keeps it in the landing zone
and prints the hops, the raw headers and the decision; ``report`` prints seed 000's per-host
numbers over the HTML responses of a WARC file. Exit status: 0 done, 1 the fetch failed or
the file is not WARC, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import FetchError, OverrideError
from ..fetch.client import Capture, configured_settings, fetch_page
from ..hosts import host_of
from ..limits import MAX_BODY_BYTES
from ..overrides.lookup import ActiveOverrides
from ..overrides.retest import decode_with_overrides
from ..overrides.store import OverrideStore
from ..warc.hostreport import QUARANTINE_THRESHOLD, HostReport, report_from_warc
from ..warc.landing import configured_zone, fetch_and_keep
from ..warc.warcfile import WarcFormatError
from ._help import examples
from ._overrides_file import add_overrides_arguments, overrides_file
from .inspect import format_decision
from .inspect import printable as _clean

__all__ = ["add_parser", "format_capture", "format_report"]


def add_parser(subparsers: Any) -> None:
    """Register the ``fetch`` and ``report`` subcommands."""
    fetch = subparsers.add_parser(
        "fetch", help="fetch a URL and decide its encoding",
        description="Fetch a URL (address guard, size cap, one redirect hop at a time), keep the "
                    "capture in the landing zone and decide its encoding.",
        **examples("encoding-triage fetch https://shop.example.com/",
                   "encoding-triage fetch https://intranet.example/ --allow 10.1.0.0/16 --json"))
    fetch.add_argument("url", help="an http or https URL")
    fetch.add_argument("--json", action="store_true", help="print capture and decision as JSON")
    fetch.add_argument("--allow", action="append", default=[], metavar="NETWORK",
                       help="open a blocked network on purpose, e.g. 10.1.0.0/16 (repeatable)")
    fetch.add_argument("--max-bytes", type=int, default=MAX_BODY_BYTES,
                       help="size cap, received and decompressed (default 10 MiB)")
    fetch.add_argument("--timeout", type=float, default=60.0, help="total time limit, seconds")
    fetch.add_argument("--landing", type=Path, default=None,
                       help="landing zone folder (default $ENCODING_TRIAGE_LANDING or ./landing)")
    fetch.add_argument("--retention-days", type=float, default=None,
                       help="days a capture is kept (default 7)")
    fetch.add_argument("--no-keep", action="store_true", help="do not keep the capture")
    add_overrides_arguments(fetch)
    fetch.set_defaults(func=run_fetch)

    report = subparsers.add_parser(
        "report", help="per-host decisions over a WARC file",
        description="Decide every response record of a WARC file and report per host: sources, "
                    "replacements, conflicts, suggested overrides.",
        **examples("encoding-triage report crawl.warc.gz",
                   "encoding-triage report crawl.warc.gz --json > report.json",
                   "encoding-triage report crawl.warc.gz --csv hosts"))
    report.add_argument("file", type=Path, help="a WARC file (.warc or .warc.gz)")
    report.add_argument("--json", action="store_true", help="print the report as JSON")
    report.add_argument("--csv", choices=("hosts", "records"), default=None,
                        help="print one table as CSV")
    add_overrides_arguments(report)
    report.add_argument("--max-bytes", type=int, default=MAX_BODY_BYTES,
                        help="records larger than this are skipped (default 10 MiB)")
    report.set_defaults(func=run_report)


def format_capture(capture: Capture) -> str:
    """The hops, the final response and its raw headers, as plain text."""
    lines = [f"GET {_clean(capture.requested_url)}"]
    for hop in capture.exchanges:
        location = hop.header_values("location")
        to = f"  -> {_clean(location[0])}" if location and hop is not capture.final else ""
        lines.append(f"  {hop.status} {_clean(hop.reason)}  {hop.http_version}  "
                     f"({hop.address or '?'}, {hop.elapsed:.2f} s){to}")
    codings = f", {'+'.join(capture.content_codings)} removed from {capture.raw_length:,}" \
        if capture.content_codings else ""
    lines += [f"final URL: {_clean(capture.url)}",
              f"body: {len(capture.body):,} bytes{codings}, in {capture.elapsed:.2f} s"]
    if capture.capture_id:
        lines.append(f"kept as: {capture.capture_id}")
    lines += [f"note: {_clean(note)}" for note in capture.notes]
    lines += ["", "response headers, as received:"]
    lines += [f"  {_clean(name)}: {_clean(value)}" for name, value in capture.headers]
    return "\n".join(lines)


def _store(args: argparse.Namespace) -> OverrideStore | None:
    """The overrides store to apply (``_overrides_file``), or None; read once, so a missing,
    unreadable or broken file is reported before any work (``OverrideError``)."""
    path = overrides_file(args)
    if path is None:
        return None
    store = OverrideStore(path)
    store.entries()
    return store


def run_fetch(args: argparse.Namespace) -> int:
    """Fetch, keep, decide, print."""
    try:
        config: dict[str, Any] = {"total_timeout": args.timeout, "max_bytes": args.max_bytes}
        if args.allow:
            config["allowed_networks"] = args.allow
        settings = configured_settings(config)
        zone = configured_zone({"landing_dir": args.landing,
                                "retention_days": args.retention_days})
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        store = _store(args)   # before the fetch: a bad overrides file costs no request
    except OverrideError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        capture = (fetch_page(args.url, settings=settings) if args.no_keep
                   else fetch_and_keep(args.url, zone, settings))
    except FetchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    try:
        host = host_of(capture.url) or ""
        statuses = store.status_for(host) if store is not None and host else ()
    except OverrideError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    decided = decode_with_overrides(capture.body, capture.content_type, statuses)
    if args.json:
        print(json.dumps({"capture": capture.to_dict(),
                          "decision": decided.to_dict(include_text=False)},
                         indent=2, ensure_ascii=False))
    else:
        print(format_capture(capture))
        print()
        print(format_decision(decided))
    return 0


def format_report(report: HostReport) -> str:
    """The per-host table, what was skipped, and the hosts seed 000 would quarantine."""
    header = f"{'host':<32} {'pages':>5} {'quarantine':>10} {'replacements':>12} " \
             f"{'lossy':>5} {'conflicts':>9} {'review':>6} {'suggests':>16}  sources"
    lines = [header]
    for h in report.hosts:
        sources = ", ".join(f"{s} {n}" for s, n in h.sources)
        quarantine = f"yes ({h.quarantined_records})" if h.quarantine else "no"
        suggests = (f"{h.suggested_override} ({h.suggested_pages}/{h.records - h.errors})"
                    if h.suggested_pages else "-")
        lines.append(f"{_clean(h.host)[:32]:<32} {h.records:>5} {quarantine:>10} "
                     f"{h.replacements:>12} {h.lossy:>5} {h.conflicts:>9} {h.needs_review:>6} "
                     f"{suggests:>16}  {sources}")
    if report.skipped:
        lines.append("skipped: " + ", ".join(f"{reason} {n}" for reason, n in report.skipped))
    if report.problem:
        lines.append(f"warning: {report.problem}")
    quarantined = ", ".join(_clean(h) for h in report.quarantined_hosts) or "none"
    lines.append(f"quarantine (a page with more than {QUARANTINE_THRESHOLD} replacements): "
                 f"{quarantined}")
    return "\n".join(lines)


def run_report(args: argparse.Namespace) -> int:
    """Read the WARC file, decide every HTML response, print per host."""
    try:
        store = _store(args)  # a broken file is reported now, not once per record
    except OverrideError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    active = None
    if store is not None:  # which overrides apply, and which rest on an unverified approval
        active = ActiveOverrides.of(store)
        print(f"overrides: {active.summary(store.path)}", file=sys.stderr)
    try:
        report = report_from_warc(args.file, max_bytes=args.max_bytes, overrides=active)
    except WarcFormatError as exc:
        print(f"error: {args.file}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(report.to_json())
    elif args.csv:
        text = report.hosts_csv() if args.csv == "hosts" else report.records_csv()
        # page data (a WARC-Target-URI) may hold terminal control sequences: written escaped
        sys.stdout.write("\n".join(_clean(line) for line in text.split("\n")))
    else:
        print(format_report(report))
    return 0
