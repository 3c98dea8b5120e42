"""The page behind a host-report row: its kept capture, or its record in a WARC file found here.

A row carries a reference, never only a URL (a URL fetched twice, or a crawl's repeated record,
would open another page): the landing-zone capture it was decided from (a URL list), or its
record's index in its WARC file. A report file is untrusted (a job wrote it elsewhere), so the
WARC file it names is looked for by its base name only, among the WARC files of one folder
(``warc_files``: the names the app's WARC tab offers), never opened by the path as given; and
the record found there is used only when it has the row's URL (a file of the same name may be
another one).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..fetch.models import Capture
from .hostmodels import RecordOutcome
from .landing import LandingZone, reopen
from .warcfile import WarcSource, read_response

__all__ = ["WARC_FILES", "OpenWarc", "ReportPage", "find_warc_file", "report_page",
           "warc_files"]

#: The WARC files of a folder, as a glob: ``.warc`` and ``.warc.gz`` (and other compressions).
WARC_FILES = "*.warc*"


@dataclass(frozen=True, slots=True)
class OpenWarc:
    """A WARC file open here: its bytes or path, and its name."""

    data: WarcSource
    name: str


@dataclass(frozen=True, slots=True)
class ReportPage:
    """A report row's page, and how to name it (``file #index: url``, ``capture id: url``)."""

    capture: Capture
    label: str


def warc_files(folder: Path | None) -> list[Path]:
    """The WARC files of ``folder``, sorted; none when it is not a folder."""
    if folder is None or not folder.is_dir():
        return []
    return sorted(path for path in folder.glob(WARC_FILES) if path.is_file())


def find_warc_file(named: str, folder: Path | None) -> Path | None:
    """The WARC file of ``folder`` whose name is the base name of ``named`` (a path from an
    untrusted report: only its last part counts, and only a WARC file of the folder matches).

    >>> find_warc_file("../../etc/passwd", Path("/etc")) is None
    True
    """
    name = PurePosixPath(named.replace("\\", "/")).name
    if not name:
        return None
    return next((path for path in warc_files(folder) if path.name == name), None)


def report_page(record: RecordOutcome, zone: LandingZone, *, opened: OpenWarc | None,
                built_here: bool, folder: Path | None, max_bytes: int) -> ReportPage | str:
    """The page behind ``record``, or why it cannot be opened.

    - its kept capture, when the row has one (a URL list's report);
    - else its record in ``opened`` when the report was built here from that file
      (``built_here``);
    - else its record in the WARC file the row names: ``opened`` when it has that name (or the
      row names none), else the file of that name in ``folder``; used only when the record
      found has the row's URL.

    Raises what reading raises (``LandingZoneError``, ``WarcFormatError``, ``OSError``).
    """
    if record.capture_id is not None:
        return ReportPage(reopen(record.capture_id, zone),
                          f"capture {record.capture_id}: {record.url}")
    if record.record_index is None:
        return "That row has no page to open (a fetch that failed)."
    found = opened if built_here else _named_file(record.warc_file, opened, folder)
    if found is None:
        named = record.warc_file or "the WARC file the report was built from"
        return (f"The record's WARC file ({named}) is not here: open it in the WARC tab, "
                "or put it in warc_dir.")
    capture = read_response(found.data, record.record_index, max_bytes=max_bytes)
    if not built_here and capture.url != record.url:
        return (f"Record #{record.record_index} of {found.name} is {capture.url}, not the "
                f"report's {record.url}: this {found.name} is not the file the report was "
                "built from.")
    return ReportPage(capture, f"{found.name} #{record.record_index}: {record.url}")


def _named_file(warc_file: str, opened: OpenWarc | None, folder: Path | None
                ) -> OpenWarc | None:
    """The WARC file a row names, if it is here: the open one (also for a row that names
    none, from a report written before rows named their file), else one in ``folder``."""
    name = PurePosixPath(warc_file.replace("\\", "/")).name if warc_file else ""
    if opened is not None and (not name or opened.name == name):
        return opened
    path = find_warc_file(name, folder) if name else None
    return OpenWarc(str(path), path.name) if path is not None else None
