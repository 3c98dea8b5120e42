"""Which compiled extensions answer: the one place that loads them and says so.

Every ``*.pyx`` shipped in a room of ``encoding_core`` (``decision/_utf8scan.pyx`` and its
siblings) is an optional Cython extension that ``setup.py`` builds where a C compiler is
found. Each has a pure-Python reference beside it, which the tests hold equal to it; the
room that owns it asks ``compiled("encoding_core.<room>.<name>")`` and falls back to that
reference on None. This module is a shared basic: it imports no room.

``SPEEDUPS`` (also ``encoding_core.SPEEDUPS`` and ``encoding-triage --version``) says which
is in use: ``"cython"`` when every shipped extension loads, ``"pure"`` when none does
(no compiler, a checkout before ``make``, or ``ENCODING_TRIAGE_PURE=1``), and
``"partial (missing: ...)"`` otherwise, naming each one that did not load.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType

# (and SPEEDUPS, read through the module's __getattr__)
__all__ = ["EXTENSIONS", "compiled", "forced_pure", "speedups"]


def forced_pure() -> bool:
    """True when ``ENCODING_TRIAGE_PURE`` asks for the pure-Python references."""
    return os.environ.get("ENCODING_TRIAGE_PURE", "") not in ("", "0")


def compiled(module: str) -> ModuleType | None:
    """The compiled extension named ``module`` (dotted), or None when it is not built or
    ``ENCODING_TRIAGE_PURE`` is set: the caller then uses its pure-Python reference."""
    if forced_pure():
        return None
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _shipped() -> tuple[str, ...]:
    """The dotted name of every extension whose ``.pyx`` source ships in the package."""
    root = Path(__file__).parent
    return tuple(sorted(f"{__package__}.{source.parent.name}.{source.stem}"
                        for source in root.glob("*/*.pyx")))


#: Every optional compiled extension of the package, by dotted name.
EXTENSIONS = _shipped()


def speedups() -> str:
    """``"cython"``, ``"pure"`` or ``"partial (missing: ...)"``: see the module."""
    if forced_pure() or not EXTENSIONS:   # (no .pyx shipped: nothing compiled can answer)
        return "pure"
    missing = [name for name in EXTENSIONS if compiled(name) is None]
    if not missing:
        return "cython"
    if len(missing) == len(EXTENSIONS):
        return "pure"
    return "partial (missing: " + ", ".join(name.rsplit(".", 1)[1] for name in missing) + ")"


def __getattr__(name: str) -> str:
    """``SPEEDUPS``: ``speedups()``, asked when first read (PEP 562), so that loading one
    extension does not load them all."""
    if name == "SPEEDUPS":
        found = globals()["SPEEDUPS"] = speedups()
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
