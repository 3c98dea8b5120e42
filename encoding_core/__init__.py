"""encoding_core: decide which encoding web bytes are in, observably.

Re-exports only; see the subpackages for the algorithms and their spec links. The package is
laid out by concern, lowest layer first (``pyproject.toml``'s import contract checks it):

* ``whatwg``: the standards (labels, decoders, BOM, prescan, Content-Type);
* ``decision``: ``decode``, the walk over the sources, detection, conflicts, the result models;
* ``fetch`` and ``fields``: fetching a page; mojibake in stored fields, CSV and frame scans;
* ``warc``, ``overrides`` and ``views``: captures and host reports; site overrides; compare,
  byte inspection and regression cases;
* ``cli`` and ``spark``: the command line; the same reports on Apache Spark (optional).

``errors``, ``wording``, ``datafolder``, ``hosts`` and ``records`` are the shared basics every
room may import. The field scan
(``scan_csv``, ``scan_frame``, ``ScanReport``) is imported on first use, so ``import
encoding_core`` and ``decode`` never load pandas or pyarrow.
"""

from __future__ import annotations

import importlib
import typing

from .decision.browsers import BrowserAnswer, browser_answers
from .decision.decode import decode, decode_as
from .decision.models import Conflict, Decoded, Evidence, Severity, Source
from .errors import EncodingCoreError, FetchError, OverrideError, UnknownLabelError
from .fetch.client import Capture, FetchSettings, fetch_page
from .fields.csvread import CsvError
from .fields.mojibake import Mojibake, find_mojibake
from .overrides.retest import RetestResult, decode_with_overrides, retest
from .overrides.store import OverrideStore, SiteOverride
from .views.byteinspect import explain_text, inspect_bytes
from .views.cases import check_case, regression_case
from .views.compare import compare_candidates, diff_spans
from .views.hexview import byte_rows, format_rows
from .whatwg.labels import ENCODING_NAMES, get_encoding, get_encoding_no_replacement
from .whatwg.prescan import prescan

if typing.TYPE_CHECKING:
    from .fields.csvscan import ScanReport, scan_csv, scan_frame
    from .warc.instrument import record_decode

# Names imported on first access (PEP 562): the field scan needs pandas and pyarrow.
_LAZY = {
    "ScanReport": "encoding_core.fields.csvscan",
    "scan_csv": "encoding_core.fields.csvscan",
    "scan_frame": "encoding_core.fields.csvscan",
    "record_decode": "encoding_core.warc.instrument",   # imports prometheus_client
}


def __getattr__(name: str) -> object:
    """Import a lazily exported name (the field scan) on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'encoding_core' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "ENCODING_NAMES",
    "BrowserAnswer",
    "Capture",
    "Conflict",
    "CsvError",
    "Decoded",
    "EncodingCoreError",
    "Evidence",
    "FetchError",
    "FetchSettings",
    "Mojibake",
    "OverrideError",
    "OverrideStore",
    "RetestResult",
    "ScanReport",
    "Severity",
    "SiteOverride",
    "Source",
    "UnknownLabelError",
    "browser_answers",
    "byte_rows",
    "check_case",
    "compare_candidates",
    "decode",
    "decode_as",
    "decode_with_overrides",
    "diff_spans",
    "explain_text",
    "fetch_page",
    "find_mojibake",
    "format_rows",
    "get_encoding",
    "get_encoding_no_replacement",
    "inspect_bytes",
    "prescan",
    "record_decode",
    "regression_case",
    "retest",
    "scan_csv",
    "scan_frame",
]
