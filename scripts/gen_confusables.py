"""Generate encoding_core/overrides/_confusables.py from Unicode's confusables.txt (UTS #39).

Usage: python scripts/gen_confusables.py [path/to/confusables.txt]

Each line ``source ; prototype ; MA # comment`` maps one code point to the prototype it is
confusable with (https://www.unicode.org/reports/tr39/#Confusable_Detection). The output keeps
that map as one string per line, read lazily by ``overrides.names``; it is never hand-edited:
change this script and run it again.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT / "conformance" / "unicode-confusables" / "confusables.txt"
OUT = ROOT / "encoding_core" / "overrides" / "_confusables.py"


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    text = source.read_text(encoding="utf-8-sig")
    version = next(line.split(":", 1)[1].strip() for line in text.splitlines()
                   if line.startswith("# Version:"))
    rows = []
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        src, target, _kind = (field.strip() for field in data.split(";"))
        rows.append((int(src, 16), " ".join(target.split())))
    lines = [
        f'"""Unicode confusables (UTS #39 confusables.txt, version {version}), as',
        "source and prototype code points in hex, one pair a line. Generated from",
        "conformance/unicode-confusables/confusables.txt by scripts/gen_confusables.py.",
        'Do not edit by hand."""',
        "",
        "from __future__ import annotations",
        "",
        f'VERSION = "{version}"',
        "",
        'PAIRS = """\\',
    ]
    lines += [f"{src:04X} {target}" for src, target in rows]
    lines += ['"""', ""]
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: {len(rows)} pairs from Unicode {version}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
