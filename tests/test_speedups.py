"""encoding_core.speedups: every shipped extension is found, and the answer says which load."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from encoding_core import speedups

PACKAGE = Path(speedups.__file__).parent


#: Every compiled part this checkout holds (a new one is added here with its tests).
COMPILED = {"decision._bytetest_c", "decision._front_c", "decision._plausibility_c",
            "decision._records_c", "decision._utf8scan", "whatwg._cjk_c", "whatwg._prescan_c",
            "whatwg._single_byte_c"}


def test_every_pyx_in_the_package_is_an_extension():
    """``EXTENSIONS`` is every ``<room>/*.pyx`` of the package, by dotted name."""
    assert {name.removeprefix("encoding_core.") for name in speedups.EXTENSIONS} == COMPILED
    assert {f"{p.parent.name}.{p.stem}" for p in PACKAGE.glob("*/*.pyx")} == COMPILED


def _speedups_with(**env: str) -> str:
    shown = subprocess.run(
        [sys.executable, "-c", "import encoding_core; print(encoding_core.SPEEDUPS)"],
        env={**os.environ, **env}, capture_output=True, text=True, check=True)
    return shown.stdout.strip()


def test_forced_pure_says_pure():
    assert _speedups_with(ENCODING_TRIAGE_PURE="1") == "pure"


def test_the_answer_names_what_loads():
    """``cython`` when all load, ``pure`` when none, else ``partial`` naming the missing."""
    loaded = [name for name in speedups.EXTENSIONS if speedups.compiled(name) is not None]
    answer = _speedups_with(ENCODING_TRIAGE_PURE="0")
    if len(loaded) == len(speedups.EXTENSIONS):
        assert answer == "cython"
    elif not loaded:
        assert answer == "pure"
    else:
        assert answer.startswith("partial (missing: ")


@pytest.mark.parametrize(("missing", "expected"), [
    ((), "cython"),
    (("encoding_core.decision._records_c",), "partial (missing: _records_c)"),
    (None, "pure"),   # none loads
])
def test_each_answer(monkeypatch, missing, expected):
    """Each of the three answers, from which extensions load (``compiled`` stood in for)."""
    monkeypatch.delenv("ENCODING_TRIAGE_PURE", raising=False)
    names = ("encoding_core.decision._records_c", "encoding_core.decision._utf8scan")
    monkeypatch.setattr(speedups, "EXTENSIONS", names)
    monkeypatch.setattr(speedups, "compiled", lambda name: None if missing is None
                        or name in missing else object())
    assert speedups.speedups() == expected


def test_nothing_shipped_or_forced_is_pure(monkeypatch):
    monkeypatch.setattr(speedups, "EXTENSIONS", ())
    assert speedups.speedups() == "pure"
    monkeypatch.setattr(speedups, "EXTENSIONS", ("encoding_core.decision._utf8scan",))
    monkeypatch.setenv("ENCODING_TRIAGE_PURE", "1")
    assert speedups.speedups() == "pure"


def test_an_unknown_extension_is_none():
    assert speedups.compiled("encoding_core.decision._no_such_extension") is None
