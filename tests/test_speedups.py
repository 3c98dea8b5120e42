"""encoding_core.speedups: every shipped extension is found, and the answer says which load."""

from __future__ import annotations

import os
import subprocess
import sys

from encoding_core import speedups


def test_every_shipped_extension_is_known() -> None:
    assert "encoding_core.decision._utf8scan" in speedups.EXTENSIONS
    assert "encoding_core.decision._bytetest_c" in speedups.EXTENSIONS
    assert all(name.count(".") == 2 for name in speedups.EXTENSIONS)


def _speedups_with(**env: str) -> str:
    shown = subprocess.run(
        [sys.executable, "-c", "import encoding_core; print(encoding_core.SPEEDUPS)"],
        env={**os.environ, **env}, capture_output=True, text=True, check=True)
    return shown.stdout.strip()


def test_forced_pure_says_pure() -> None:
    assert _speedups_with(ENCODING_TRIAGE_PURE="1") == "pure"


def test_the_answer_names_what_loads() -> None:
    loaded = [name for name in speedups.EXTENSIONS if speedups.compiled(name) is not None]
    answer = _speedups_with(ENCODING_TRIAGE_PURE="0")
    if len(loaded) == len(speedups.EXTENSIONS):
        assert answer == "cython"
    elif not loaded:
        assert answer == "pure"
    else:
        assert answer.startswith("partial (missing: ")
        for name in set(speedups.EXTENSIONS) - set(loaded):
            assert name.rsplit(".", 1)[1] in answer


def test_an_unknown_extension_is_none() -> None:
    assert speedups.compiled("encoding_core.decision._no_such_extension") is None
