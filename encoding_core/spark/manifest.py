"""WARC paths for a job: files as given, and manifests as Common Crawl publishes them.

A manifest (``warc.paths``, ``warc.paths.gz``) holds one path a line, relative to the bucket
(``crawl-data/CC-MAIN-.../x.warc.gz``); ``prefix`` is put before each relative line (e.g.
``s3a://commoncrawl/``). Blank lines and ``#`` comments are skipped and counted. A line that
cannot be a path (a control character, a space inside, bytes that are not UTF-8) is named with
its line number and left out; a manifest cut short keeps the lines before the cut and says so.
The job goes on with the rest: nothing is dropped without a word.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Paths", "expand_paths", "is_manifest"]

_MANIFEST_SUFFIXES = (".paths", ".paths.gz")


@dataclass(frozen=True, slots=True)
class Paths:
    """The WARC paths found, how many manifest lines were not paths, and what was wrong."""

    paths: tuple[str, ...]
    skipped: int = 0                 # blank lines and comments
    problems: tuple[str, ...] = ()   # a bad line, a manifest cut short or unreadable


def is_manifest(path: str) -> bool:
    """True for ``*.paths`` and ``*.paths.gz``.

    >>> is_manifest("warc.paths.gz"), is_manifest("a.warc.gz")
    (True, False)
    """
    return path.endswith(_MANIFEST_SUFFIXES)


def _bad(line: str) -> str | None:
    """Why ``line`` (stripped) cannot be a path, or None."""
    if "\ufffd" in line:
        return "bytes that are not UTF-8"
    if any(c.isspace() for c in line):
        return "a space inside"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in line):
        return "a control character"
    return None


def _lines(path: str) -> Iterable[bytes]:
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as handle:
            yield from handle
    else:
        with open(path, "rb") as handle:
            yield from handle


def expand_paths(paths: Iterable[str], prefix: str = "") -> Paths:
    """The WARC paths in ``paths`` (files kept as given, manifests read line by line)."""
    found: list[str] = []
    problems: list[str] = []
    skipped = 0
    for path in paths:
        if not is_manifest(path):
            found.append(path)
            continue
        number = 0
        try:
            for number, raw in enumerate(_lines(path), start=1):
                line = raw.decode("utf-8", "replace").strip()
                if not line or line.startswith("#"):
                    skipped += 1
                elif (why := _bad(line)) is not None:
                    problems.append(f"{path} line {number}: not a path ({why}): {line[:80]!r}")
                else:
                    found.append(line if "://" in line or line.startswith("/")
                                 else prefix + line)
        except (OSError, EOFError, zlib.error) as exc:
            where = f" after line {number}" if number else ""
            problems.append(f"{path}: cannot be read{where}: {exc}")
    return Paths(tuple(found), skipped, tuple(problems))
