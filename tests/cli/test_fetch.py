"""Tests for ``python -m encoding_core fetch`` and ``report`` against a real local server."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from encoding_core.cli.main import main
from tests.httpserver import ScriptedServer, redirect, respond
from tests.overridefiles import approved_override
from tests.warcs import poison_warc, warc_file

ROOT = Path(__file__).resolve().parents[2]
BODY = "<p>café “quoted”</p>".encode()


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    routes = {"/": respond(BODY, headers=[("Content-Type", "text/html; charset=iso-8859-1"),
                                          ("X-Evil", "a\x1b[2Jb")]),
              "/moved": redirect("/"),
              "/to-js": redirect("javascript:alert(1)")}
    with ScriptedServer(routes=routes) as srv:
        yield srv


def _fetch(server: ScriptedServer, tmp_path: Path, *extra: str) -> list[str]:
    return ["fetch", server.url("/moved"), "--allow", "127.0.0.1/32",
            "--landing", str(tmp_path), "--timeout", "5", *extra]


def test_fetch_prints_hops_headers_and_decision(server: ScriptedServer, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The text output shows the redirect, the raw headers and the decision; it keeps the page."""
    assert main(_fetch(server, tmp_path)) == 0
    out = capsys.readouterr().out
    assert "302 Found" in out and "-> /" in out and "200 OK" in out
    assert "Content-Type: text/html; charset=iso-8859-1" in out
    assert "X-Evil: a\\x1b[2Jb" in out  # control characters escaped
    assert "encoding:  windows-1252" in out and "source:    http-header" in out
    assert "kept as: " in out
    assert len(list(tmp_path.glob("*.warc.gz"))) == 1


def test_fetch_json(server: ScriptedServer, tmp_path: Path,
                    capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints the capture and the decision; --no-keep keeps nothing."""
    assert main(_fetch(server, tmp_path, "--json", "--no-keep")) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["capture"]["status"] == 200 and data["capture"]["body_length"] == len(BODY)
    assert [e["status"] for e in data["capture"]["exchanges"]] == [302, 200]
    assert data["capture"]["capture_id"] is None
    assert data["decision"]["encoding"] == "windows-1252"
    assert list(tmp_path.iterdir()) == []


def test_fetch_errors_exit_1(server: ScriptedServer, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused fetch prints the reason on stderr and exits 1."""
    monkeypatch.delenv("ENCODING_TRIAGE_ALLOWED_NETWORKS", raising=False)
    assert main(["fetch", server.url("/"), "--landing", str(tmp_path)]) == 1
    assert "refusing to fetch 127.0.0.1" in capsys.readouterr().err


def test_fetch_bad_arguments_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed --allow network exits 2 with the reason."""
    assert main(["fetch", "http://example.com/", "--allow", "nonsense"]) == 2
    assert "not a network" in capsys.readouterr().err


def _warc(tmp_path: Path) -> Path:
    broken = "é".encode() * 50 + b"\xff" * 25  # mostly UTF-8, 25 malformed bytes
    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(warc_file([("http://a.example/", "text/html; charset=utf-8", BODY),
                                ("http://b.example/", "text/html; charset=utf-8", broken)]))
    return path


def test_report_table_json_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """report prints the per-host table, or JSON, or CSV."""
    path = _warc(tmp_path)
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "b.example" in out and "quarantine (a page with more than 20" in out
    assert out.splitlines()[0].split()[:9] == ["host", "pages", "quarantine", "replacements",
                                               "lossy", "conflicts", "review", "suggests",
                                               "sources"]
    assert out.strip().endswith("b.example")
    assert main(["report", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["quarantined_hosts"] == ["b.example"]
    assert main(["report", str(path), "--csv", "hosts"]) == 0
    assert capsys.readouterr().out.startswith("host,records,quarantine")


def test_report_bad_file_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that is not WARC exits 1 with a clear message."""
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    assert main(["report", str(path)]) == 1
    assert "not valid WARC" in capsys.readouterr().err


def test_module_entry_point(tmp_path: Path) -> None:
    """``python -m encoding_core report`` runs as a program."""
    result = subprocess.run([sys.executable, "-m", "encoding_core", "report", str(_warc(tmp_path))],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "a.example" in result.stdout


def test_fetch_applies_the_hostsapproved_override(server: ScriptedServer, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """With an approved override for the host, the decision uses it and says whose it is."""
    overrides = tmp_path / "overrides.yaml"
    approved_override(overrides, "127.0.0.1", "utf-8")
    assert main(_fetch(server, tmp_path / "landing", "--json", "--no-keep",
                       "--overrides", str(overrides))) == 0
    decision = json.loads(capsys.readouterr().out)["decision"]
    assert (decision["encoding"], decision["source"]) == ("utf-8", "override")
    used = next(e for e in decision["evidence"] if e["used"])
    assert "ov-0001" in used["reason"]


def test_report_applies_overrides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The host report decides each record with its host's active override."""
    warc = tmp_path / "crawl.warc"
    warc.write_bytes(warc_file([("http://shop.example/", "text/html; charset=iso-8859-1", BODY)],
                               compress=False))
    overrides = tmp_path / "overrides.yaml"
    approved_override(overrides, "shop.example", "utf-8")
    assert main(["report", str(warc), "--json", "--overrides", str(overrides)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hosts"][0]["sources"] == [["override", 1]]
    assert main(["report", str(warc), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hosts"][0]["sources"] == [["http-header", 1]]


def test_report_no_overrides_sets_the_apps_file_aside(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The app's overrides file applies by default; --no-overrides decides from the headers
    alone; --overrides with --no-overrides is refused."""
    import os

    warc = tmp_path / "crawl.warc"
    warc.write_bytes(warc_file([("http://shop.example/", "text/html; charset=iso-8859-1", BODY)],
                               compress=False))
    approved_override(Path(os.environ["ENCODING_TRIAGE_OVERRIDES"]), "shop.example", "utf-8")
    assert main(["report", str(warc), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hosts"][0]["sources"] == [["override", 1]]
    assert main(["report", str(warc), "--json", "--no-overrides"]) == 0
    assert json.loads(capsys.readouterr().out)["hosts"][0]["sources"] == [["http-header", 1]]
    with pytest.raises(SystemExit) as refused:
        main(["report", str(warc), "--no-overrides", "--overrides", str(tmp_path / "o.yaml")])
    assert refused.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_a_named_overrides_file_that_does_not_exist_is_an_error(
        server: ScriptedServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A typo in --overrides exits 2 naming the file, rather than deciding without overrides."""
    warc = tmp_path / "crawl.warc"
    warc.write_bytes(warc_file([("http://shop.example/", "text/html; charset=utf-8", BODY)],
                               compress=False))
    missing = tmp_path / "overides.yaml"
    assert main(["report", str(warc), "--overrides", str(missing)]) == 2
    assert f"{missing}: no such overrides file" in capsys.readouterr().err
    landing = tmp_path / "landing"
    assert main(_fetch(server, landing, "--overrides", str(missing))) == 2
    assert f"{missing}: no such overrides file" in capsys.readouterr().err
    assert not landing.exists() or not any(landing.rglob("*.*")), "fetched before the check"


@pytest.mark.parametrize("where", ["named", "default"])
def test_an_overrides_path_that_is_no_file_is_an_error_not_skipped(
        where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder where the overrides file should be, named or the app's, exits 2 saying so;
    --no-overrides sets it aside."""
    warc = tmp_path / "crawl.warc"
    warc.write_bytes(warc_file([("http://shop.example/", "text/html; charset=utf-8", BODY)],
                               compress=False))
    folder = tmp_path / "overrides.yaml"
    folder.mkdir()
    argv = ["report", str(warc)]
    if where == "named":
        argv += ["--overrides", str(folder)]
    else:
        monkeypatch.setenv("ENCODING_TRIAGE_OVERRIDES", str(folder))
    assert main(argv) == 2
    assert f"{folder}: cannot read the file" in capsys.readouterr().err
    if where == "default":
        assert main([*argv, "--no-overrides"]) == 0


def test_fetch_no_overrides_decides_from_the_headers(server: ScriptedServer, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The app's approved override for the host is applied by default, not with --no-overrides;
    a broken app's file is set aside with it too."""
    import os

    apps = Path(os.environ["ENCODING_TRIAGE_OVERRIDES"])
    approved_override(apps, "127.0.0.1", "utf-8")
    assert main(_fetch(server, tmp_path / "landing", "--json", "--no-keep")) == 0
    assert json.loads(capsys.readouterr().out)["decision"]["source"] == "override"
    assert main(_fetch(server, tmp_path / "landing", "--json", "--no-keep",
                       "--no-overrides")) == 0
    assert json.loads(capsys.readouterr().out)["decision"]["source"] != "override"
    apps.write_text("entries:\n  - [broken\n", encoding="utf-8")
    assert main(_fetch(server, tmp_path / "landing", "--no-keep")) == 2
    assert "not valid YAML" in capsys.readouterr().err
    assert main(_fetch(server, tmp_path / "landing", "--no-keep", "--no-overrides")) == 0


def test_unverified_approvals_are_named_where_overrides_apply(
        server: ScriptedServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """fetch's trace and report's summary line say the approval was by an unverified name."""
    overrides = tmp_path / "overrides.yaml"
    approved_override(overrides, "127.0.0.1", "utf-8")
    assert main(_fetch(server, tmp_path / "landing", "--no-keep",
                       "--overrides", str(overrides))) == 0
    assert "applied: approved by bob@example.com (unverified)" in capsys.readouterr().out
    warc = tmp_path / "crawl.warc"
    warc.write_bytes(warc_file([("http://127.0.0.1/", "text/html; charset=iso-8859-1", BODY)],
                               compress=False))
    assert main(["report", str(warc), "--json", "--overrides", str(overrides)]) == 0
    assert capsys.readouterr().err == (
        f"overrides: 1 approved override applied from {overrides}; 1 of them approved by an "
        "unverified name: ov-0001 for 127.0.0.1 by bob@example.com (unverified)\n")


def test_report_json_keeps_every_good_record_around_a_poison_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``report --json`` over 50 good records and one with 1,000 content codings (it printed
    the 25 before it and exited 0): all 50 pages, the bad one an error row named in problem."""
    data, bad_url = poison_warc(50)
    path = tmp_path / "poison.warc.gz"
    path.write_bytes(data)
    assert main(["report", str(path), "--json", "--no-overrides"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert sum(1 for r in report["records"] if r["error"] is None) == 50
    assert [r["url"] for r in report["records"] if r["error"]] == [bad_url]
    assert "record 26" in report["problem"] and bad_url in report["problem"]


def test_fetch_a_bad_redirect_is_a_message_not_a_traceback(server: ScriptedServer, tmp_path: Path
                                                          ) -> None:
    """A redirect to ``javascript:alert(1)`` prints one error line naming the hop, exit 1."""
    result = subprocess.run(
        [sys.executable, "-m", "encoding_core", "fetch", server.url("/to-js"), "--allow",
         "127.0.0.1/32", "--landing", str(tmp_path), "--timeout", "5", "--no-overrides"],
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: redirect 1 of the chain: ")
    assert "with Location 'javascript:alert(1)'" in result.stderr


def test_report_csv_records_escapes_terminal_sequences(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A WARC-Target-URI holding ESC sequences (clear the screen, set the title) is printed
    escaped by ``report --csv records`` (printed raw before)."""
    path = tmp_path / "evil.warc.gz"
    path.write_bytes(warc_file([("http://a.example/\x1b[2J\x1b]0;owned\x07", "text/html",
                                 BODY)]))
    assert main(["report", str(path), "--csv", "records", "--no-overrides"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "http://a.example/\\x1b[2J\\x1b]0;owned\\x07" in out


def test_report_on_an_empty_warc_file_says_so(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """An empty file (an empty report and exit 0 before) exits 1 saying it holds nothing."""
    path = tmp_path / "empty.warc.gz"
    path.write_bytes(b"")
    assert main(["report", str(path), "--no-overrides"]) == 1
    assert "no response records: the file is empty" in capsys.readouterr().err
