"""Tests for warc.reportpage: the page behind a host-report row, from files found here only."""

from __future__ import annotations

import pytest

from encoding_core.warc.hostmodels import RecordOutcome
from encoding_core.warc.landing import LandingZone
from encoding_core.warc.reportpage import (
    OpenWarc,
    ReportPage,
    find_warc_file,
    report_page,
    warc_files,
)
from tests.warcs import warc_file

URL = "http://shop.example/a"
WARC = warc_file([(URL, "text/html; charset=utf-8", "<p>café</p>".encode())])


def _row(warc: str, url: str = URL) -> RecordOutcome:
    return RecordOutcome(url, "shop.example", status=200, record_index=0, warc_file=warc)


@pytest.fixture
def folder(tmp_path):
    crawl = tmp_path / "crawl"
    crawl.mkdir()
    (crawl / "a.warc.gz").write_bytes(WARC)
    (crawl / "notes.txt").write_bytes(WARC)        # WARC bytes, but not a WARC file's name
    (crawl / "b.warc").mkdir()                     # a folder, not a file
    (tmp_path / "outside.warc.gz").write_bytes(WARC)
    return crawl


def test_only_the_folders_warc_files_are_offered(folder):
    """``*.warc*`` files of the folder itself: not other names, folders or parents."""
    assert [p.name for p in warc_files(folder)] == ["a.warc.gz"]
    assert warc_files(None) == [] and warc_files(folder / "none") == []


@pytest.mark.parametrize(("named", "found"), [
    ("a.warc.gz", "a.warc.gz"),
    ("/jobs/out/a.warc.gz", "a.warc.gz"),
    ("C:\\crawls\\a.warc.gz", "a.warc.gz"),
    ("notes.txt", None),
    ("../outside.warc.gz", None),
    ("b.warc", None),
    ("", None),
], ids=["name", "posix-path", "windows-path", "not-a-warc-name", "parent", "a-folder", "empty"])
def test_a_named_file_is_matched_by_base_name_among_warc_files(folder, named, found):
    """An untrusted report's path counts by its base name, and only a WARC file matches."""
    path = find_warc_file(named, folder)
    assert (path.name if path is not None else None) == found
    if path is not None:
        assert path.parent == folder


def test_a_report_file_row_opens_its_record_from_the_folder(folder, tmp_path):
    """A job's report row naming a.warc.gz opens record 0 of the folder's file."""
    zone = LandingZone(tmp_path / "zone")
    page = report_page(_row("/elsewhere/a.warc.gz"), zone, opened=None, built_here=False,
                       folder=folder, max_bytes=1 << 20)
    assert isinstance(page, ReportPage)
    assert page.capture.url == URL and page.label == f"a.warc.gz #0: {URL}"


def test_a_row_naming_a_non_warc_file_is_not_opened(folder, tmp_path):
    """notes.txt holds the record, but is not a WARC file's name: the row says it is not here."""
    zone = LandingZone(tmp_path / "zone")
    page = report_page(_row("notes.txt"), zone, opened=None, built_here=False, folder=folder,
                       max_bytes=1 << 20)
    assert isinstance(page, str) and "is not here" in page


def test_a_record_with_another_url_is_refused(folder, tmp_path):
    """A file of the same name holding another page is not the report's file."""
    zone = LandingZone(tmp_path / "zone")
    page = report_page(_row("a.warc.gz", "http://shop.example/other"), zone, opened=None,
                       built_here=False, folder=folder, max_bytes=1 << 20)
    assert isinstance(page, str) and "not the file the report was built from" in page


def test_a_report_built_here_reads_the_open_file(tmp_path):
    """A report built over the open file reads it, whatever name its rows carry."""
    zone = LandingZone(tmp_path / "zone")
    page = report_page(_row(""), zone, opened=OpenWarc(WARC, "upload.warc.gz"),
                       built_here=True, folder=None, max_bytes=1 << 20)
    assert isinstance(page, ReportPage) and page.label == f"upload.warc.gz #0: {URL}"
