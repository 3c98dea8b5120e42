"""Tests for the command line as a shell user meets it: help, examples, pipes that close early."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from encoding_core.cli.main import build_parser, main
from tests.warcs import warc_file

ROOT = Path(__file__).resolve().parents[2]
# Every command and sub-action a user can ask --help of.
COMMANDS = [["inspect"], ["fetch"], ["report"], ["scan-csv"], ["scan-parquet"], ["overrides"],
            ["overrides", "list"], ["overrides", "check"], ["spark"], ["spark", "report"], []]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) or "top" for c in COMMANDS])
def test_every_help_shows_an_example(command, capsys):
    """`--help` of every command ends with examples that start with the program's name."""
    with pytest.raises(SystemExit) as done:
        build_parser("encoding-triage").parse_args([*command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    examples = out.split("examples:\n", 1)[1].splitlines()
    assert examples and all(line.strip().split()[0] in ("encoding-triage", "curl", "gzip")
                            for line in examples if line.strip())
    assert any(" ".join(["encoding-triage", *command]) in line for line in examples)


# Commands whose output a user pipes into `head`: (arguments, with {warc} for a crawl file).
PIPED = [["scan-csv", "samples/customers_mojibake.csv", "--json"],
         ["report", "{warc}", "--csv", "records"],
         ["inspect", "samples/header_lies_utf8.bin", "--json"]]


@pytest.mark.parametrize("command", PIPED, ids=[c[0] for c in PIPED])
def test_a_closed_pipe_ends_quietly(command, tmp_path):
    """`... | head` that has gone: no BrokenPipeError traceback, status 1 (EPIPE)."""
    pages = [(f"http://h{i % 7}.example/{i}", "text/html; charset=utf-8", b"<p>caf\xc3\xa9</p>")
             for i in range(50)]
    warc = tmp_path / "crawl.warc.gz"
    warc.write_bytes(warc_file(pages))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # The reader is gone before the command writes a byte, as when `head` has exited:
    # every write fails with EPIPE, however large the pipe's buffer.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "encoding_core",
                               *(arg.format(warc=warc) for arg in command)],
                              cwd=ROOT, env=env, stdout=write_end, stderr=subprocess.PIPE,
                              timeout=120, check=False)
    finally:
        os.close(write_end)
    err = done.stderr.decode()
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert done.returncode == 1


def test_overrides_list_without_a_file_says_none_yet(tmp_path, capsys):
    """No overrides file yet: `overrides list` says there are none yet and exits 0."""
    missing = tmp_path / "overrides.yaml"
    assert main(["overrides", "list", "--file", str(missing)]) == 0
    out = capsys.readouterr().out
    assert "no overrides yet" in out and str(missing) in out
    assert main(["overrides", "list", "--file", str(missing), "--json"]) == 0
    assert capsys.readouterr().out.strip() == "[]"
    assert not missing.exists()


def test_overrides_counts_read_as_english(tmp_path, capsys):
    """One entry is "1 entry", not "1 entries"."""
    from tests.overridefiles import approved_override

    path = tmp_path / "overrides.yaml"
    approved_override(path, "one.example")
    assert main(["overrides", "list", "--file", str(path)]) == 0
    assert "1 entry," in capsys.readouterr().out


def _without(modules: tuple[str, ...], argv: list[str], tmp_path: Path
             ) -> subprocess.CompletedProcess[str]:
    """The CLI run in a fresh interpreter where ``modules`` cannot be imported (as when their
    extra is not installed)."""
    code = ("import sys\n"
            + "".join(f"sys.modules[{m!r}] = None\n" for m in modules)
            + "from encoding_core.cli.main import main\n"
            + f"sys.exit(main({argv!r}))\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(("blocked", "argv", "extra"), [
    (("pandas", "pyarrow"), ["scan-csv", "export.csv", "--json"], "fields"),
    (("fastwarc",), ["report", "crawl.warc.gz"], "warc"),
], ids=["scan-csv-without-fields", "report-without-warc"])
def test_a_command_whose_extra_is_missing_names_it(blocked, argv, extra, tmp_path):
    """Without its extra a command still answers: status 2 and the pip line to install it;
    the other commands are unaffected."""
    done = _without(blocked, argv, tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"pip install 'encoding-triage[{extra}]'" in done.stderr
    assert done.stderr.startswith(f"{argv[0]}: ")
    page = tmp_path / "page.html"
    page.write_bytes(b"<meta charset=utf-8>caf\xc3\xa9")
    assert _without(blocked, ["inspect", str(page)], tmp_path).returncode == 0


def test_version_says_which_compiled_parts_run():
    """`--version` names the implementation in use: the compiled parts, or the pure ones
    when ENCODING_TRIAGE_PURE=1 asks for them."""
    from encoding_core.speedups import SPEEDUPS

    env = {k: v for k, v in os.environ.items() if k != "ENCODING_TRIAGE_PURE"}
    shown = subprocess.run([sys.executable, "-m", "encoding_core", "--version"], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=60, check=True)
    assert shown.stdout.rstrip().endswith(f"(speedups: {SPEEDUPS})")
    pure = subprocess.run([sys.executable, "-m", "encoding_core", "--version"], cwd=ROOT,
                          env={**env, "ENCODING_TRIAGE_PURE": "1"}, capture_output=True,
                          text=True, timeout=60, check=True)
    assert pure.stdout.rstrip().endswith("(speedups: pure)")
