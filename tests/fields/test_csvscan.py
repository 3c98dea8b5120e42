"""Tests for encoding_core.fields.csvscan (scan_frame, scan_csv) and the reading in csvread."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pandas as pd
import pytest

from encoding_core.fields import csvscan
from encoding_core.fields.csvread import CsvError
from encoding_core.fields.csvscan import (
    ScanReport,
    guess_host_column,
    read_header,
    scan_csv,
    scan_frame,
)
from encoding_core.fields.scanreport import host_label
from tests.budget import within

MOJIBAKE = "JosÃ© GarcÃ­a"          # UTF-8 "José García" read as windows-1252
DOUBLE = "JosÃƒÂ© GarcÃƒÂ­a"      # ... twice
SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _counts(report: ScanReport) -> dict[str, tuple[int, int, int, int]]:
    frame = report.columns
    return {row.column: (row.cells, row.flagged, row.repairable, row.lossy)
            for row in frame.itertuples()}


# --- scan_frame ------------------------------------------------------------------------------

def test_scan_frame_counts_and_findings() -> None:
    """Per column counts, and each flagged cell with its index label, repair and chain."""
    df = pd.DataFrame({"name": [MOJIBAKE, "Ana", "Jos? Garc?a", None],
                       "city": ["São Paulo", "NÃO INFORMADO", "Москва", "东京"],
                       "n": [1, 2, 3, 4]}, index=["a", "b", "c", "d"])
    report = scan_frame(df)
    assert _counts(report) == {"name": (3, 2, 1, 1), "city": (4, 0, 0, 0)}
    assert report.columns["rate"].tolist() == pytest.approx([2 / 3, 0.0])
    findings = report.findings.set_index("row")
    assert findings.loc["a", "repaired"] == "José García"
    assert findings.loc["a", "chain"] == "utf-8 read as windows-1252"
    assert findings.loc["c", "kind"] == "lossy" and pd.isna(findings.loc["c", "repaired"])
    assert report.rows == 4 and report.flagged == 2 and report.hosts is None


def test_scan_frame_chosen_columns_and_cell_types() -> None:
    """Named columns are scanned whatever their dtype; non-text cells are not counted."""
    df = pd.DataFrame({"obj": pd.Series([MOJIBAKE, 5, 2.5, b"x"], dtype=object),
                       "cat": pd.Categorical([DOUBLE, DOUBLE, "ok", "ok"]),
                       "str": pd.Series(["", MOJIBAKE, None, "x"], dtype="string")})
    assert _counts(scan_frame(df, ["obj", "cat", "str"])) == {
        "obj": (1, 1, 1, 0), "cat": (4, 2, 2, 0), "str": (2, 1, 1, 0)}


def test_scan_frame_per_host() -> None:
    """With a URL column, counts are also grouped by host; the host column is not scanned."""
    df = pd.DataFrame({"url": ["https://Shop.example/a?x=1", "http://shop.example/b",
                               "other.example", None],
                       "title": [MOJIBAKE, "fine", MOJIBAKE, "Jos\ufffd"]})
    report = scan_frame(df, host_column="url")
    assert report.columns["column"].tolist() == ["title"]
    assert report.hosts is not None
    hosts = report.hosts.set_index("host")
    assert hosts.loc["shop.example", ["rows", "cells", "flagged", "repairable", "lossy"]
                     ].tolist() == [2, 2, 1, 1, 0]
    assert hosts.loc["(none)", "lossy"] == 1
    assert report.findings["host"].tolist() == ["shop.example", "other.example", "(none)"]


def test_scan_frame_unknown_column_is_an_error() -> None:
    """A misspelt column name raises ValueError naming the columns there are."""
    with pytest.raises(ValueError, match="no column named 'nmae'"):
        scan_frame(pd.DataFrame({"name": ["x"]}), ["nmae"])


def test_scan_frame_chunks_and_truncation_keep_counts_complete() -> None:
    """Chunking does not change the counts; findings stop at max_findings, counts do not."""
    df = pd.DataFrame({"name": [MOJIBAKE + str(i) for i in range(50)] + ["ok"] * 50})
    whole = scan_frame(df)
    chunked = scan_frame(df, chunk_rows=7, max_findings=10)
    assert _counts(whole) == _counts(chunked) == {"name": (100, 50, 50, 0)}
    assert len(chunked.findings) == 10 and chunked.findings_truncated
    assert any("first 10" in note for note in chunked.notes)


def test_columns_that_repeat_values_give_the_same_result() -> None:
    """A column filtered once per distinct value (many rows) scans as cell by cell does."""
    values = [MOJIBAKE, DOUBLE, "Jos? Garc?a", "Jos\ufffd", "São Paulo", "", None, "Ana",
              "NÃO INFORMADO", "Москва"]
    df = pd.DataFrame({"few": [values[i % len(values)] for i in range(6_000)],
                       "many": [f"{values[i % 4]} {i}" for i in range(6_000)],
                       "url": [f"https://h{i % 3}.example/" for i in range(6_000)]},
                      index=[f"r{i}" for i in range(6_000)])
    whole = scan_frame(df, host_column="url")
    chunked = scan_frame(df, host_column="url", chunk_rows=1_000)   # too few rows to repeat
    assert _counts(whole) == _counts(chunked)
    assert _counts(whole)["few"] == (4_800, 2_400, 1_200, 1_200)
    def ordered(findings: pd.DataFrame) -> pd.DataFrame:   # chunks list findings chunk by chunk
        return findings.sort_values(["column", "row"], ignore_index=True)

    assert ordered(whole.findings).equals(ordered(chunked.findings))
    assert whole.hosts is not None and whole.hosts.equals(chunked.hosts)


@pytest.mark.parametrize(("value", "host"), [
    ("https://Shop.Example:8443/p?q=1", "shop.example"), ("shop.example/path", "shop.example"),
    ("//cdn.example/x", "cdn.example"), ("", "(none)"), (3, "(none)"), ("http://[::1", "http://[::1"),
], ids=["url", "bare", "scheme-relative", "empty", "not-text", "malformed"])
def test_host_label(value: object, host: str) -> None:
    """Host names come from URLs or bare host cells, lower case."""
    assert host_label(value) == host


# --- scan_csv: encodings ---------------------------------------------------------------------

def test_utf8_csv_with_mojibake() -> None:
    """A UTF-8 file: its damaged cells, with line numbers."""
    body = f"name,city\n{DOUBLE},Zürich\nAna,{MOJIBAKE}\n".encode()
    report = scan_csv(body)
    assert (report.encoding, report.delimiter) == ("utf-8", ",")
    assert report.findings[["row", "line", "column"]].values.tolist() == [
        [0, 2, "name"], [1, 3, "city"]]
    assert report.findings["repaired"].tolist() == ["José García"] * 2


def test_stray_bytes_in_utf8_are_counted_not_fatal() -> None:
    """Undecodable bytes no encoding explains become U+FFFD cells, counted and noted."""
    body = ("name\n" + "José\n" * 200).encode() + b"Jos\xc3\n"   # a cut UTF-8 sequence
    report = scan_csv(body)
    assert report.encoding == "utf-8" and report.decode_errors == 1
    assert report.findings["kind"].tolist() == ["lossy"]
    assert any("not valid utf-8" in note and "stay lossy" in note for note in report.notes)


# --- scan_csv: UTF-8 with lines in another encoding (csvmixed) -------------------------------

LEGACY_TEXT = {   # non-ASCII text the encoding has, two cells a row
    "cp1252": ["“Zoë” — naïve café", "José García’s", "Crème brûlée…", "Ça va – très bien"],
    "koi8-r": ["Привет мир", "улица Ленина", "Москва и Кремль", "ёлка и щука"],
}


def _mixed_csv(encoding: str, *, head_rows: int = 0, bom: bool = False,
               random_bytes: bool = False) -> bytes:
    """``head_rows`` ASCII rows, then 100 UTF-8 rows and 50 rows in ``encoding``, in blocks.

    Both kinds of rows hold the same text (two sources of one table appended). With
    ``random_bytes`` the 50 rows are UTF-8 too, each with two random bytes over 7F appended.
    """
    rng, texts = random.Random(5), LEGACY_TEXT[encoding]
    rows = [b"\xef\xbb\xbfid,name,note\n" if bom else b"id,name,note\n"]
    rows += [f"{i},Ana,ok\n".encode() for i in range(head_rows)]
    for i in range(150):
        text = f"{i},{texts[i % 4]},{texts[(i + 1) % 4]}"
        if i % 15 < 10:   # blocks of 10 UTF-8 rows and 5 others
            rows.append(f"{text}\n".encode())
        elif random_bytes:
            rows.append(text.encode() + bytes(rng.randrange(0x80, 0x100) for _ in "ab") + b"\n")
        else:
            rows.append(f"{text}\n".encode(encoding))
    return b"".join(rows)


MIXED_CASES = {   # id: (body, the encoding it may name, lines read in it)
    "cp1252-blocks": (_mixed_csv("cp1252"), {"windows-1252"}, 50),
    "cp1252-after-64-KiB": (_mixed_csv("cp1252", head_rows=8_000), {"windows-1252"}, 50),
    "bom-cp1252": (_mixed_csv("cp1252", bom=True, head_rows=8_000), {"windows-1252"}, 50),
    "koi8-r-blocks": (_mixed_csv("koi8-r"), {"koi8-r", "koi8-u"}, 50),   # alike for Russian
    "random-bytes": (_mixed_csv("cp1252", random_bytes=True), {None}, 0),
}


@pytest.mark.parametrize("chunk_bytes", [1 << 20, 64], ids=["one-piece", "64-bytes"])
@pytest.mark.parametrize("case", list(MIXED_CASES))
def test_utf8_with_lines_in_another_encoding(case: str, chunk_bytes: int) -> None:
    """Lines in one other encoding are read in it, counted, repairable; random bytes stay lossy."""
    body, encodings, lines = MIXED_CASES[case]
    report = scan_csv(body, chunk_bytes=chunk_bytes, chunk_rows=7)
    assert report.encoding == "utf-8" and report.malformed_count == 0
    assert report.mixed_encoding in encodings and report.mixed_lines == lines
    assert report.columns["mixed_encoding"].sum() == report.columns["repairable"].sum() == (
        2 * lines)
    if lines:
        assert report.decode_errors == 0 and report.columns["lossy"].sum() == 0
        assert report.flagged == 2 * lines
        assert f"the file mixes encodings: 50 lines are {report.mixed_encoding}, read so; " \
               "the rest is UTF-8. 100 cells with non-ASCII text in those lines count as " \
               "mixed encoding, repairable" in report.notes[0]
        texts = LEGACY_TEXT["koi8-r" if "koi8" in case else "cp1252"]
        assert set(report.findings["repaired"]) == set(texts)   # read as written
        assert report.findings["original"].str.contains("\ufffd").all()
    else:
        assert report.columns["lossy"].sum() > 0
        assert "stay lossy" in report.notes[0]
    whole = scan_csv(body)
    assert whole.findings.sort_values(["line", "column"], ignore_index=True).equals(
        report.findings.sort_values(["line", "column"], ignore_index=True))


@pytest.mark.parametrize("chunk_rows", [100_000, 7], ids=["one-chunk", "7-row-chunks"])
def test_every_row_split_out_of_a_bare_cr_line_in_another_encoding_counts(
        chunk_rows: int) -> None:
    """30 windows-1252 rows ended by bare CRs (old Mac) are one line to the reader, split into
    rows: each of them holds its two mixed cells, not only the first (which alone counted)."""
    texts = LEGACY_TEXT["cp1252"]
    body = (b"id,name,note\n" + b"".join(
        f"{i},{texts[i % 4]},{texts[(i + 1) % 4]}\n".encode() for i in range(20))
        + b"".join(f"{i},{texts[i % 4]},{texts[(i + 1) % 4]}\r".encode("cp1252")
                   for i in range(20, 50)) + b"\n" + "50,Zoë,ok\n".encode())
    report = scan_csv(body, chunk_rows=chunk_rows)
    assert report.encoding == "utf-8" and report.mixed_encoding == "windows-1252"
    assert report.rows == 51
    assert report.columns["mixed_encoding"].sum() == 60
    assert "60 cells with non-ASCII text in those lines count as mixed encoding" in \
        report.notes[0]


def test_mixed_lines_are_told_by_line_and_host() -> None:
    """A mixed-encoding cell keeps its line; per host it counts as repairable, not lossy."""
    body = ("id,url,name\n1,https://a.example/,Zoë\n".encode()
            + "2,https://b.example/,Zoë\n".encode("cp1252"))
    report = scan_csv(body, host_column="url")
    assert report.findings[["line", "host", "kind"]].values.tolist() == [
        [3, "b.example", "mixed-encoding"]]
    assert report.hosts is not None
    assert report.hosts.set_index("host").loc["b.example", ["flagged", "repairable", "lossy"]
                                              ].tolist() == [1, 1, 0]
    assert json.loads(report.summary_json())["mixed_lines"] == 1


def test_pure_windows_1252_is_not_mixed() -> None:
    """A windows-1252 file is decided as such, as before: nothing mixed, nothing flagged."""
    body = b"id,name,note\n" + b"".join(
        f"{i},{LEGACY_TEXT['cp1252'][i % 4]},{LEGACY_TEXT['cp1252'][(i + 1) % 4]}\n".encode(
            "cp1252") for i in range(150))
    report = scan_csv(body, chunk_bytes=64)
    assert (report.encoding, report.mixed_encoding, report.mixed_lines) == (
        "windows-1252", None, 0)
    assert report.flagged == 0 and report.decode_errors == 0 and not report.notes


# --- scan_csv: bad input ---------------------------------------------------------------------

def test_file_over_the_limit() -> None:
    """A file larger than max_bytes is refused, saying both sizes."""
    with pytest.raises(CsvError, match=r"over the limit of 1 MiB"):
        scan_csv(b"a\n" + b"x" * (2 << 20), max_bytes=1 << 20)


def test_header_only() -> None:
    """A header and no rows: an empty report that says so."""
    report = scan_csv(b"name,city\n")
    assert report.rows == 0 and _counts(report) == {"name": (0, 0, 0, 0),
                                                    "city": (0, 0, 0, 0)}
    assert "no data rows" in " ".join(report.notes)


def test_ragged_rows_are_reported_and_scanned() -> None:
    """Short and long rows are listed by line; their named fields are scanned."""
    body = f"a,b\n{MOJIBAKE}\n1,2\nx,{MOJIBAKE},extra\n".encode()
    report = scan_csv(body)
    assert report.malformed.values.tolist() == [
        [2, "1 field, expected 2; the missing fields count as empty"],
        [4, "3 fields, expected 2; the extra fields are not scanned"]]
    assert report.malformed_count == 2
    assert _counts(report) == {"a": (3, 1, 1, 0), "b": (2, 1, 1, 0)}


def test_single_column_and_quoted_newlines() -> None:
    """One column, a quoted field across lines: records and line numbers stay right."""
    body = f'note\n"line one\nline two"\n"{MOJIBAKE}, with a comma"\n'.encode()
    report = scan_csv(body)
    assert report.rows == 2 and report.delimiter == ","
    assert report.findings[["row", "line"]].values.tolist() == [[1, 4]]


# (body, rows, malformed lines and problems, a note that must be there or None)
QUOTE_CASES = [
    (b'a,b\n1,"x\n2,y\n3,z\n', 1,
     [[2, "a quote opened on line 2 never closes: the rest of the file (3 lines, 10 "
          "characters) was read as one cell"]],
     "a quote opened on line 2 never closes"),
    (b'a,b,c\n1,2,3\n4,"x\n5,6,7\n8,9,10\n', 2,
     [[3, "2 fields, expected 3; the missing fields count as empty; a quote opened on line 3 "
          "never closes: the rest of the file (3 lines, 15 characters) was read as one cell"]],
     "close or remove that quote"),
    (b'id,name,comment\n1,a,ok\n2,"open,x\n3,b,c\n4,d,"late" close\n5,e,f\n', 3,
     [[3, "2 fields, expected 3; the missing fields count as empty; the record spans lines "
          "3-5, 28 characters in one cell: a quote opened on line 3 may have joined them"]],
     "line 3: 2 fields, expected 3"),
    (b'a,b\r\n1,"x\r\ny\r\n2,z\r\n', 1,
     [[2, "a quote opened on line 2 never closes: the rest of the file (3 lines, 11 "
          "characters) was read as one cell"]], None),
    (b'a,b\n1,"two\nlines"\n2,"x"', 2, [], None),
    (b'a,b\n0,ok\n1,"x\ny"', 2, [], None),
]


@pytest.mark.parametrize(("body", "rows", "malformed", "note"), QUOTE_CASES,
                         ids=["unclosed-to-the-end", "unclosed-and-short", "closed-lines-later",
                              "unclosed-crlf", "quoted-newline-then-eof",
                              "closed-at-eof-without-newline"])
def test_quotes_that_swallow_lines_say_where_they_opened(
        body: bytes, rows: int, malformed: list[list[object]], note: str | None) -> None:
    """A quote that never closes (or closes lines later) is named with its line and reach."""
    for chunk_bytes in (1 << 20, 8):
        report = scan_csv(body, chunk_bytes=chunk_bytes)
        assert report.rows == rows
        assert report.malformed.values.tolist() == malformed
        assert note is None or any(note in n for n in report.notes), report.notes


def test_million_character_cell() -> None:
    """A cell of a million characters is read and scanned."""
    body = ("id,text\n1," + "a" * 1_000_000 + MOJIBAKE + "\n2,ok\n").encode()
    report = scan_csv(body, chunk_bytes=64 * 1024)
    assert report.rows == 2 and report.flagged == 1
    assert report.findings["excerpt"].iloc[0].endswith(MOJIBAKE)
    assert len(report.findings["excerpt"].iloc[0]) < 200


def test_unknown_column_lists_the_header() -> None:
    """Asking for a column the file does not have names the ones it has."""
    with pytest.raises(CsvError, match="no column named 'nmae'; the header has: 'name'"):
        scan_csv(b"name\nx\n", ["nmae"])


def test_duplicate_and_empty_header_names() -> None:
    """Header names are made unique; empty ones get a position."""
    report = scan_csv(b"name,name,\na,b,c\n")
    assert report.columns["column"].tolist() == ["name", "name.1", "column 3"]


# --- scan_csv: sources, chunks, progress, exports ---------------------------------------------

def test_chunks_do_not_change_the_result() -> None:
    """Tiny chunks give the same counts, row numbers and lines as one chunk."""
    lines = [f"{i},{MOJIBAKE if i % 7 == 0 else 'fine'}" for i in range(300)]
    body = ("id,name\n" + "\n".join(lines) + "\n").encode()
    whole, chunked = scan_csv(body), scan_csv(body, chunk_rows=13, chunk_bytes=100)
    assert _counts(whole) == _counts(chunked)
    assert whole.findings.equals(chunked.findings)
    assert chunked.findings["line"].iloc[-1] == chunked.findings["row"].iloc[-1] + 2


def test_progress_reaches_the_size() -> None:
    """The progress callback sees bytes read growing up to the file's size."""
    body = b"a\n" + b"xyz\n" * 10_000
    seen: list[tuple[int, int | None]] = []
    scan_csv(body, chunk_bytes=4096, progress=lambda done, total: seen.append((done, total)))
    assert len(seen) > 5 and seen[-1] == (len(body), len(body))
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


def test_sources_path_file_object_and_stream(tmp_path: Path) -> None:
    """A path, an open file and a non-seekable stream give the same report."""
    body = f"name\n{MOJIBAKE}\n".encode()
    path = tmp_path / "x.csv"
    path.write_bytes(body)
    handle = io.BytesIO(body)

    class Stream(io.RawIOBase):
        def __init__(self) -> None:
            self.data = io.BytesIO(body)

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
            chunk = self.data.read(len(buffer))
            buffer[: len(chunk)] = chunk
            return len(chunk)

    for source in (path, str(path), handle, Stream()):
        assert scan_csv(source).flagged == 1  # type: ignore[arg-type]
    assert not handle.closed


def test_missing_path_is_a_clear_error(tmp_path: Path) -> None:
    """A path that cannot be opened raises CsvError."""
    with pytest.raises(CsvError, match="cannot open"):
        scan_csv(tmp_path / "nope.csv")


def test_summary_json_and_findings_csv() -> None:
    """The summary is JSON; the findings export is UTF-8 CSV with a BOM."""
    report = scan_csv(f"name,url\n{MOJIBAKE},https://a.example/\n".encode(), host_column="url")
    summary = json.loads(report.summary_json())
    assert summary["encoding"] == "utf-8" and summary["flagged"] == 1
    assert summary["columns"][0]["repairable"] == 1
    assert summary["hosts"][0]["host"] == "a.example"
    exported = report.findings_csv()
    assert exported.startswith(b"\xef\xbb\xbfrow,line,column,host,kind,original,repaired")
    assert pd.read_csv(io.BytesIO(exported), encoding="utf-8-sig")["repaired"][0] == "José García"


def test_samples_scan() -> None:
    """The bundled samples read without errors and show findings."""
    for path in (SAMPLES / "customers_mojibake.csv", SAMPLES / "products_windows1252.csv"):
        report = scan_csv(path)
        assert report.malformed_count == 0, path.name
        assert report.flagged > 0, path.name


def test_read_header_leaves_a_file_object_where_it_was() -> None:
    """The header is read from the first record; an open file's position is kept."""
    handle = io.BytesIO("\ufeffname;Source URL\nx;y\n".encode())
    assert read_header(handle) == ["name", "Source URL"]
    assert handle.tell() == 0
    assert guess_host_column(read_header(handle)) == "Source URL"
    with pytest.raises(CsvError, match="PNG image"):
        read_header(b"\x89PNG\r\n\x1a\n\x00\x00")


def test_partly_damaged_cells_are_their_own_category():
    """A cell with a repair that leaves characters lost counts as partly repairable, apart
    from the wholly repairable and the lossy cells, per column and per host."""
    import pandas as pd

    frame = pd.DataFrame({
        "comment": ["Oâ€™Brien said â€œhelloâ€\ufffd â€“ ok", "JosÃ© said hi", "Jos? Garc?a",
                    "fine text"],
        "url": ["http://a.example/1", "http://a.example/2", "http://b.example/", "http://b.example/"]})
    report = scan_frame(frame, columns=["comment"], host_column="url")
    row = report.columns.set_index("column").loc["comment"]
    assert (row["flagged"], row["repairable"], row["partly_repairable"], row["lossy"]) == (
        3, 1, 1, 1)
    hosts = report.hosts.set_index("host")
    assert hosts.loc["a.example", "partly_repairable"] == 1
    partly = report.findings[report.findings["kind"] == "partly-repairable"]
    assert partly["repaired"].tolist() == ["O’Brien said “hello\ufffd – ok"]


def test_a_parquet_file_of_many_row_groups_is_scanned(tmp_path):
    """150,000 rows written in row groups of 20,000 (chunked columns after read_parquet), and
    pandas 3 strings after a concat: scanned, not an AttributeError or TypeError."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = [f"JosÃ© {i}" if i % 100 == 0 else f"Name {i % 5000}" for i in range(150_000)]
    path = tmp_path / "people.parquet"
    pq.write_table(pa.table({"name": names}), path, row_group_size=20_000)
    frame = pd.read_parquet(path)
    report = scan_frame(frame)
    assert report.columns.set_index("column").loc["name", "flagged"] == 1_500
    joined = pd.concat([frame.iloc[:70_000], frame.iloc[70_000:]])
    assert scan_frame(joined).columns.set_index("column").loc["name", "flagged"] == 1_500


# --- hostile headers (issue 28): linear in the header ---------------------------------------

@pytest.mark.parametrize(("header", "count"), [
    (b",".join([b"a"] * 4_000), 4_000),
    (b",".join([b"a", b"a.1", b"a.2"] * 3_000), 9_000),
], ids=["4000-columns-named-a", "suffixes-already-taken"])
def test_repeated_header_names_are_made_unique_in_linear_time(header: bytes, count: int) -> None:
    """Header names are made unique in one pass (a loop over a list took 243 s for 4,000 columns
    named ``a``): every name unique, each repeat suffixed, the scan under a generous limit."""
    body = header + b"\n" + b",".join([b"x"] * count) + b"\n"
    with within(30, f"a header of {count:,} columns"):
        names = scan_csv(body).columns["column"].tolist()
    assert len(names) == len(set(names)) == count
    assert all(name == raw or name.startswith(raw + ".") for name, raw in zip(
        names, header.decode().split(","), strict=True))


def test_a_header_of_100000_distinct_names_is_made_unique_in_linear_time() -> None:
    """100,000 distinct column names (106 s before, each looked up in a list): at once."""
    fields = [f"c{i}" for i in range(100_000)] + ["c0"] * 1_000
    with within(10, "a header of 101,000 columns"):
        names = csvscan._column_names(fields)
    assert names[:2] == ["c0", "c1"] and names[-1] == "c0.1000" and len(set(names)) == 101_000


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"],
                         ids=["equals", "plus", "minus", "at", "tab", "carriage-return"])
def test_findings_csv_writes_formula_cells_as_text(start: str) -> None:
    """A flagged cell that a spreadsheet would run (``=HYPERLINK(...)``, ``@SUM(...)``) is
    exported with a leading apostrophe (written raw, with a BOM so a spreadsheet opened it
    directly, before); its repair too."""
    body = f'name\n"{start}HYPERLINK(""http://x"")  {MOJIBAKE}"\n'.encode()
    exported = pd.read_csv(io.BytesIO(scan_csv(body).findings_csv()), encoding="utf-8-sig",
                           keep_default_na=False)
    assert exported["original"][0].startswith(f"'{start}HYPERLINK")
    assert exported["repaired"][0].startswith(f"'{start}HYPERLINK")
    assert exported["excerpt"][0][:1] not in ("=", "+", "-", "@", "\t", "\r")


def test_a_quote_that_never_closes_is_bounded_by_the_cell_limit() -> None:
    """A quote opened on line 2 of a file longer than FIELD_LIMIT characters (the rest of a
    115 MB file was one cell of 1.0 GB before) is cut at the limit, named with the limit, and
    the lines after it are read again as rows."""
    from encoding_core.fields.csvread import FIELD_LIMIT

    lines = FIELD_LIMIT // 5 + 200_000
    body = b"id,name\n1,\"never closes\n" + b"2,ok\n" * lines
    report = scan_csv(body)
    problems = report.malformed["problem"].tolist()
    assert any(f"a cell runs past {FIELD_LIMIT:,} characters" in p for p in problems)
    assert report.rows > 100_000


@pytest.mark.parametrize(("lines", "ending"), [
    ([b"Jos\xc3\xa9,Paris\r", b"Ann,Lyon\r\n", b"Bob,Nice\n"], "a bare CR"),
    ([b"Jos\xc3\xa9,Paris\r\n", b"Ann,Lyon\r", b"Bob,Nice\r\n", b"Eve,Metz\r\n"], "a bare CR"),
], ids=["cr-in-lf-file", "cr-in-crlf-file"])
def test_mixed_line_endings_are_counted_in_rows_and_every_row_scanned(
        tmp_path: Path, lines: list[bytes], ending: str) -> None:
    """Issue 28 item 11: a line that another line break splits holds rows, not one bad record:
    each row is read and scanned, and the damage is counted (and noted) in rows."""
    path = tmp_path / "mixed.csv"
    path.write_bytes(b"name,city\n" + b"".join(lines * 1_000))
    report = scan_csv(path)
    per_copy = sum(line.count(b"\r") + line.count(b"\n") - line.count(b"\r\n") for line in lines)
    assert report.rows == per_copy * 1_000
    split = report.malformed_count
    assert split == 2_000 and f"{split:,} malformed rows (see the list of lines)" in report.notes
    problem = report.malformed["problem"][0]
    assert ending in problem and "holds 2 rows, each read as its own row" in problem


def test_host_tallies_with_thousands_of_hosts_are_the_plain_counts():
    """Rows and non-empty cells per host, counted in one pass over each chunk (a comparison
    a host was a pass each: 160,000 distinct hosts took 19 s), equal the plain count of them,
    missing hosts included, in chunks of any size."""
    rng = random.Random(11)
    hosts = [rng.choice([f"h{rng.randrange(3000)}.example", None]) for _ in range(6_000)]
    values = [rng.choice(["x", "", "JosÃ©", None]) for _ in hosts]
    df = pd.DataFrame({"host": hosts, "v": values})
    wanted: dict[str, list[int]] = {}
    for host, value in zip(hosts, values, strict=True):
        tally = wanted.setdefault(host if host is not None else "(none)", [0, 0])
        tally[0] += 1
        tally[1] += bool(value)
    for chunk_rows in (None, 1_000):
        kwargs = {} if chunk_rows is None else {"chunk_rows": chunk_rows}
        found = scan_frame(df, host_column="host", **kwargs).hosts
        assert {row.host: [row.rows, row.cells] for row in found.itertuples()} == wanted
