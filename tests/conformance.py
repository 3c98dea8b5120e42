"""The conformance data and the repository's own case files, for the tests.

The standards' data (WHATWG ``encodings.json`` and ``indexes.json``, the html5lib-tests encoding
cases) is copied into the repository, in ``conformance/`` (its README says from where, at which
commit, under which licence), so a plain clone runs every test. Nothing here reads a path
outside the repository. When a file is missing the tests fail at once, saying where they looked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
CONFORMANCE = REPO_ROOT / "conformance"
CASES = REPO_ROOT / "tests" / "cases"


def conformance_path(*parts: str) -> Path:
    """A file under the repository's ``conformance/``; fails clearly when it is missing."""
    path = CONFORMANCE.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(
            f"conformance data missing: {path} (it is part of the repository: see "
            f"conformance/README.md)"
        )
    return path


@cache
def label_table() -> tuple[tuple[str, str], ...]:
    """Every (label, canonical name in lower case) of the Encoding Standard, in table order."""
    groups = json.loads(conformance_path("whatwg-encoding", "encodings.json").read_text("utf-8"))
    return tuple(
        (label, encoding["name"].lower())
        for group in groups
        for encoding in group["encodings"]
        for label in encoding["labels"]
    )


@cache
def encoding_groups() -> dict[str, tuple[str, ...]]:
    """The table's headings (e.g. "Legacy single-byte encodings") to their names, lower case."""
    groups = json.loads(conformance_path("whatwg-encoding", "encodings.json").read_text("utf-8"))
    return {
        group["heading"]: tuple(encoding["name"].lower() for encoding in group["encodings"])
        for group in groups
    }


@dataclass(frozen=True, slots=True)
class DatCase:
    """One html5lib-tests encoding case: the document's bytes and the encoding it settles on."""

    file: str
    line: int
    data: bytes
    encoding: str

    @property
    def id(self) -> str:
        """``tests1.dat:17``: the file and the line of its ``#data``."""
        return f"{self.file}:{self.line}"


def _parse_dat(name: str, raw: bytes) -> list[DatCase]:
    """Parse the html5lib ``.dat`` format: ``#data`` lines, then ``#encoding`` and one name.

    The document is its lines joined with LF, without the final newline (as html5lib reads it).
    """
    lines = raw.split(b"\n")
    cases: list[DatCase] = []
    i = 0
    while i < len(lines):
        if lines[i] != b"#data":
            i += 1
            continue
        start = i + 1
        end = lines.index(b"#encoding", start)
        data = b"\n".join(lines[start:end])
        encoding = lines[end + 1].decode("ascii").strip()
        cases.append(DatCase(name, i + 1, data, encoding))
        i = end + 2
    return cases


@cache
def html5lib_encoding_cases() -> tuple[DatCase, ...]:
    """Every case of ``html5lib-tests-encoding/*.dat``, in file order."""
    folder = conformance_path("html5lib-tests-encoding")
    files = sorted(folder.glob("*.dat"))
    if not files:
        raise FileNotFoundError(f"no .dat files in {folder}")
    return tuple(case for path in files for case in _parse_dat(path.name, path.read_bytes()))


def load_cases(name: str) -> list[dict[str, Any]]:
    """The cases of ``tests/cases/<name>`` (format: ``tests/cases/README.md``)."""
    cases: list[dict[str, Any]] = json.loads((CASES / name).read_text("utf-8"))
    labels = [case["label"] for case in cases]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise ValueError(f"{name}: duplicate labels {duplicates}")
    for case in cases:
        if case.get("expect", "pass") not in ("pass", "fail"):
            raise ValueError(f"{name}: {case['label']}: expect must be pass or fail")
        if case.get("expect") == "fail" and not case.get("reason"):
            raise ValueError(f"{name}: {case['label']}: a known failure needs a reason")
    return cases


def case_body(case: dict[str, Any]) -> bytes:
    """A case's bytes: ``body_hex`` (hex, spaces allowed) or ``body`` (text, as UTF-8)."""
    if "body_hex" in case:
        return bytes.fromhex(case["body_hex"])
    return str(case["body"]).encode("utf-8")


def case_params(cases: list[dict[str, Any]]) -> list[Any]:
    """``pytest.param`` per case, id = label; ``expect: fail`` runs as a strict xfail."""
    return [
        pytest.param(
            case,
            id=case["label"],
            marks=[pytest.mark.xfail(strict=True, reason=case["reason"])]
            if case.get("expect") == "fail"
            else [],
        )
        for case in cases
    ]
