"""Command line: ``python -m encoding_core SUBCOMMAND ...``.

Subcommands live next to what they run; each of those modules has
``add_parser(subparsers) -> None`` that registers its subcommand and sets ``func``
(``func(args) -> int`` is the exit status).
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence

# Modules that contribute subcommands, in help order.
_SUBCOMMAND_MODULES = (
    "encoding_core.cli_inspect",
    "encoding_core.cli_fetch",
    "encoding_core.cli_scan",
    "encoding_core.cli_overrides",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="python -m encoding_core",
        description="Decide which encoding web bytes are in, and show why.",
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    status: int = args.func(args)
    return status
