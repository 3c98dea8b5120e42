"""The package surface: one sorted, complete __all__, and no Streamlit behind an import."""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys

import pytest

import encoding_core
from tests.conformance import REPO_ROOT


def _isort_key(name: str) -> tuple[int, str]:
    """The order ruff's RUF022 keeps: CONSTANTS, then Classes, then functions, each A-Z."""
    if name.isupper():
        return (0, name)
    if name[:1].isupper():
        return (1, name)
    return (2, name)


def _modules() -> list[str]:
    """Every module of encoding_core but ``__main__`` (importing it runs the CLI)."""
    return sorted(
        info.name
        for info in pkgutil.walk_packages(encoding_core.__path__, "encoding_core.")
        if not info.name.endswith("__main__")
    )


def test_all_is_sorted_and_unique():
    """encoding_core.__all__ is sorted (constants, classes, functions) with no duplicates."""
    names = list(encoding_core.__all__)
    assert names == sorted(names, key=_isort_key)
    assert len(names) == len(set(names))


def test_all_names_exist():
    """Every name in encoding_core.__all__ is defined in the package."""
    missing = [name for name in encoding_core.__all__ if not hasattr(encoding_core, name)]
    assert missing == []


def test_public_names_are_exported():
    """Every public name the package binds, except submodules, is in __all__."""
    public = {name for name, value in vars(encoding_core).items()
              if not name.startswith("_") and type(value).__name__ != "module"
              and name != "annotations"}
    assert sorted(public - set(encoding_core.__all__)) == []


@pytest.mark.parametrize("module", [m for m in _modules() if "._" not in m])
def test_module_all_is_sorted_and_exists(module):
    """Each module that declares __all__ keeps it sorted, and defines every name in it."""
    mod = importlib.import_module(module)
    names = getattr(mod, "__all__", ())
    assert list(names) == sorted(names, key=_isort_key)
    assert [name for name in names if not hasattr(mod, name)] == []


def _loads(code: str, tops: tuple[str, ...] = ("streamlit", "altair")) -> list[str]:
    """Run ``code`` in a fresh interpreter; the modules of ``tops`` it left in sys.modules."""
    probe = (code + "\nimport json, sys\nprint(json.dumps(sorted(\n"
             f"    m for m in sys.modules if m.split('.')[0] in {tops!r})))\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return loaded


def test_import_does_not_load_streamlit():
    """A fresh `import encoding_core` loads no streamlit or altair module."""
    assert _loads("import encoding_core") == []


def test_no_module_loads_streamlit():
    """Importing every encoding_core module, in one fresh interpreter, loads no streamlit."""
    code = "import importlib\n" + "".join(f"importlib.import_module({m!r})\n" for m in _modules())
    assert _loads(code) == []


def test_decoding_does_not_load_pandas_or_pyarrow():
    """A crawler that only decodes pays only for decoding: no pandas, no pyarrow."""
    code = ("from encoding_core import decode, find_mojibake\n"
            "decode(b'caf\\xc3\\xa9', 'text/html; charset=iso-8859-1')\n"
            "find_mojibake('Jos\\u00c3\\u00a9')\n")
    assert _loads(code, ("pandas", "pyarrow")) == []


def test_field_scan_is_imported_on_first_use():
    """scan_csv, scan_frame and ScanReport load pandas when first used, then stay bound."""
    code = ("import encoding_core\n"
            "assert 'scan_csv' in dir(encoding_core)\n"
            "from encoding_core import scan_frame\n"
            "assert encoding_core.scan_frame is scan_frame\n")
    assert "pandas" in _loads(code, ("pandas",))


def test_unknown_attribute_is_an_attribute_error():
    """The lazy lookup still says plainly that a name does not exist."""
    with pytest.raises(AttributeError, match="no attribute 'scan_everything'"):
        _ = encoding_core.scan_everything  # type: ignore[attr-defined]
