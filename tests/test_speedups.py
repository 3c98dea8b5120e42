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


#: Each compiled function that reads a ``bytes`` (or ``str``) argument's memory, with
#: arguments where that one is None: refused with a TypeError, never read as memory.
NONE_ARGUMENTS = [
    ("encoding_core.decision._bytetest_c", "sibling_words", (None, bytes(256), 0, 1)),
    ("encoding_core.decision._bytetest_c", "sibling_words", (b"x", None, 0, 1)),
    ("encoding_core.decision._bytetest_c", "count_flagged", (None, 1, bytes(256))),
    ("encoding_core.decision._bytetest_c", "count_flagged", (b"x", 1, None)),
    ("encoding_core.decision._bytetest_c", "classes_may_be_implausible", (None, bytes(256))),
    ("encoding_core.decision._bytetest_c", "sample_facts", (None, 10, None, None, False, 0, b"")),
    ("encoding_core.decision._utf8scan", "first_non_ascii", (None,)),
    ("encoding_core.decision._utf8scan", "valid_multibyte", (None,)),
    ("encoding_core.decision._utf8scan", "scan", (None, 10)),
    ("encoding_core.whatwg._prescan_c", "find_declaration", (None,)),
    ("encoding_core.whatwg._prescan_c", "attributes", (None, 0)),
    ("encoding_core.decision._plausibility_c", "implausibility", (None, 5)),
]


@pytest.mark.parametrize(("module", "name", "args"), NONE_ARGUMENTS,
                         ids=[f"{m.rsplit('.', 1)[1]}.{n}" for m, n, _a in NONE_ARGUMENTS])
def test_compiled_functions_refuse_none(module, name, args):
    """A compiled function given None where it reads bytes raises TypeError (Cython lets a
    ``bytes`` argument be None unless it says ``not None``, then reads past nothing)."""
    found = speedups.compiled(module)
    if found is None:
        pytest.skip("the compiled extension is not in use")
    with pytest.raises(TypeError):
        getattr(found, name)(*args)
