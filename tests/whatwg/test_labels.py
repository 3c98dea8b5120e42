"""labels: "get an encoding" against the Encoding Standard's table; the table's freshness."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from encoding_core.whatwg.labels import ENCODING_NAMES, get_encoding, get_encoding_no_replacement
from tests.conformance import REPO_ROOT, conformance_path, label_table

TABLE = label_table()
NAMES = tuple(dict.fromkeys(name for _, name in TABLE))
REPLACEMENT_LABELS = [label for label, name in TABLE if name == "replacement"]


@pytest.mark.parametrize(("label", "name"), TABLE, ids=[label for label, _ in TABLE])
def test_every_label_gives_its_encoding(label, name):
    """Each of the 228 labels gives its encoding's name, lower-cased."""
    assert get_encoding(label) == name


@pytest.mark.parametrize(("label", "name"), TABLE, ids=[label for label, _ in TABLE])
def test_label_case_and_whitespace(label, name):
    """Upper case, mixed case and ASCII whitespace around a label do not change the answer."""
    assert get_encoding(label.upper()) == name
    assert get_encoding(label.title()) == name
    assert get_encoding(f"\t\n\x0c\r {label.upper()} \r\x0c\n\t") == name


def test_table_size():
    """The table has 40 encodings and 228 labels, in the standard's order."""
    assert len(TABLE) == 228
    assert len({label for label, _ in TABLE}) == 228
    assert ENCODING_NAMES == NAMES
    assert len(ENCODING_NAMES) == 40


@pytest.mark.parametrize("name", NAMES, ids=NAMES)
def test_every_name_is_its_own_label(name):
    """A canonical name (lower case) is itself a label of its encoding."""
    assert get_encoding(name) == name


WHITESPACE = [
    ("tab", "\tutf-8", "utf-8"),
    ("lf", "utf-8\n", "utf-8"),
    ("ff", "\x0cutf-8\x0c", "utf-8"),
    ("cr", "\rutf-8\r", "utf-8"),
    ("space", "  utf-8  ", "utf-8"),
    ("crlf-both-ends", "\r\n koi8-r \r\n", "koi8-r"),
    # not ASCII whitespace in the Encoding Standard's sense, though str.strip() removes them
    ("vertical-tab", "\x0butf-8", None),
    ("nbsp", "\u00a0utf-8", None),
    ("nbsp-trailing", "utf-8\u00a0", None),
    ("next-line", "\x85utf-8", None),
    ("file-separator", "\x1cutf-8", None),
    ("em-space", "\u2003utf-8", None),
    ("ideographic-space", "utf-8\u3000", None),
    ("zero-width-no-break", "\ufeffutf-8", None),
    # whitespace inside a label is part of it
    ("inner-space", "utf -8", None),
    ("inner-tab", "utf-\t8", None),
    ("nul", "utf-8\x00", None),
]


@pytest.mark.parametrize(("label", "expected"), [c[1:] for c in WHITESPACE],
                         ids=[c[0] for c in WHITESPACE])
def test_whitespace_stripping(label, expected):
    """Only TAB, LF, FF, CR and SPACE are stripped, and only at the ends."""
    assert get_encoding(label) == expected


CASE = [
    ("upper", "UTF-8", "utf-8"),
    ("mixed", "Shift_JIS", "shift_jis"),
    ("upper-latin1", "LATIN1", "windows-1252"),
    # Unicode case mappings that str.lower() / str.casefold() would apply
    ("kelvin-sign", "\u212aoi8-r", None),
    ("long-s", "\u017fhift_jis", None),
    ("dotted-capital-i", "\u0130so-8859-2", None),
    ("fullwidth", "\uff55\uff54\uff46-8", None),
    ("turkish-dotless-i", "\u0131so-8859-2", None),
]


@pytest.mark.parametrize(("label", "expected"), [c[1:] for c in CASE], ids=[c[0] for c in CASE])
def test_ascii_case_insensitivity_only(label, expected):
    """Labels match ASCII case-insensitively, and by nothing looser."""
    assert get_encoding(label) == expected


UNKNOWN = ["", " ", "\t\n", "utf-7", "utf7", "utf-32", "utf-32le", "latin-1", "utf8mb4", "x-foo",
           "cp65001", "iso-8859-1 ;", '"utf-8"', "'utf-8'", "utf-8;", "charset=utf-8", "gb-2312",
           "big5hkscs", "none", "auto"]


@pytest.mark.parametrize("label", UNKNOWN, ids=[repr(u) for u in UNKNOWN])
def test_unknown_labels(label):
    """A label outside the table is the standard's failure: None."""
    assert get_encoding(label) is None
    assert get_encoding_no_replacement(label) is None


@pytest.mark.parametrize("label", REPLACEMENT_LABELS, ids=REPLACEMENT_LABELS)
def test_replacement_labels(label):
    """Replacement labels give "replacement"; the no-replacement lookup gives None."""
    assert get_encoding(label) == "replacement"
    assert get_encoding(f" {label.upper()}\n") == "replacement"
    assert get_encoding_no_replacement(label) is None


def test_no_replacement_agrees_elsewhere():
    """For every other label the no-replacement lookup is "get an encoding"."""
    others = [(label, name) for label, name in TABLE if name != "replacement"]
    assert len(others) == 228 - len(REPLACEMENT_LABELS)
    assert all(get_encoding_no_replacement(label) == name for label, name in others)
    assert sorted(REPLACEMENT_LABELS) == ["csiso2022kr", "hz-gb-2312", "iso-2022-cn",
                                          "iso-2022-cn-ext", "iso-2022-kr", "replacement"]


def test_generated_table_is_fresh(tmp_path):
    """_tables/labels.py is byte for byte what scripts/gen_tables.py generates now."""
    # The generator writes relative to its own location and reads conformance/ there: run a
    # copy in a scratch tree whose conformance/ points at the repository's copy.
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    (repo / "encoding_core" / "whatwg").mkdir(parents=True)
    script = REPO_ROOT / "scripts" / "gen_tables.py"
    (repo / "scripts" / "gen_tables.py").write_bytes(script.read_bytes())
    conformance = conformance_path()
    (repo / "conformance").symlink_to(conformance, target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, str(repo / "scripts" / "gen_tables.py")], cwd=repo,
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    generated = repo / "encoding_core" / "whatwg" / "_tables" / "labels.py"
    committed = REPO_ROOT / "encoding_core" / "whatwg" / "_tables" / "labels.py"
    assert generated.read_bytes() == committed.read_bytes()
