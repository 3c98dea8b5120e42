"""What every command's ``--help`` ends with: examples, kept as written."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["examples"]


def examples(*lines: str) -> dict[str, Any]:
    """Keyword arguments for ``add_parser``: an "examples:" epilog, one command a line.

    >>> print(examples("encoding-triage inspect page.html")["epilog"])
    examples:
      encoding-triage inspect page.html
    """
    return {"epilog": "examples:\n" + "\n".join(f"  {line}" for line in lines),
            "formatter_class": argparse.RawDescriptionHelpFormatter}
