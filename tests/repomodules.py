"""The project's own scripts and benches (``scripts/``, ``bench/``), imported by a test.

They are programs, not a package: a test that checks a fixture against the script that wrote
it, or runs a bench's corpus, imports them with those folders on ``sys.path`` only for the
import, so no other test sees them there.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def repo_module(name: str, *folders: str) -> ModuleType:
    """Module ``name`` imported from the repository's ``folders`` (e.g. "scripts", "bench").

    >>> repo_module("corpus", "bench").__name__
    'corpus'
    """
    paths = [str(ROOT / folder) for folder in folders]
    sys.path[:0] = paths
    try:
        return importlib.import_module(name)
    finally:
        for path in paths:
            sys.path.remove(path)
