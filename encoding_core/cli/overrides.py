"""``python -m encoding_core overrides list|check``: the overrides file from a shell or CI.

``list`` with no file yet says there are no overrides yet and exits 0. ``check`` exits 0 when
every entry is fine, 1 when an entry is expired (or due within
``--due-within`` days), and 2 when the file is missing or invalid, so a team can run it in CI
next to the file it reviews.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import OverrideError
from ..overrides.model import SiteOverride, due_state
from ..overrides.store import OverrideStore, default_path
from ..wording import plural
from ._help import examples

__all__ = ["add_parser", "run_check", "run_list"]

EXIT_OK, EXIT_DUE, EXIT_INVALID = 0, 1, 2


def add_parser(subparsers: Any) -> None:
    """Register ``overrides`` with its ``list`` and ``check`` subcommands."""
    parser = subparsers.add_parser(
        "overrides", help="list or check the site overrides file",
        description="List or check the site overrides file (default: $ENCODING_TRIAGE_OVERRIDES, "
                    "else overrides.yaml in the data folder: $ENCODING_TRIAGE_DATA or ./data).",
        **examples("encoding-triage overrides list",
                   "encoding-triage overrides check --due-within 14",
                   "encoding-triage overrides list --file team/overrides.yaml --json"))
    actions = parser.add_subparsers(dest="overrides_command", required=True, metavar="ACTION")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--file", type=Path, default=None, metavar="PATH",
                        help="the overrides YAML file")
    common.add_argument("--on", type=date.fromisoformat, default=None, metavar="YYYY-MM-DD",
                        help="judge review dates as of this day (default: today, UTC)")
    listing = actions.add_parser(
        "list", parents=[common], help="print every entry",
        description="Print every entry with its status and review date; no file yet means no "
                    "overrides yet.",
        **examples("encoding-triage overrides list", "encoding-triage overrides list --json"))
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    listing.set_defaults(func=run_list)
    check = actions.add_parser(
        "check", parents=[common],
        help="exit 1 when an entry is expired or due within DAYS, 2 when the file is invalid",
        description="Exit 0 when every entry is fine, 1 when an entry is expired (or due within "
                    "DAYS), 2 when the file is missing or invalid: for CI next to the file.",
        **examples("encoding-triage overrides check",
                   "encoding-triage overrides check --due-within 14 --file overrides.yaml"))
    check.add_argument("--due-within", type=int, default=None, metavar="DAYS",
                       help="also fail for entries whose review date is at most DAYS away")
    check.set_defaults(func=run_check)


def _open(args: argparse.Namespace) -> tuple[OverrideStore, tuple[SiteOverride, ...], date]:
    path: Path = args.file or default_path()
    if not path.is_file():
        raise OverrideError(f"{path}: no such overrides file")
    store = OverrideStore(path)
    return store, store.entries(), args.on or store.today()


def _row(entry: SiteOverride, on: date, within: int) -> dict[str, Any]:
    state = due_state(entry, on, within)
    days = entry.days_left(on)
    note = {"closed": "", "expired": f"expired {plural(-days, 'day')} ago",
            "due": f"due in {plural(days, 'day')}", "ok": f"{plural(days, 'day')} left"}[state]
    return {"id": entry.id, "status": entry.status.value, "host": entry.host,
            "encoding": entry.encoding, "review_by": entry.review_by.isoformat(),
            "state": state, "note": note, "created_by": entry.created_by,
            "approved_by": entry.approved_by,
            "approved_via": entry.approved_via.value if entry.approved_via else (
                "unverified" if entry.approved_by else None),
            "approver": entry.approver, "reason": entry.reason}


def run_list(args: argparse.Namespace) -> int:
    """Print the entries as a table (or JSON); no file yet is no overrides yet, not an error."""
    path: Path = args.file or default_path()
    if not path.exists():
        if args.json:
            print("[]")
        else:
            print(f"{path}: no overrides yet (the file does not exist; the Overrides page or "
                  f"'Load the example file' there creates it)")
        return EXIT_OK
    try:
        store, entries, on = _open(args)
    except OverrideError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INVALID
    rows = [_row(e, on, 30) for e in entries]
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return EXIT_OK
    print(f"{store.path}: {plural(len(rows), 'entry', 'entries')}, as of {on}")
    columns = ("id", "status", "host", "encoding", "review_by", "note", "created_by",
               "approver")
    table = [[*columns[:-1], "approved_by"]] + [[str(r[c] or "") for c in columns] for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
    for line in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
    return EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    """Report expired and due entries; the exit status says whether any need a reviewer."""
    try:
        store, entries, on = _open(args)
    except OverrideError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INVALID
    within = args.due_within
    failing = []
    for entry in entries:
        state = due_state(entry, on, within if within is not None else -1)
        if state in ("expired", "due"):
            failing.append(entry)
            days = entry.days_left(on)
            when = (f"expired: review was due {entry.review_by} ({plural(-days, 'day')} ago)"
                    if state == "expired" else f"due for review on {entry.review_by} "
                    f"(in {plural(days, 'day')})")
            print(f"{store.path}: {entry.id} {entry.host} ({entry.encoding}, {entry.status}) "
                  f"{when}: re-test it, then renew or retire it")
    scope = "expired" if within is None else f"expired or due within {plural(within, 'day')}"
    if failing:
        print(f"{len(failing)} of {plural(len(entries), 'entry', 'entries')} {scope} as of {on}")
        return EXIT_DUE
    counted = plural(len(entries), "entry", "entries")
    print(f"ok: {counted} in {store.path}, none {scope} as of {on}")
    return EXIT_OK
