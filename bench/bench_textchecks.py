"""The checks after the walk (issue 27): this tree's against another's, back to back.

    .venv/bin/python bench/bench_textchecks.py [--quick] [--base /work/main] [--rounds N]
                                               [--repeats N] [--json PATH]

Per page, three timings, each the fastest of ``--repeats``: ``find_conflicts`` on the record
the decision hands it (``decode.what_checks_read``), ``mixed_single_byte`` (the mixed-page
check ``checks.record.check_input`` runs once per record), and ``decode`` whole, with w3lib's
``html_to_unicode`` on the same page as the yardstick a busy machine moves alike. Summed by
set: the real-world-shaped pages (``realworld.py``) by how they are served and what encoding
kind, and by family; the generated corpus (``corpus.py``) by declared or not and size.

Two trees cannot share one process (both are ``encoding_core``), so each round runs a worker
process in ``--base`` (main's checkout, its extensions built) and one in this tree, back to
back; each set keeps its fastest round. The numbers that compare are the ratios in one run:
``base / this`` for the same set, and each tree's ``w3lib / decode``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_CJK = frozenset({"chinese", "japanese", "korean", "taiwanese"})


def _pages(quick: bool) -> list[tuple[list[str], bytes, str | None]]:
    """(the sets a page counts in, body, Content-Type) for every page."""
    import corpus
    import realworld

    found: list[tuple[list[str], bytes, str | None]] = []
    for page in realworld.pages():
        kind = ("UTF-8" if page.encoding == "utf-8" else "CJK" if page.family in _CJK
                else "single-byte")
        served = page.served if page.served != "declared" else f"declared {kind}"
        names = [f"real-world {served}"]
        if page.served == "declared":
            names.append(f"real-world declared, family {page.family}")
        found.append((names, page.body, page.content_type))
    for sample in corpus.build_corpus(quick=quick):
        how = "declared" if sample.declared else "undeclared"
        found.append(([f"generated {how}, {sample.size}"], sample.body, None))
    return found


def work(quick: bool, repeats: int) -> dict[str, dict[str, float]]:
    """In a worker: set -> {"pages", "checks", "mixed", "decode", "w3lib"} (seconds, summed
    over pages of each page's fastest of ``repeats``)."""
    from w3lib.encoding import html_to_unicode

    from encoding_core import decode
    from encoding_core.decision.conflicts import find_conflicts
    from encoding_core.decision.decode import what_checks_read
    from encoding_core.decision.mixedpage import mixed_single_byte

    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    clock = time.perf_counter
    for names, page, content_type in _pages(quick):
        given = what_checks_read(page, content_type)
        best = dict.fromkeys(("checks", "mixed", "decode", "w3lib"), float("inf"))
        for _ in range(repeats):
            body = bytes(bytearray(page))   # a fresh object: no memo carries between repeats
            t0 = clock()
            find_conflicts(given)
            t1 = clock()
            mixed_single_byte(given.body, given.encoding, given.source, given.detector)
            t2 = clock()
            decode(body, content_type)
            t3 = clock()
            html_to_unicode(content_type, body)
            t4 = clock()
            for key, spent in (("checks", t1 - t0), ("mixed", t2 - t1), ("decode", t3 - t2),
                               ("w3lib", t4 - t3)):
                best[key] = min(best[key], spent)
        for name in names:
            sums[name]["pages"] += 1
            for key, spent in best.items():
                sums[name][key] += spent
    return {name: dict(row) for name, row in sums.items()}


def _run_worker(tree: Path, quick: bool, repeats: int) -> dict[str, dict[str, float]]:
    command = [sys.executable, str(ROOT / "bench" / "bench_textchecks.py"), "--worker",
               "--repeats", str(repeats)] + (["--quick"] if quick else [])
    env = {**os.environ, "PYTHONPATH": f"{tree}:{tree / 'bench'}"}
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True,
                          check=True)
    loaded: dict[str, dict[str, float]] = json.loads(done.stdout)
    return loaded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the quick corpus")
    parser.add_argument("--base", type=Path, default=Path("/work/main"),
                        help="the tree to compare with (its extensions built)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write the numbers here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        sys.path[:0] = [str(Path.cwd()), str(Path.cwd() / "bench")]
        print(json.dumps(work(args.quick, args.repeats)))
        return 0
    best: dict[str, dict[str, dict[str, float]]] = {"base": {}, "this": {}}
    for _ in range(args.rounds):
        for tree_name, tree in (("base", args.base), ("this", ROOT)):
            for name, row in _run_worker(tree, args.quick, args.repeats).items():
                kept = best[tree_name].setdefault(name, row)
                for key in ("checks", "mixed", "decode", "w3lib"):
                    kept[key] = min(kept[key], row[key])
    print(f"{'set':44} {'pages':>5}  {'checks us base->this':>21}  {'mixed us':>13}  "
          f"{'decode us':>15}  {'w3lib/decode base->this':>23}")
    for name in sorted(best["this"]):
        this, base = best["this"][name], best["base"].get(name)
        if base is None:
            continue
        pages = this["pages"]

        def us(row: dict[str, float], key: str, pages: float = pages) -> float:
            return row[key] / pages * 1e6

        print(f"{name:44} {pages:5.0f}  {us(base, 'checks'):9.2f} -> {us(this, 'checks'):7.2f}"
              f"  {us(base, 'mixed'):5.1f} -> {us(this, 'mixed'):4.1f}"
              f"  {us(base, 'decode'):6.1f} -> {us(this, 'decode'):6.1f}"
              f"  {base['w3lib'] / base['decode']:10.2f} -> {this['w3lib'] / this['decode']:.2f}")
    if args.json:
        args.json.write_text(json.dumps(best, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

