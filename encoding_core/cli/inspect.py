"""``python -m encoding_core inspect FILE [--content-type VALUE] [--json]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..decision.decode import decode
from ._help import examples

__all__ = ["add_parser", "format_decision", "printable"]


def printable(text: str) -> str:
    """Page-supplied text made safe for a terminal (control characters escaped).

    >>> printable("a\\x1b[2Jb")
    'a\\\\x1b[2Jb'
    """
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def add_parser(subparsers: Any) -> None:
    """Register the ``inspect`` subcommand."""
    parser = subparsers.add_parser(
        "inspect", help="decide a saved body's encoding, with the trace",
        description="Decide a saved response body's encoding: the decision, every source's "
                    "opinion (the trace) and the conflicts.",
        **examples('encoding-triage inspect page.html --content-type "text/html; charset=latin1"',
                   "encoding-triage inspect page.html --json > decision.json",
                   "curl -s https://example.com/ | encoding-triage inspect -"))
    parser.add_argument("file", type=Path, help="the response body, as raw bytes ('-' for stdin)")
    parser.add_argument("--content-type", default=None, help="the Content-Type header value")
    parser.add_argument("--override", default=None, help="a site override's encoding")
    parser.add_argument("--site-default", default=None, help="the site's default encoding")
    parser.add_argument("--json", action="store_true", help="print the decision as JSON")
    parser.add_argument("--text", action="store_true", help="include the decoded text in JSON")
    parser.set_defaults(func=run)


def format_decision(result: Any) -> str:
    """The decision and its trace as plain text."""
    lines = [f"encoding:  {result.encoding}", f"source:    {result.decided_by}",
             f"replacements: {result.replacements}",
             f"browser would use: {result.browser_encoding}",
             f"needs review: {'yes' if result.needs_review else 'no'}", "", "trace:"]
    for ev in result.evidence:
        mark = "*" if ev.used else " "
        lines.append(f" {mark} {ev.source!s:<16} {printable(ev.raw_label or '-'):<20} "
                     f"{ev.encoding or '-':<14} {printable(ev.reason)}")
    if result.conflicts:
        lines += ["", "conflicts:"]
        for conflict in result.conflicts:
            lines.append(f"  [{conflict.severity}] {conflict.kind}: "
                         f"{printable(conflict.message)}")
            lines.append(f"      {printable(conflict.advice)}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Read the file, decide, print; 2 when the file cannot be read."""
    try:
        body = sys.stdin.buffer.read() if str(args.file) == "-" else args.file.read_bytes()
    except OSError as exc:
        print(f"error: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    result = decode(body, args.content_type, override=args.override,
                    site_default=args.site_default)
    if args.json:
        print(result.to_json(include_text=args.text))
    else:
        print(format_decision(result))
    return 0
