"""encoding_core: decide which encoding web bytes are in, observably.

Re-exports only; see the subpackages for the algorithms and their spec links. The package is
laid out by concern, lowest layer first (``pyproject.toml``'s import contract checks it):

* ``whatwg``: the standards (labels, decoders, BOM, prescan, Content-Type);
* ``decision``: ``decode``, the walk over the sources, detection, conflicts, the result models;
* ``fetch`` and ``fields``: fetching a page; mojibake in stored fields, CSV and frame scans;
* ``warc``, ``overrides`` and ``views``: captures and host reports; site overrides; compare,
  byte inspection and regression cases;
* ``cli`` and ``spark``: the command line; the same reports on Apache Spark (optional).

``errors``, ``extras``, ``limits``, ``wording``, ``datafolder``, ``hosts`` and ``speedups`` are
the shared basics every room may import. "Seed 000" and its siblings, cited throughout, are
the notes the project started from: README.md "Sources: the seeds" says what each is.

Every name below is imported on first use (PEP 562), so ``import encoding_core`` loads none of
the rooms, and ``decode`` loads only what deciding needs: no numpy, httpx, ruamel.yaml, ftfy,
pandas or pyarrow (``tests/test_public_api.py`` lists the modules loaded).
"""

from __future__ import annotations

import importlib

# not typing.TYPE_CHECKING: importing typing would cost more than this module (mypy and
# PEP 484 checkers take a module-level TYPE_CHECKING = False the same way)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .decision.browsers import BrowserAnswer, browser_answers
    from .decision.decode import decode, decode_as
    from .decision.models import Conflict, Decoded, Evidence, Severity, Source
    from .errors import EncodingCoreError, FetchError, OverrideError, UnknownLabelError
    from .fetch.client import Capture, FetchSettings, fetch_page
    from .fields.csvread import CsvError
    from .fields.csvscan import ScanReport, scan_csv, scan_frame
    from .fields.mojibake import Mojibake, find_mojibake
    from .overrides.retest import RetestResult, decode_with_overrides, retest
    from .overrides.store import OverrideStore, SiteOverride
    from .speedups import SPEEDUPS
    from .views.byteinspect import explain_text, inspect_bytes
    from .views.cases import check_case, regression_case
    from .views.compare import compare_candidates, diff_spans
    from .views.hexview import byte_rows, format_rows
    from .warc.instrument import record_decode
    from .whatwg.labels import ENCODING_NAMES, get_encoding, get_encoding_no_replacement
    from .whatwg.prescan import prescan

# Each public name and the module it is imported from on first access (PEP 562).
_LAZY = {
    "ENCODING_NAMES": "encoding_core.whatwg.labels",
    "SPEEDUPS": "encoding_core.speedups",
    "BrowserAnswer": "encoding_core.decision.browsers",
    "Capture": "encoding_core.fetch.client",
    "Conflict": "encoding_core.decision.models",
    "CsvError": "encoding_core.fields.csvread",
    "Decoded": "encoding_core.decision.models",
    "EncodingCoreError": "encoding_core.errors",
    "Evidence": "encoding_core.decision.models",
    "FetchError": "encoding_core.errors",
    "FetchSettings": "encoding_core.fetch.client",
    "Mojibake": "encoding_core.fields.mojibake",
    "OverrideError": "encoding_core.errors",
    "OverrideStore": "encoding_core.overrides.store",
    "RetestResult": "encoding_core.overrides.retest",
    "ScanReport": "encoding_core.fields.csvscan",
    "Severity": "encoding_core.decision.models",
    "SiteOverride": "encoding_core.overrides.store",
    "Source": "encoding_core.decision.models",
    "UnknownLabelError": "encoding_core.errors",
    "browser_answers": "encoding_core.decision.browsers",
    "byte_rows": "encoding_core.views.hexview",
    "check_case": "encoding_core.views.cases",
    "compare_candidates": "encoding_core.views.compare",
    "decode": "encoding_core.decision.decode",
    "decode_as": "encoding_core.decision.decode",
    "decode_with_overrides": "encoding_core.overrides.retest",
    "diff_spans": "encoding_core.views.compare",
    "explain_text": "encoding_core.views.byteinspect",
    "fetch_page": "encoding_core.fetch.client",
    "find_mojibake": "encoding_core.fields.mojibake",
    "format_rows": "encoding_core.views.hexview",
    "get_encoding": "encoding_core.whatwg.labels",
    "get_encoding_no_replacement": "encoding_core.whatwg.labels",
    "inspect_bytes": "encoding_core.views.byteinspect",
    "prescan": "encoding_core.whatwg.prescan",
    "record_decode": "encoding_core.warc.instrument",
    "regression_case": "encoding_core.views.cases",
    "retest": "encoding_core.overrides.retest",
    "scan_csv": "encoding_core.fields.csvscan",
    "scan_frame": "encoding_core.fields.csvscan",
}


def __getattr__(name: str) -> object:
    """Import a public name from its module on first use; it is then a plain attribute."""
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
    "SPEEDUPS",
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
