"""Result records of the decision: immutable, picklable, JSON-serialisable.

``Decoded`` is what ``decode`` returns; ``Evidence`` is one consulted source in the trace;
``Conflict`` is a finding that contradicts or weakens the decision, with advice in plain words.

``new_decoded`` and ``new_evidence`` build the two records the decision makes for every page,
every field given positionally: with the compiled ``_records_c.SlotBuilder`` where it is built
(the slots filled directly, no frozen ``__init__``: 0.15 against 1-2.5 us a ``Decoded``),
else with the class itself (``pure_slot_builder``, the reference it is tested equal to).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, TypeVar

from ..speedups import compiled

__all__ = ["LOSSY_SUFFIX", "Conflict", "Decoded", "Evidence", "Severity", "Source",
           "new_decoded", "new_evidence", "pure_slot_builder", "slot_builder",
           "split_decided_by"]

_Record = TypeVar("_Record")

#: What ``Decoded.decided_by`` appends to the source when nothing decoded strictly.
LOSSY_SUFFIX = "-lossy"


class Source(StrEnum):
    """Where an encoding opinion came from. Values are the strings seed 000 records."""

    BOM = "bom"
    OVERRIDE = "override"
    HTTP_HEADER = "http-header"
    META = "meta-tag"
    XML_DECLARATION = "xml-declaration"
    BYTE_PATTERN = "byte-pattern"    # NUL bytes laid out as UTF-16 or UTF-32 text (no BOM)
    DETECTOR = "detector"
    SITE_DEFAULT = "site-default"
    FALLBACK = "fallback"


def split_decided_by(decided_by: str) -> tuple[Source, bool] | None:
    """A ``Decoded.decided_by`` string read back: (source, lossy); None when it names none.

    >>> split_decided_by("meta-tag-lossy"), split_decided_by("nothing")
    ((<Source.META: 'meta-tag'>, True), None)
    """
    lossy = decided_by.endswith(LOSSY_SUFFIX)
    value = decided_by[:-len(LOSSY_SUFFIX)] if lossy else decided_by
    try:
        return Source(value), lossy
    except ValueError:
        return None


class Severity(StrEnum):
    """How much a conflict should worry the reader."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Evidence:
    """One source consulted by the walk, used or not, and why.

    ``raw_label`` is what the source said, as found (``None`` when it said nothing);
    ``encoding`` its canonical name (``None`` for an unknown label or no opinion).
    ``strict_ok`` is ``None`` when no strict decode was attempted for this source;
    ``error_offset`` is the byte offset of the first malformed sequence when it failed.
    """

    source: Source
    raw_label: str | None
    encoding: str | None
    used: bool
    reason: str
    strict_ok: bool | None = None
    error_offset: int | None = None
    confidence: float | None = None


@dataclass(frozen=True, slots=True)
class Conflict:
    """Evidence that contradicts or weakens the decision.

    ``kind`` is a stable identifier (for filters and metrics); ``suggested_encoding`` is what
    an override would set, when the evidence points at one; ``mojibake_removed`` how many
    mojibake sequences that override would remove, when measured.
    """

    kind: str
    severity: Severity
    message: str
    advice: str
    suggested_encoding: str | None = None
    mojibake_removed: int | None = None


@dataclass(frozen=True, slots=True)
class Decoded:
    """The decision: the text, the encoding and source that produced it, and the trace.

    ``source`` is the ``Source`` whose encoding decided; ``lossy`` is True when nothing
    decoded strictly (then ``replacements`` counts the U+FFFD the lossy decode produced and
    ``error_offsets`` lists the byte offsets of the malformed sequences, at most
    ``MAX_ERROR_OFFSETS``). ``decided_by`` is the two as one string (``"http-header-lossy"``),
    the form JSON, reports and metrics keep. ``browser_encoding`` is what a browser following
    the HTML Standard would have used for the same bytes and header (no override, no
    detector; windows-1252 as the default).
    """

    text: str
    encoding: str
    source: Source
    replacements: int
    evidence: tuple[Evidence, ...]
    conflicts: tuple[Conflict, ...]
    browser_encoding: str
    bom_length: int = 0
    error_offsets: tuple[int, ...] = ()
    needs_review: bool = False
    body_length: int = 0
    lossy: bool = False

    @property
    def decided_by(self) -> str:
        """The source as JSON, reports and metrics write it: its value, with ``-lossy``
        appended when nothing decoded strictly.

        >>> Decoded("", "utf-8", Source.HTTP_HEADER, 2, (), (), "utf-8", lossy=True).decided_by
        'http-header-lossy'
        """
        return f"{self.source.value}{LOSSY_SUFFIX}" if self.lossy else self.source.value

    @property
    def suggested_encoding(self) -> str | None:
        """The encoding the conflicts say a site override should set, if any: one that reads
        the page differently from the decision first, else the decision's own when a conflict
        says an override would record it (a declaration failed and a fallback decided)."""
        suggested = [c.suggested_encoding for c in self.conflicts if c.suggested_encoding]
        return next((e for e in suggested if e != self.encoding), None) or next(
            iter(suggested), None)

    def to_dict(self, *, include_text: bool = True) -> dict[str, Any]:
        """A plain dict for JSON: enums as their string values."""
        data = asdict(self)
        if not include_text:
            data.pop("text")
        data["source"] = self.decided_by
        data["suggested_encoding"] = self.suggested_encoding
        return data

    def to_json(self, *, include_text: bool = True, indent: int | None = 2) -> str:
        """The decision as JSON (what the CLI prints and the pages download)."""
        return json.dumps(self.to_dict(include_text=include_text), indent=indent,
                          ensure_ascii=False)


def pure_slot_builder(cls: type[_Record]) -> Callable[..., _Record]:
    """The reference of ``_records_c.SlotBuilder``: the record's own constructor, called with
    every field positionally."""
    return cls


_RECORDS = compiled("encoding_core.decision._records_c")
#: ``slot_builder(cls)(*fields)`` is ``cls(*fields)``, every field given (see the module).
slot_builder: Callable[[type[Any]], Callable[..., Any]] = (
    pure_slot_builder if _RECORDS is None else _RECORDS.SlotBuilder)
#: ``Decoded`` from all twelve fields, in their order (see the module).
new_decoded: Callable[..., Decoded] = slot_builder(Decoded)
#: ``Evidence`` from all eight fields, in their order (see the module).
new_evidence: Callable[..., Evidence] = slot_builder(Evidence)
