"""Command line: ``encoding-triage SUBCOMMAND ...``, the same as ``python -m encoding_core``.

Subcommands live next to what they run; each of those modules has
``add_parser(subparsers) -> None`` that registers its subcommand and sets ``func``
(``func(args) -> int`` is the exit status).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from ..extras import MissingExtraError
from ._help import examples

# Modules that contribute subcommands, in help order, and the commands each registers (named
# here too so that a command whose extra is missing still answers, with the extra to install).
_SUBCOMMAND_MODULES = {
    "encoding_core.cli.inspect": ("inspect",),
    "encoding_core.cli.fetch": ("fetch", "report"),
    "encoding_core.cli.scan": ("scan-csv", "scan-parquet"),
    "encoding_core.cli.overrides": ("overrides",),
    "encoding_core.cli.spark": ("spark",),
}


#: The console script's name (``[project.scripts]`` in ``pyproject.toml``).
PROG = "encoding-triage"


def build_parser(prog: str = "python -m encoding_core") -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Decide which encoding web bytes are in, and show why.",
        **examples(f"{prog} inspect page.html --content-type 'text/html; charset=iso-8859-1'",
                   f"{prog} report crawl.warc.gz", f"{prog} scan-csv export.csv --json",
                   f"{prog} COMMAND --help    (each command's options and examples)"),
    )
    parser.add_argument("--version", action="version", version=version_line(),
                        help="the version, and whether the compiled parts run")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, commands in _SUBCOMMAND_MODULES.items():
        try:
            module = importlib.import_module(name)
        except MissingExtraError as exc:   # its optional dependencies are not installed
            for command in commands:
                _add_unavailable(subparsers, command, str(exc))
            continue
        module.add_parser(subparsers)
    return parser


def version_line() -> str:
    """``encoding-triage X.Y.Z (speedups: cython)``: ``pure`` when the compiled extensions are
    not built or ``ENCODING_TRIAGE_PURE=1`` is set, ``partial (missing: ...)`` when some are
    not (``encoding_core.speedups``)."""
    from importlib.metadata import PackageNotFoundError, version

    from ..speedups import SPEEDUPS

    try:
        number = version("encoding-triage")
    except PackageNotFoundError:   # a checkout that is not installed
        number = "(not installed)"
    return f"{PROG} {number} (speedups: {SPEEDUPS})"


def _add_unavailable(subparsers: Any, command: str, reason: str) -> None:
    """A command whose extra is missing: it takes any arguments and says what to install."""
    parser = subparsers.add_parser(command, help=f"(not installed: {reason})",
                                   add_help=False, prefix_chars="\0")
    parser.add_argument("ignored", nargs=argparse.REMAINDER)

    def unavailable(args: argparse.Namespace) -> int:
        print(f"{command}: {reason}", file=sys.stderr)
        return 2

    parser.set_defaults(func=unavailable)


def main(argv: Sequence[str] | None = None, *, prog: str = "python -m encoding_core") -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``... --json | head``): stop quietly, as Unix tools do, with
        # the status Python's documentation gives for EPIPE. Point stdout at /dev/null so the
        # interpreter's own flush at exit does not raise (and print) the same error again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status


def console_main() -> int:
    """The ``encoding-triage`` console script: ``main`` with the script's name in ``--help``."""
    return main(prog=PROG)
