"""Generate encoding_core/whatwg/_tables/labels.py from the WHATWG encodings.json.

Usage: python scripts/gen_tables.py [path/to/encodings.json]

The output is never hand-edited: change this script and run it again.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT / "conformance" / "whatwg-encoding" / "encodings.json"
PINNED = "whatwg/encoding at commit a985b62a9b45 (2026-05-21)"


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    groups = json.loads(source.read_text(encoding="utf-8"))
    lines = [
        f'"""WHATWG label table. Generated from encodings.json, {PINNED},',
        'by scripts/gen_tables.py. Do not edit by hand."""',
        "",
        "from __future__ import annotations",
        "",
        "# label (ASCII lower case) -> canonical name (lower case)",
        "LABELS: dict[str, str] = {",
    ]
    names: list[str] = []
    for group in groups:
        for enc in group["encodings"]:
            name = enc["name"].lower()
            names.append(name)
            for label in enc["labels"]:
                lines.append(f"    {label!r}: {name!r},")
    lines.append("}")
    lines.append("")
    lines.append("# canonical names in the order of the Encoding Standard's table")
    lines.append("NAMES: tuple[str, ...] = (")
    lines.extend(f"    {n!r}," for n in names)
    lines.append(")")
    out = ROOT / "encoding_core" / "whatwg" / "_tables" / "labels.py"
    out.parent.mkdir(exist_ok=True)
    (out.parent / "__init__.py").write_text('"""Generated tables; see scripts/."""\n')
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(names)} encodings)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
