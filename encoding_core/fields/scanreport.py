"""The scan's result and the counting behind it, shared by ``scan_frame`` and ``scan_csv``.

``Tally`` accumulates one chunk of rows at a time: the chunk's text cells go through the RE2
prefilter in one vectorised call (pyarrow; a column that repeats its values, by a sample, is
filtered once per distinct value), and only the cells that pass reach a ``MojibakeFinder``,
once per distinct text; its caches live as long as the scan. Counts per column and per host are
complete; the list of findings keeps the first ``max_findings`` flagged cells.

Cells of lines that a CSV read in another encoding than the rest (``csvmixed``: a UTF-8 file
with appended windows-1252 lines) are text as it should be, so the finder does not flag them.
Their non-ASCII cells are counted as kind ``mixed-encoding``, repairable: ``original`` is what
a UTF-8 reading gives them (U+FFFD where bytes do not decode), ``repaired`` their text read in
that encoding. A cell the finder flags as read is the finder's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cells import spreadsheet_cell
from ..extras import needs_extra
from ..hosts import host_of
from .csvmixed import Shown, mixed_cells
from .mojibake import PREFILTER_RE2, MojibakeFinder, might_be_damaged, suspicious_part

with needs_extra("fields", "the field scan"):
    import numpy as np
    import pandas as pd
    import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
    import pyarrow.compute as pc  # type: ignore[import-untyped, unused-ignore]

__all__ = ["COLUMN_FIELDS", "FINDING_FIELDS", "HOST_FIELDS", "MAX_FINDINGS", "ScanReport",
           "Tally", "empty_frame", "host_label"]

MAX_FINDINGS = 10_000
_CACHE_SIZE = 100_000
_COUNTS = ("cells", "flagged", "repairable", "partly_repairable", "lossy", "mojibake",
           "c1_controls", "mixed_encoding")
_HOST_COUNTS = ("rows", "cells", "flagged", "repairable", "partly_repairable", "lossy")
_KINDS = ("mojibake", "lossy", "c1-controls", "mixed-encoding", "partly-repairable")
_KIND_NUMBER = {kind: number for number, kind in enumerate(_KINDS)}
_FINDING_FIELDS = ("row", "line", "column", "host", "kind", "original", "repaired", "chain",
                   "excerpt")
#: The columns of ``ScanReport.columns``, ``.hosts`` and ``.findings`` (``line`` for a CSV,
#: ``host`` with a host column), for readers of a report written elsewhere (``scanjson``).
COLUMN_FIELDS = ("column", *_COUNTS, "rate")
HOST_FIELDS = ("host", *_HOST_COUNTS, "rate")
FINDING_FIELDS = _FINDING_FIELDS


def empty_frame(columns: Sequence[str]) -> pd.DataFrame:
    """A frame with these columns and no rows (object dtype, so it concatenates cleanly)."""
    return pd.DataFrame({name: pd.Series(dtype=object) for name in columns})


@dataclass(frozen=True, slots=True, eq=False)  # eq=False: DataFrames do not compare to a bool
class ScanReport:
    """Per column (and per host) counts, the flagged cells, and for a CSV how it was read.

    ``columns``: column, cells (non-empty text cells scanned), flagged, repairable (wholly),
    partly_repairable (a repair with characters that stay lost), lossy, mojibake, c1_controls,
    mixed_encoding (cells of lines read in ``mixed_encoding``, the other encoding of a UTF-8
    file: repairable), rate (flagged / cells). ``findings``: row
    (the frame's index label; for a CSV the 0-based data row), line (CSV only), column, host
    (with a host column), kind, original, repaired, chain, excerpt (the suspicious part with
    some context). ``hosts``: host, rows, cells, flagged, repairable, partly_repairable, lossy,
    rate, when a host or URL column was given.
    ``mixed_encoding``, ``mixed_lines``: a CSV's lines that are not UTF-8 and were read in that
    encoding (``csvmixed``), and how many.
    """

    columns: pd.DataFrame
    findings: pd.DataFrame
    hosts: pd.DataFrame | None = None
    rows: int = 0
    flagged: int = 0
    findings_truncated: bool = False
    encoding: str | None = None
    encoding_reason: str | None = None
    delimiter: str | None = None
    malformed: pd.DataFrame = field(default_factory=lambda: empty_frame(["line", "problem"]))
    malformed_count: int = 0
    decode_errors: int = 0
    nul_chars: int = 0
    mixed_encoding: str | None = None
    mixed_lines: int = 0
    notes: tuple[str, ...] = ()

    def summary(self) -> dict[str, Any]:
        """Everything but the findings, as plain JSON types."""
        return {
            "encoding": self.encoding, "encoding_reason": self.encoding_reason,
            "delimiter": self.delimiter, "rows": self.rows, "flagged": self.flagged,
            "findings_truncated": self.findings_truncated,
            "columns": self.columns.to_dict(orient="records"),
            "hosts": None if self.hosts is None else self.hosts.to_dict(orient="records"),
            "malformed_count": self.malformed_count,
            "malformed": self.malformed.to_dict(orient="records"),
            "decode_errors": self.decode_errors, "nul_chars": self.nul_chars,
            "mixed_encoding": self.mixed_encoding, "mixed_lines": self.mixed_lines,
            "notes": list(self.notes),
        }

    def summary_json(self) -> str:
        """``summary()`` as JSON text."""
        return json.dumps(self.summary(), indent=2, ensure_ascii=False, default=str)

    def merge(self, other: ScanReport, *, max_findings: int = MAX_FINDINGS) -> ScanReport:
        """This report and ``other`` (scans of disjoint rows) as one, in any grouping and
        order (``scanmerge.merge_reports``: counts add, a bounded sample of findings)."""
        from .scanmerge import merge_reports  # (it builds ScanReports: imported when used)

        return merge_reports(self, other, max_findings=max_findings)

    def findings_csv(self) -> bytes:
        """The flagged cells with proposed repairs, as UTF-8 CSV with a BOM (Excel reads it);
        a cell a spreadsheet would run as a formula is written as text (``cells``)."""
        safe = self.findings.astype(object).map(spreadsheet_cell)
        return b"\xef\xbb\xbf" + safe.to_csv(index=False).encode("utf-8")


def host_label(value: object) -> str:
    """The host a cell's rows are counted under: ``hosts.host_of`` the cell (a URL or a host
    name); the cell lower-cased when it has no host; ``(none)`` for an empty or non-text cell.

    >>> host_label("https://Shop.Example/p?id=1"), host_label("shop.example:8080")
    ('shop.example', 'shop.example')
    >>> host_label(None), host_label("http://[::1")
    ('(none)', 'http://[::1')
    """
    if not isinstance(value, str) or not value.strip():
        return "(none)"
    text = value.strip()
    return host_of(text) or text.lower()


_SAMPLE = 2_048


def _distinct(array: pa.Array) -> tuple[pa.Array, np.ndarray | None]:
    """The values of a column to filter, and for each cell the index of its value (-1: null).

    A column that repeats its values (names, cities, categories) is filtered once per distinct
    value: hashing a cell costs less than the prefilter does. Whether it repeats them is
    judged on a sample; a column that does not is filtered cell by cell (index ``None``).
    """
    if len(array) < 2 * _SAMPLE or pc.count_distinct(array.take(pa.array(
            np.linspace(0, len(array) - 1, _SAMPLE, dtype=np.int64)))).as_py() > _SAMPLE // 2:
        return array, None
    encoded = pc.dictionary_encode(array)
    return encoded.dictionary, pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False)


def _large_strings(cells: pa.Array | pa.ChunkedArray) -> pa.Array:
    """One ``large_string`` array (a chunked column combined, other types cast)."""
    array = cells.combine_chunks() if isinstance(cells, pa.ChunkedArray) else cells
    return array if array.type == pa.large_string() else array.cast(pa.large_string())


class Tally:
    """Counts and findings accumulated over chunks of rows."""

    def __init__(self, columns: list[str], with_hosts: bool, max_findings: int) -> None:
        self.names = columns
        self.counts = {name: dict.fromkeys(_COUNTS, 0) for name in columns}
        self.hosts: dict[str, dict[str, int]] | None = {} if with_hosts else None
        # the findings column by column (row, line, column, host, kind, original, ...)
        self.findings: dict[str, list[Any]] = {name: [] for name in _FINDING_FIELDS}
        self.max_findings, self.flagged, self.rows, self.truncated = max_findings, 0, 0, False
        self._finder = MojibakeFinder(_CACHE_SIZE)

    def _host_counts(self, host: str) -> dict[str, int]:
        assert self.hosts is not None
        return self.hosts.setdefault(host, dict.fromkeys(_HOST_COUNTS, 0))

    def add(self, cells: list[pa.Array], labels: Sequence[Any] | pd.Index,
            lines: Sequence[int] | None, hosts: Sequence[str] | None,
            legacy_rows: Sequence[int] = (), legacy: str | None = None) -> None:
        """Scan one chunk: ``cells[i]`` holds column ``i`` (strings or nulls) for ``labels``.

        ``legacy_rows``: the rows (positions in the chunk) of lines read in ``legacy``.
        """
        n = len(labels)
        self.rows += n
        if n == 0 or not cells:
            return
        # a column of a multi-row-group Parquet file, or of pandas 3 strings after a concat,
        # arrives chunked: one array per column from here on
        columns = [_large_strings(c) for c in cells]
        # every column's non-empty cells in one call: a wide file (100,000 columns) costs a few
        # calls per chunk, not a few per column
        lengths = pc.fill_null(pc.binary_length(pa.concat_arrays(columns)), 0)
        filled = np.greater(lengths.to_numpy(zero_copy_only=False), 0).reshape(len(columns), n)
        for name, cells_in in zip(self.names, filled.sum(axis=1).tolist(), strict=True):
            self.counts[name]["cells"] += cells_in
        if hosts is not None:
            codes, uniques = pd.factorize(np.asarray(hosts, dtype=object))
            known = codes >= 0   # (a missing host has code -1 and no tally, as before)
            # each host's rows and cells in one pass over the chunk (a comparison a host was
            # a pass each: 160,000 distinct hosts took 19 s)
            rows_of = np.bincount(codes[known], minlength=len(uniques))
            cells_of = np.bincount(codes[known], weights=filled.sum(axis=0)[known],
                                   minlength=len(uniques))
            for code, host in enumerate(uniques):
                counts = self._host_counts(str(host))
                counts["rows"] += int(rows_of[code])
                counts["cells"] += int(cells_of[code])
        if legacy_rows and legacy is not None:
            self._add_mixed(columns, legacy_rows, legacy, labels, lines, hosts)
        # the prefilter, in one call (it compiles the pattern each time) over each column's
        # values: its distinct values where it repeats them, each cell otherwise
        distinct = [_distinct(array) for array in columns]
        hits = pc.fill_null(pc.match_substring_regex(
            pa.concat_arrays([values for values, _ in distinct]), PREFILTER_RE2), False)
        hit = hits.to_numpy(zero_copy_only=False)
        where, taken, start = [], [], 0
        for column, (array, (values, index)) in enumerate(zip(columns, distinct, strict=True)):
            on_values = hit[start:start + len(values)]
            start += len(values)
            if not on_values.any():
                continue
            rows = np.flatnonzero(on_values if index is None
                                  else np.append(on_values, False)[index])   # -1: null
            if len(rows):
                where.append(rows + column * n)
                taken.append(array.take(pa.array(rows, type=pa.int64())))
        if not where:
            return
        positions = np.concatenate(where)
        # each distinct candidate once: its finding, then the cells that hold it
        encoded = pc.dictionary_encode(pa.concat_arrays(taken))
        texts = encoded.dictionary.to_pylist()
        explain = self._finder.explain
        found = [explain(text) for text in texts]
        codes = encoded.indices.to_numpy(zero_copy_only=False)
        flagged = np.fromiter((result is not None for result in found), bool, len(found))[codes]
        if flagged.any():
            columns_at, rows_at = np.divmod(positions[flagged], n)
            # per distinct text: kind, repaired, chain, excerpt
            about: list[Shown | None] = [
                None if r is None else Shown(r.kind, r.repaired, r.chain, suspicious_part(text, r))
                for text, r in zip(texts, found, strict=True)]
            self._count(texts, about, codes[flagged], columns_at, rows_at, labels, lines, hosts)

    def _add_mixed(self, columns: list[pa.Array], rows: Sequence[int], legacy: str,
                   labels: Sequence[Any] | pd.Index, lines: Sequence[int] | None,
                   hosts: Sequence[str] | None) -> None:
        """Count the non-ASCII cells of ``rows`` (lines read in ``legacy``) as mixed encoding."""
        def flagged(text: str) -> bool:
            return might_be_damaged(text) and self._finder.explain(text) is not None

        taken = pa.array(rows, type=pa.int64())
        found = mixed_cells([array.take(taken).to_pylist() for array in columns], rows, legacy,
                            flagged)
        if found.codes:
            self._count(found.texts, list(found.about), np.array(found.codes, dtype=np.int64),
                        np.array(found.columns, dtype=np.int64),
                        np.array(found.rows, dtype=np.int64), labels, lines, hosts)

    def _count(self, texts: list[str], about: list[Shown | None], codes: np.ndarray,
               columns: np.ndarray, rows: np.ndarray, labels: Sequence[Any] | pd.Index,
               lines: Sequence[int] | None, hosts: Sequence[str] | None) -> None:
        """Count the flagged cells: ``about[codes[i]]`` in column ``columns[i]``, ``rows[i]``.

        ``about`` holds, per distinct text, its kind, repair, chain and excerpt. The cells are
        taken in (row, column) order, so the findings kept under ``max_findings`` are the
        first by row and column, as ``ScanReport.merge`` keeps them (whatever the split).
        """
        order = np.lexsort((columns, rows))
        codes, columns, rows = codes[order], columns[order], rows[order]
        self.flagged += len(codes)
        width = len(self.names)
        # per distinct text: the kind's number, and whether it is repairable (wholly)
        kinds = np.fromiter((_KIND_NUMBER[r.kind] if r else 0 for r in about), np.int64,
                            len(about))
        fixable = np.fromiter((r is not None and r.repaired is not None
                               and r.kind != "partly-repairable" for r in about), bool,
                              len(about))
        kinds, fixable = kinds[codes], fixable[codes]
        by_kind = np.bincount(columns * len(_KINDS) + kinds, minlength=width * len(_KINDS))
        for name, flagged, repairable, per_kind in zip(
                self.names, np.bincount(columns, minlength=width).tolist(),
                np.bincount(columns[fixable], minlength=width).tolist(),
                by_kind.reshape(width, len(_KINDS)).tolist(), strict=True):
            counts = self.counts[name]
            counts["flagged"] += flagged
            counts["repairable"] += repairable
            for kind, count in zip(_KINDS, per_kind, strict=True):
                counts[kind.replace("-", "_")] += count
        if hosts is not None:
            for row, fix, kind in zip(rows.tolist(), fixable.tolist(), kinds.tolist(),
                                      strict=True):
                per_host = self._host_counts(hosts[row])
                per_host["flagged"] += 1
                per_host["repairable"] += fix
                per_host["partly_repairable"] += _KINDS[kind] == "partly-repairable"
                per_host["lossy"] += _KINDS[kind] == "lossy"
        keep = max(0, min(len(codes), self.max_findings - len(self.findings["kind"])))
        self.truncated = self.truncated or keep < len(codes)
        if not keep:
            return
        kept = rows[:keep].tolist()
        table = self.findings
        table["row"] += (labels.take(kept).tolist() if isinstance(labels, pd.Index)
                         else [labels[row] for row in kept])
        if lines is not None:
            table["line"] += [lines[row] for row in kept]
        table["column"] += [self.names[column] for column in columns[:keep].tolist()]
        if hosts is not None:
            table["host"] += [hosts[row] for row in kept]
        shown = codes[:keep].tolist()
        table["original"] += [texts[code] for code in shown]
        for name, values in zip(("kind", "repaired", "chain", "excerpt"),
                                zip(*[about[code] for code in shown], strict=True), strict=True):
            table[name] += values

    def report(self, *, with_lines: bool, **csv_fields: Any) -> ScanReport:
        columns = pd.DataFrame([{"column": name, **self.counts[name]} for name in self.names],
                               columns=["column", *_COUNTS])
        columns["rate"] = (columns["flagged"] / columns["cells"].where(columns["cells"] > 0)
                           ).fillna(0.0).astype(float)
        order = ["row", *(["line"] if with_lines else []), "column",
                 *(["host"] if self.hosts is not None else []),
                 "kind", "original", "repaired", "chain", "excerpt"]
        findings = (pd.DataFrame({name: self.findings[name] for name in order}, columns=order)
                    if self.findings["kind"] else empty_frame(order))
        hosts = None
        if self.hosts is not None:
            hosts = pd.DataFrame([{"host": h, **c} for h, c in self.hosts.items()],
                                 columns=["host", *_HOST_COUNTS])
            hosts["rate"] = (hosts["flagged"] / hosts["cells"].where(hosts["cells"] > 0)
                             ).fillna(0.0).astype(float)
            hosts = hosts.sort_values(["flagged", "host"], ascending=[False, True],
                                      ignore_index=True)
        notes = list(csv_fields.pop("notes", ()))
        if self.truncated:
            notes.append(f"{self.flagged:,} cells are flagged; the findings list keeps the first "
                         f"{self.max_findings:,} (the counts are complete)")
        return ScanReport(columns, findings, hosts, self.rows, self.flagged, self.truncated,
                          notes=tuple(notes), **csv_fields)
