"""Which overrides file a command applies: ``--overrides FILE``, ``--no-overrides``, or the app's.

``fetch``, ``report`` and ``spark report`` decide as the app does: with the approved overrides
of the app's file (``overrides.store.default_path``: ``$ENCODING_TRIAGE_OVERRIDES``, else
``overrides.yaml`` in the data folder) when it exists. ``--overrides FILE`` names another,
which must exist (a typo must not silently decide without overrides); ``--no-overrides``
decides from the bytes and headers alone, as a plain crawler would. A path that exists but
cannot be read as an overrides file (a folder, broken YAML) is the store's error, exit 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import OverrideError
from ..overrides.store import default_path

__all__ = ["add_overrides_arguments", "overrides_file"]

_HELP = ("apply the approved site overrides of this YAML file, which must exist (default: "
         "$ENCODING_TRIAGE_OVERRIDES, else overrides.yaml in the data folder, when it exists)")


def add_overrides_arguments(parser: Any) -> None:
    """``--overrides FILE`` and ``--no-overrides``, one or the other."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--overrides", type=Path, default=None, metavar="FILE", help=_HELP)
    group.add_argument("--no-overrides", action="store_true",
                       help="apply no site overrides, not even the app's")


def overrides_file(args: argparse.Namespace) -> Path | None:
    """The overrides file to apply, or None (none asked for, or the app's does not exist yet).

    Raises ``OverrideError`` when ``--overrides`` names a path that does not exist.
    """
    if args.no_overrides:
        return None
    if args.overrides is not None:
        if not args.overrides.exists():
            raise OverrideError(f"{args.overrides}: no such overrides file")
        return Path(args.overrides)
    path = default_path()
    return path if path.exists() else None
