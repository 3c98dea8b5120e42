"""Generate encoding_core/whatwg/_tables/single_byte.py and cjk.py from the WHATWG indexes.json.

Usage: python scripts/gen_index_tables.py [path/to/indexes.json]

* ``single_byte.py``: one 256-character decoding table per single-byte encoding (for
  ``codecs.charmap_decode``), U+FFFE where the index has no code point; x-user-defined too.
* ``cjk.py``: what ``encoding_core.whatwg.decoders`` needs on top of Python's CJK codecs to decode
  exactly as WHATWG: the corrections to each index as derived from a Python codec, the gb18030
  ranges, and the fast-path fixes, found by decoding every byte sequence the Python codec accepts
  with both the codec and the WHATWG decoder (``encoding_core.whatwg._cjk`` over indexes.json).
  The result depends on the Python version's codecs, so its header names that version.

The outputs are never hand-edited: change this script and run it again (about a minute).
"""

from __future__ import annotations

import json
import platform
import sys
from collections import defaultdict
from collections.abc import Iterator
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_SOURCE = ROOT / "conformance" / "whatwg-encoding" / "indexes.json"
PINNED = "whatwg/encoding at commit a985b62a9b45 (2026-05-21)"
OUT = ROOT / "encoding_core" / "whatwg" / "_tables"
NUL = "\ufffe"  # encoding_core.whatwg._cjk.NUL_CP: no code point
CJK_INDEXES = ("gb18030", "big5", "jis0208", "jis0212", "euc-kr")


def header(what: str, extra: str = "") -> list[str]:
    return [
        f'"""{what} Generated from indexes.json, {PINNED},',
        f"by scripts/gen_index_tables.py{extra}. Do not edit by hand.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
    ]


def literal(text: str, indent: str, width: int = 16) -> list[str]:
    """``text`` as an ASCII-only implicitly concatenated string literal, ``width`` per line."""
    lines = [f"{indent}{text[i:i + width]!a}" for i in range(0, len(text), width)]
    return lines or [f"{indent}''"]


def single_byte(indexes: dict[str, list[int | None]]) -> None:
    tables: dict[str, str] = {}
    for name, index in indexes.items():
        if len(index) != 128:
            continue
        upper = "".join(NUL if cp is None else chr(cp) for cp in index)
        assert "\ufffd" not in upper and NUL not in [chr(cp) for cp in index if cp is not None]
        tables[name] = "".join(map(chr, range(128))) + upper
    assert len(tables) == 27, sorted(tables)  # + iso-8859-8-i and x-user-defined = 29
    tables["iso-8859-8-i"] = tables["iso-8859-8"]  # same index (Encoding, "index single-byte")
    # x-user-defined decoder: 0x80-0xFF -> U+F780-U+F7FF
    tables["x-user-defined"] = "".join(map(chr, range(128))) + "".join(
        chr(0xF780 + b - 0x80) for b in range(0x80, 0x100))
    lines = header("Single-byte decoding tables (256 characters each; U+FFFE: no code point).")
    lines.append("TABLES: dict[str, str] = {")
    for name in sorted(tables):
        lines.append(f"    {name!r}: (")
        lines.extend(literal(tables[name], " " * 8))
        lines.append("    ),")
    lines.append("}")
    write(OUT / "single_byte.py", lines, f"{len(tables)} tables")


def python_units(codec: str, name: str) -> Iterator[bytes]:
    """Every byte sequence that ``codec`` decodes as one unit (a lead byte's whole sequence)."""
    singles = set()
    for b in range(256):
        try:
            bytes((b,)).decode(codec)
            singles.add(b)
            yield bytes((b,))
        except UnicodeDecodeError:
            pass
    for lead in range(256):
        if lead not in singles:
            for trail in range(256):
                yield bytes((lead, trail))
    if name == "euc-jp":
        for b2 in range(256):
            for b3 in range(256):
                yield bytes((0x8F, b2, b3))
    if name == "gb18030":
        for b1 in range(0x81, 0xFF):
            for b2 in range(0x30, 0x3A):
                for b3 in range(0x81, 0xFF):
                    for b4 in range(0x30, 0x3A):
                        yield bytes((b1, b2, b3, b4))


def fast_path(
    name: str, codec: str, whatwg: object
) -> tuple[dict[str, str], str, list[tuple[bytes, str]]]:
    """Compare ``codec`` with the WHATWG decoder on every unit the codec decodes."""
    # char the codec produces -> [(agrees, WHATWG text or None if an error), ...]
    producers: dict[str, list[tuple[bool, str | None]]] = defaultdict(list)
    disagreements: list[tuple[bytes, str, str | None]] = []
    for unit in python_units(codec, name):
        try:
            ours = unit.decode(codec)
        except UnicodeDecodeError:
            continue
        out: list[str] = []
        errors: list[int] = []
        whatwg(unit, 0, False, out, errors)  # type: ignore[operator]
        theirs = None if errors else "".join(out)
        agrees = ours == theirs
        for char in ours:
            producers[char].append((agrees, theirs))
        if not agrees:
            disagreements.append((unit, ours, theirs))
    fixes: dict[str, str] = {}
    suspect_chars: set[str] = set()
    suspect_bytes: list[tuple[bytes, str]] = []
    for unit, ours, theirs in disagreements:
        only_here = [c for c in ours if not any(agrees for agrees, _ in producers[c])]
        if (len(ours) == 1 and only_here and theirs is not None
                and {t for _, t in producers[ours]} == {theirs}):
            fixes[ours] = theirs  # translate afterwards
        elif only_here:
            suspect_chars.add(only_here[0])  # its presence means: decode the slow way
        else:
            suspect_bytes.append((unit, ours))
        print(f"  {name}: {unit.hex()} {codec} {ours!a} WHATWG {theirs!a}")
    return fixes, "".join(sorted(suspect_chars)), suspect_bytes


def cjk(indexes: dict[str, list[int | None]]) -> None:
    from encoding_core.whatwg import _cjk, _decoders_cjk

    tables = {n: "".join(NUL if cp is None else chr(cp) for cp in indexes[n]) for n in CJK_INDEXES}
    ranges_json = indexes["gb18030-ranges"]
    ranges = (tuple(int(p) for p, _ in ranges_json), tuple(int(c) for _, c in ranges_json))  # type: ignore[misc]
    lines = header(
        "Multi-byte (CJK) decoding data for encoding_core.whatwg._decoders_cjk.",
        f",\nwith the codecs of Python {platform.python_version()}",
    )
    lines += ["# Number of pointers in each index.", "INDEX_LENGTHS: dict[str, int] = {"]
    lines += [f"    {n!r}: {len(tables[n])}," for n in CJK_INDEXES]
    lines += ["}", "", "# Where each index differs from the Python codec it is derived from",
              "# (_decoders_cjk._INDEX_SOURCES): (first pointer, code points from there;",
              "# U+FFFE: none).",
              "INDEX_PATCHES: dict[str, tuple[tuple[int, str], ...]] = {"]
    for name in CJK_INDEXES:
        derived = _decoders_cjk._derive_index(name, len(tables[name]))
        runs: list[tuple[int, str]] = []
        for pointer, (want, got) in enumerate(zip(tables[name], derived, strict=True)):
            if want == got:
                continue
            if runs and runs[-1][0] + len(runs[-1][1]) == pointer:
                runs[-1] = (runs[-1][0], runs[-1][1] + want)
            else:
                runs.append((pointer, want))
        lines.append(f"    {name!r}: (")
        for start, run in runs:
            if run == run[0] * len(run) and len(run) > 4:
                lines.append(f"        ({start}, {run[0]!a} * {len(run)}),")
            else:
                lines.append(f"        ({start}, {run!a}),")
        lines.append("    ),")
        print(f"{name}: {sum(len(r) for _, r in runs)} corrections in {len(runs)} runs")
    lines += ["}", "", "# index gb18030 ranges: (pointers, code points)",
              "GB18030_RANGES: tuple[tuple[int, ...], tuple[int, ...]] = ("]
    lines += [f"    {ranges[0]!r},", f"    {ranges[1]!r},", ")", ""]
    katakana = "".join(chr(cp) for cp in indexes["iso-2022-jp-katakana"])  # type: ignore[arg-type]
    lines += ["# index ISO-2022-JP katakana (U+FF61..U+FF9F -> fullwidth)",
              f"ISO_2022_JP_KATAKANA = {katakana!a}", ""]
    steps = {
        "gb18030": partial(_cjk.decode_gb18030, index=tables["gb18030"], ranges=ranges),
        "big5": partial(_cjk.decode_big5, index=tables["big5"]),
        "euc-jp": partial(_cjk.decode_euc_jp, jis0208=tables["jis0208"], jis0212=tables["jis0212"]),
        "shift_jis": partial(_cjk.decode_shift_jis, jis0208=tables["jis0208"]),
        "euc-kr": partial(_cjk.decode_euc_kr, index=tables["euc-kr"]),
    }
    fixes_all, chars_all, bytes_all = {}, {}, {}
    for name, codec in _decoders_cjk._FAST_CODECS.items():
        fixes, chars, units = fast_path(name, codec, steps[name])
        fixes_all[name], chars_all[name], bytes_all[name] = fixes, chars, tuple(units)
    lines += [
        "# Characters the fast-path codec produces only where WHATWG decodes differently, with",
        "# WHATWG's text: translated after a fast decode.",
        "FAST_PATH_FIXES: dict[str, dict[str, str]] = {",
    ]
    for name, fixes in fixes_all.items():
        lines.append(f"    {name!r}: {{")
        lines += [f"        {k!a}: {v!a}," for k, v in sorted(fixes.items())]
        lines.append("    },")
    lines += ["}", "",
              "# Characters the codec produces only where WHATWG reports an error: slow path.",
              "FAST_PATH_SUSPECT_CHARS: dict[str, str] = {"]
    lines += [f"    {n!r}: {c!a}," for n, c in chars_all.items()]
    lines += ["}", "",
              "# (bytes, codec's text) the codec decodes differently from WHATWG where the text",
              "# alone cannot tell: both in the input and the output mean the slow path.",
              "FAST_PATH_SUSPECT_BYTES: dict[str, tuple[tuple[bytes, str], ...]] = {"]
    for name, pairs in bytes_all.items():
        lines.append(f"    {name!r}: (")
        lines += [f"        ({unit!r}, {text!a})," for unit, text in pairs]
        lines.append("    ),")
    lines.append("}")
    write(OUT / "cjk.py", lines, "multi-byte data")


def write(path: Path, lines: list[str], what: str) -> None:
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    print(f"wrote {path} ({what})")


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    indexes = json.loads(source.read_text(encoding="utf-8"))
    single_byte(indexes)
    cjk(indexes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
