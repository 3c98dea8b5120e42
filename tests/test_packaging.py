"""The package as a user installs it: a wheel, a fresh virtualenv, the ``encoding-triage`` command.

The wheel is built from this checkout (setuptools and Cython, no build isolation: the
backend is a pinned test dependency) and installed into a new virtualenv with its
dependencies and without the ``app`` extra; the command then runs from a folder outside
the repository, so nothing can be imported from the checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conformance import REPO_ROOT

PAGE = "<html><head><title>Caf\u00e9</title></head><body>\u201cna\u00efve\u201d</body></html>"


def _run(*args: str | Path, cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from this checkout."""
    out = tmp_path_factory.mktemp("dist")
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", out, REPO_ROOT, cwd=out)
    (built,) = out.glob("encoding_triage-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtualenv with the wheel and its dependencies (the pinned versions), no extras."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    _run(python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
         "-c", REPO_ROOT / "requirements.txt", wheel, cwd=env_dir)
    return env_dir


def test_wheel_holds_the_core_and_its_tables_only(wheel):
    """The wheel has encoding_core with its generated tables; no tests, bench, samples or app."""
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"encoding_core", wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1]
                    + ".dist-info"}
    for table in ("labels.py", "single_byte.py", "cjk.py"):
        assert f"encoding_core/whatwg/_tables/{table}" in names
    assert "encoding_core/py.typed" in names
    assert not [n for n in names if n.startswith(("tests/", "bench/", "samples/", "ui/"))]
    metadata = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "encoding-triage = encoding_core.cli.main:console_main" in (
        zipfile.ZipFile(wheel).read(metadata).decode())


def test_installed_command_inspects_a_page(installed, tmp_path):
    """`encoding-triage inspect` from the installed wheel decides a page outside the repo."""
    page = tmp_path / "page.html"
    page.write_bytes(PAGE.encode("utf-8"))
    done = _run(installed / "bin" / "encoding-triage", "inspect", page, "--content-type",
                "text/html; charset=iso-8859-1", "--json", cwd=tmp_path)
    result = json.loads(done.stdout)
    assert result["encoding"] == "windows-1252"
    assert result["source"] == "http-header"
    assert "utf8-under-legacy" in {c["kind"] for c in result["conflicts"]}
    usage = _run(installed / "bin" / "encoding-triage", "--help", cwd=tmp_path).stdout
    assert usage.startswith("usage: encoding-triage")


def test_installed_command_names_a_missing_extra(installed, tmp_path):
    """Without the ``fields`` extra (no pandas in the fresh virtualenv), ``scan-csv`` says
    which extra to install instead of failing on an import."""
    done = subprocess.run([str(installed / "bin" / "encoding-triage"), "scan-csv", "x.csv"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 2
    assert "pip install 'encoding-triage[fields]'" in done.stderr


def test_installed_library_decodes_without_app_dependencies(installed, tmp_path):
    """`from encoding_core import decode` works from the wheel; no Streamlit is installed,
    and neither decoding nor importing loads pandas or pyarrow."""
    probe = (
        "import importlib.util, json, sys\n"
        "import encoding_core\n"
        "from encoding_core import decode\n"
        "d = decode('caf\\u00e9'.encode(), 'text/html; charset=utf-8')\n"
        "print(json.dumps({'file': encoding_core.__file__, 'text': d.text,\n"
        "  'app': [m for m in ('streamlit', 'altair') if importlib.util.find_spec(m)],\n"
        "  'heavy': sorted({m.split('.')[0] for m in sys.modules} & {'pandas', 'pyarrow'})}))\n"
    )
    done = _run(installed / "bin" / "python", "-c", probe, cwd=tmp_path)
    found = json.loads(done.stdout)
    assert found["text"] == "caf\u00e9"
    assert Path(found["file"]).is_relative_to(installed)
    assert found["app"] == []
    assert found["heavy"] == []
