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


def _modules() -> list[str]:
    """Every module of encoding_core but ``__main__`` (importing it runs the CLI)."""
    return sorted(
        info.name
        for info in pkgutil.walk_packages(encoding_core.__path__, "encoding_core.")
        if not info.name.endswith("__main__")
    )


def test_all_is_the_one_list_of_lazy_names():
    """__all__ (sorted by ruff's RUF022) names each public name once, and exactly the names
    imported on first use: a name added to one list and not the other fails here."""
    names = list(encoding_core.__all__)
    assert len(names) == len(set(names))
    assert set(names) == set(encoding_core._LAZY)


@pytest.mark.parametrize("name", encoding_core.__all__)
def test_each_name_comes_from_its_module(name):
    """Each public name resolves, to the object its module defines (and stays bound)."""
    module = importlib.import_module(encoding_core._LAZY[name])
    assert getattr(encoding_core, name) is getattr(module, name)
    assert name in vars(encoding_core)


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


#: What a crawler that only decodes must not pay for (``import encoding_core`` took 0.43 s
#: when it loaded them).
#: (The detectors an undeclared page is voted on, resiliparse among them, are what deciding
#: needs: they load on the first undeclared page.)
HEAVY = ("numpy", "httpx", "httpcore", "ruamel", "pandas", "pyarrow", "ftfy", "fastwarc",
         "prometheus_client", "filelock", "brotli")


def test_import_loads_no_room():
    """``import encoding_core`` loads the package's ``__init__`` and nothing heavy."""
    assert _loads("import encoding_core", ("encoding_core", *HEAVY)) == ["encoding_core"]


def test_decode_loads_only_what_deciding_needs():
    """``decode`` (declared, undeclared, CJK, a malformed ISO-2022-JP page) loads the standards,
    the decision and the shared basics: no numpy, httpx, ruamel.yaml, ftfy, pandas."""
    code = ("from encoding_core import decode\n"
            "decode(b'caf\\xc3\\xa9', 'text/html; charset=iso-8859-1')\n"
            "decode('Привет, как дела? Всё хорошо. '.encode('koi8-r') * 20)\n"
            "decode('日本語のテキストです。'.encode('shift_jis') * 20)\n"
            "decode(b'\\x1b$B' + '日本語'.encode('iso2022_jp')[3:-3] * 40 + b'\\x1b',\n"
            "       'text/html; charset=iso-2022-jp')\n")
    loaded = _loads(code, ("encoding_core", *HEAVY))
    assert [m for m in loaded if m.split(".")[0] != "encoding_core"] == []
    rooms = {m.split(".")[1] for m in loaded if m.count(".")}
    assert rooms <= {"whatwg", "decision", "errors", "wording", "speedups"}, rooms


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
