"""What importing costs: ``import encoding_core`` and a first ``decode``, beside the peers.

    .venv/bin/python bench/bench_imports.py [--repeats N] [--json PATH]

Each import runs in a fresh interpreter (``python -X importtime``, the cumulative time of the
top-level module), ``--repeats`` times, alternating between the modules so that a busy
neighbour hits them all; the fastest run of each is kept. Peers: w3lib's ``encoding`` module,
charset_normalizer and ftfy (what a crawler importing them pays). Beside them, the wall time
of ``import encoding_core`` plus one declared ``decode`` (which imports the decision and the
standards: what a crawler pays before its first page), and the modules that leaves loaded.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("encoding_core", "w3lib.encoding", "charset_normalizer", "ftfy")
FIRST_DECODE = ("import sys, time\n"
                "t = time.perf_counter()\n"
                "import encoding_core\n"
                "encoding_core.decode(b'caf\\xc3\\xa9', 'text/html; charset=iso-8859-1')\n"
                "print(int((time.perf_counter() - t) * 1e6))\n"
                "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n")


def _run(code: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *flags, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})


def import_us(module: str) -> int:
    """The cumulative import time of ``module`` in a fresh interpreter, in microseconds."""
    lines = _run(f"import {module}", "-X", "importtime").stderr.splitlines()
    return int(next(line for line in lines if line.endswith(f"| {module}")).split("|")[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    best: dict[str, int] = {}
    first: list[int] = []
    loaded = ""
    for _ in range(args.repeats):
        for module in MODULES:
            us = import_us(module)
            best[module] = min(best.get(module, us), us)
        out = _run(FIRST_DECODE).stdout.splitlines()
        first.append(int(out[0]))
        loaded = out[1]
    ours = best["encoding_core"]
    print(f"import time, fastest of {args.repeats} (python -X importtime, cumulative)")
    for module in MODULES:
        print(f"   {module:<20} {best[module] / 1000:8.1f} ms   encoding_core / it "
              f"{ours / best[module]:.2f}")
    print(f"   import encoding_core + first decode: {min(first) / 1000:.1f} ms")
    heavy = sorted(set(loaded.split()) & {"numpy", "httpx", "ruamel", "pandas", "pyarrow",
                                          "ftfy", "fastwarc", "prometheus_client"})
    print(f"   heavy modules loaded after the first decode: {heavy or 'none'}")
    if args.json:
        args.json.write_text(json.dumps({"import_us": best, "first_decode_us": min(first),
                                         "heavy_loaded": heavy}, indent=2))


if __name__ == "__main__":
    main()
