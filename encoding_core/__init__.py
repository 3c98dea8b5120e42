"""encoding_core: decide which encoding web bytes are in, observably.

Re-exports only; see the modules for the algorithms and their spec links.
"""

from __future__ import annotations

from .byteinspect import explain_text, inspect_bytes
from .cases import check_case, regression_case
from .compare import compare_candidates, diff_spans
from .csvread import CsvError
from .csvscan import ScanReport, scan_csv, scan_frame
from .decode import decode, decode_as
from .errors import EncodingCoreError, FetchError, OverrideError, UnknownLabelError
from .fetch import Capture, FetchSettings, fetch_page
from .hexview import byte_rows, format_rows
from .labels import ENCODING_NAMES, get_encoding, get_encoding_no_replacement
from .models import Conflict, Decoded, Evidence, Severity, Source
from .mojibake import Mojibake, find_mojibake
from .overrides import OverrideStore, SiteOverride
from .overrides_retest import RetestResult, decode_with_overrides, retest
from .prescan import prescan

__all__ = [
    "ENCODING_NAMES",
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
    "regression_case",
    "retest",
    "scan_csv",
    "scan_frame",
]
