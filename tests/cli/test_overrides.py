"""Tests for ``python -m encoding_core overrides list|check``."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from encoding_core.cli.main import main
from encoding_core.overrides.store import ENV_VAR, OverrideStore

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "overrides.yaml"
NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
REASON = "The header says iso-8859-1 but the body is UTF-8."


@pytest.fixture
def overrides(tmp_path) -> Path:
    """A file with an approved entry due in 10 days, a proposal due in 60, a rejected one."""
    store = OverrideStore(tmp_path / "overrides.yaml", clock=lambda: NOW)
    for host, days in (("a.example.com", 10), ("b.example.com", 60), ("c.example.com", 5)):
        store.propose(host=host, encoding="utf-8", reason=REASON, author="ada",
                      review_by=NOW.date() + timedelta(days=days))
    store.approve("ov-0001", reviewer="bob")
    store.reject("ov-0003", reviewer="bob", reason=REASON)
    return store.path


def test_list_prints_a_table(overrides, capsys):
    """list prints one row per entry with status and days left."""
    assert main(["overrides", "list", "--file", str(overrides), "--on", "2030-01-01"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{overrides}: 3 entries, as of 2030-01-01"
    assert out[1].split() == ["id", "status", "host", "encoding", "review_by", "note",
                              "created_by", "approved_by"]
    assert "ov-0001  approved  a.example.com" in out[2] and "due in 10 days" in out[2]
    assert "60 days left" in out[3]
    assert "ov-0003  rejected" in out[4]


def test_list_json(overrides, capsys):
    """list --json prints the same rows as data."""
    assert main(["overrides", "list", "--json", "--file", str(overrides),
                 "--on", "2030-01-25"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["state"]) for r in rows] == [
        ("ov-0001", "expired"), ("ov-0002", "ok"), ("ov-0003", "closed")]


@pytest.mark.parametrize(("argv", "status", "says"), [
    (["--on", "2030-01-01"], 0, "ok: 3 entries"),
    (["--on", "2030-01-11"], 0, "none expired as of 2030-01-11"),
    (["--on", "2030-01-12"], 1, "ov-0001 a.example.com (utf-8, approved) expired"),
    (["--on", "2030-01-01", "--due-within", "10"], 1, "ov-0001 a.example.com (utf-8, approved) "
     "due for review on 2030-01-11 (in 10 days)"),
    (["--on", "2030-01-01", "--due-within", "9"], 0, "none expired or due within 9 days"),
    (["--on", "2030-03-05"], 1, "ov-0002 b.example.com (utf-8, proposed) expired"),
], ids=["fine", "last-day", "expired", "due", "not-yet-due", "stale-proposal"])
def test_check_exit_status(overrides, capsys, argv, status, says):
    """check exits 1 for an expired or due entry (rejected ones never count), else 0."""
    assert main(["overrides", "check", "--file", str(overrides), *argv]) == status
    assert says in capsys.readouterr().out


def test_check_invalid_file_exits_2_and_leaves_it(tmp_path, capsys):
    """An invalid file exits 2 with file and line on stderr, and is not touched."""
    path = tmp_path / "overrides.yaml"
    original = b"version: 1\noverrides:\n  - id: ov-1\n    host: [a\n"
    path.write_bytes(original)
    assert main(["overrides", "check", "--file", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {path}:")
    assert path.read_bytes() == original


def test_check_missing_file_exits_2(tmp_path, capsys):
    """A file that is not there is an error, not an empty success."""
    assert main(["overrides", "check", "--file", str(tmp_path / "nope.yaml")]) == 2
    assert "no such overrides file" in capsys.readouterr().err


def test_default_file_comes_from_the_environment(overrides, capsys, monkeypatch):
    """Without --file the path comes from $ENCODING_TRIAGE_OVERRIDES."""
    monkeypatch.setenv(ENV_VAR, str(overrides))
    assert main(["overrides", "list", "--on", "2030-01-01"]) == 0
    assert capsys.readouterr().out.startswith(f"{overrides}: 3 entries")


def test_sample_file_is_valid_and_has_an_expired_entry():
    """The shipped sample lists cleanly; as of 2026-12-01 its ov-0002 is expired."""
    done = subprocess.run(
        [sys.executable, "-m", "encoding_core", "overrides", "check", "--file", str(SAMPLE),
         "--on", "2026-12-01"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1, done.stderr
    assert "ov-0002 *.news.example.org (windows-1252, approved) expired" in done.stdout


def test_list_marks_an_unverified_approval(tmp_path, capsys):
    """An approval by a typed name is listed as unverified; a signed-in one is not."""
    from encoding_core.overrides.identity import Identity, Verified

    store = OverrideStore(tmp_path / "overrides.yaml", clock=lambda: NOW)
    for host in ("a.example.com", "b.example.com"):
        store.propose(host=host, encoding="utf-8", reason=REASON, author="ada",
                      review_by=NOW.date() + timedelta(days=10))
    store.approve("ov-0001", reviewer="bob")
    store.approve("ov-0002", reviewer=Identity("carol", Verified.OIDC, "https://id.example", "c"))
    assert main(["overrides", "list", "--file", str(store.path), "--on", "2030-01-01"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2].endswith("ada         bob (unverified)")
    assert out[3].endswith("ada         carol")
    assert main(["overrides", "list", "--json", "--file", str(store.path)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["approved_via"], r["approver"]) for r in rows] == [
        ("unverified", "bob (unverified)"), ("oidc", "carol")]


def test_check_an_impossible_date_exits_2_invalid(tmp_path, capsys):
    """``review_by: 2027-02-30`` is an invalid file (exit 2, its line named), not a traceback and
    exit 1 ("due") as when YAML's own ValueError escaped."""
    path = tmp_path / "overrides.yaml"
    path.write_text("version: 1\noverrides:\n  - id: ov-0001\n    host: a.example\n"
                    "    encoding: utf-8\n    reason: The header says latin-1 but it is UTF-8.\n"
                    "    created: 2026-01-01\n    created_by: ada\n    review_by: 2027-02-30\n"
                    "    status: proposed\n")
    assert main(["overrides", "check", "--file", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {path}:9: not a date that exists")
