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

from ._help import examples

# Modules that contribute subcommands, in help order.
_SUBCOMMAND_MODULES = (
    "encoding_core.cli.inspect",
    "encoding_core.cli.fetch",
    "encoding_core.cli.scan",
    "encoding_core.cli.overrides",
    "encoding_core.cli.spark",
)


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
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in _SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a subcommand still being written
            if exc.name != name:
                raise
            continue
        module.add_parser(subparsers)
    return parser


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
