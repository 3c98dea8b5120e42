"""Tests for ``python -m encoding_core inspect`` (encoding_core.cli.inspect)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from encoding_core.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
LYING = "<p>José Müller – “quoted” café</p>".encode()
LATIN1 = "text/html; charset=iso-8859-1"


@pytest.fixture
def page(tmp_path: Path) -> Path:
    """A UTF-8 page saved to disk."""
    path = tmp_path / "page.html"
    path.write_bytes(LYING)
    return path


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["inspect", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_text_output(page: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The text report has the encoding, source, trace and conflicts lines."""
    status, out, err = _run([str(page), "--content-type", LATIN1], capsys)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == ["encoding:", "windows-1252"]
    assert lines[1].split() == ["source:", "http-header"]
    assert "replacements: 0" in lines and "browser would use: windows-1252" in lines
    assert "needs review: yes" in lines
    trace = lines[lines.index("trace:") + 1 : lines.index("conflicts:") - 1]
    assert [line.split()[:2] for line in trace][:3] == [
        ["bom", "-"], ["*", "http-header"], ["meta-tag", "-"]]
    assert any(line.startswith("  [error] utf8-under-legacy: ") for line in lines)


def test_text_output_without_conflicts(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A clean page has a trace and no conflicts section."""
    path = tmp_path / "clean.html"
    path.write_bytes("<p>café</p>".encode())
    status, out, _ = _run([str(path), "--content-type", "text/html; charset=utf-8"], capsys)
    assert status == 0
    assert "trace:" in out and "conflicts:" not in out
    assert "needs review: no" in out


@pytest.mark.parametrize(("extra", "has_text"), [([], False), (["--text"], True)],
                         ids=["without-text", "with-text"])
def test_json_output(page: Path, capsys: pytest.CaptureFixture[str], extra: list[str],
                     has_text: bool) -> None:
    """--json prints the decision as JSON; the decoded text only with --text."""
    status, out, _ = _run([str(page), "--content-type", LATIN1, "--json", *extra], capsys)
    assert status == 0
    data = json.loads(out)
    assert (data["encoding"], data["source"], data["lossy"]) == (
        "windows-1252", "http-header", False)
    assert ("text" in data) is has_text
    if has_text:
        assert data["text"].startswith("<p>JosÃ© MÃ¼ller â€“ â€œquoted")
    assert "utf8-under-legacy" in [c["kind"] for c in data["conflicts"]]
    assert [e["source"] for e in data["evidence"]][:3] == ["bom", "http-header", "meta-tag"]


@pytest.mark.parametrize(("body", "args", "decision"), [
    (LYING, ["--content-type", LATIN1], ("windows-1252", "http-header")),
    (LYING, ["--content-type", LATIN1, "--override", "utf-8"], ("utf-8", "override")),
    (LYING, ["--override", "windows-1252"], ("windows-1252", "override")),
    (b"<p>hello</p>", [], ("utf-8", "fallback")),
    (b"<p>hello</p>", ["--site-default", "koi8-r"], ("koi8-r", "site-default")),
    (b"<p>hello</p>", ["--site-default", "windows-1251", "--override", "gbk"],
     ("gbk", "override")),
], ids=["header", "override-beats-header", "override-alone", "ascii-fallback",
        "site-default", "override-beats-site-default"])
def test_override_and_site_default_change_the_decision(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: bytes, args: list[str],
        decision: tuple[str, str]) -> None:
    """--override and --site-default reach the decision, in the walk's order."""
    path = tmp_path / "body.bin"
    path.write_bytes(body)
    status, out, _ = _run([str(path), "--json", *args], capsys)
    data = json.loads(out)
    assert status == 0 and (data["encoding"], data["source"]) == decision


def test_unknown_override_is_reported_not_fatal(page: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """An override that names no encoding is ignored and shown as a conflict."""
    status, out, _ = _run([str(page), "--override", "bogus"], capsys)
    assert status == 0
    assert "unknown-label: The site override names 'bogus'" in out


@pytest.mark.parametrize("name", ["missing.html", "a-directory"], ids=["missing", "directory"])
def test_unreadable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 name: str) -> None:
    """A file that cannot be read is status 2 and one message on stderr, nothing on stdout."""
    (tmp_path / "a-directory").mkdir()
    path = tmp_path / name
    status, out, err = _run([str(path)], capsys)
    assert (status, out) == (2, "")
    assert err.startswith(f"error: cannot read {path}: ")
    assert err.count("\n") == 1


def test_terminal_escapes_in_labels_are_escaped(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A page's label with terminal escapes does not reach the terminal raw."""
    path = tmp_path / "esc.html"
    path.write_bytes(b'<meta charset="\x1b]0;x\x07\x1b[2J"><p>x</p>')
    status, out, _ = _run([str(path)], capsys)
    assert status == 0
    assert "\x1b" not in out and "\x07" not in out


def test_module_entry_point_reads_stdin() -> None:
    """python -m encoding_core inspect - reads the body from standard input."""
    done = subprocess.run(
        [sys.executable, "-m", "encoding_core", "inspect", "-", "--json", "--text",
         "--content-type", "text/html; charset=utf-8"],
        input="<p>café</p>".encode(), capture_output=True, cwd=ROOT, check=True, timeout=60)
    data = json.loads(done.stdout)
    assert (data["encoding"], data["source"], data["text"]) == (
        "utf-8", "http-header", "<p>café</p>")
    assert data["conflicts"] == []
