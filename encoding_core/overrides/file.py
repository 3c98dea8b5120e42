"""The overrides YAML file: round-trip read and write, validation with line numbers.

The file is meant to be reviewed like code, so it is read and written with ruamel.yaml in
round-trip mode: comments, key order and quoting survive every write (indentation is
normalised to 2/4/2). A file that does not parse or does not validate raises
``OverrideFileError`` naming the file, the line and the key; nothing here writes such a file.

Each entry's history is kept in the entry itself (``history:``), not in a sibling log: a
change and its record then reach the disk in one atomic rename, review together in one diff,
and cannot drift apart after a crash between two writes.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import stat
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.representer import RoundTripRepresenter

from .schema import ENTRY_KEYS, Document, OverrideFileError, validate

__all__ = [
    "NEW_FILE",
    "appended_text",
    "extend_document",
    "parse_document",
    "read_document",
    "render",
    "revalidate",
    "set_field",
    "write_atomic",
]

NEW_FILE = """\
# Site encoding overrides for Encoding Triage, reviewed like code.
# Every entry has a reason, a review date, and a reviewer who is not its author; it applies
# until its review date, then a reviewer re-tests it and renews or retires it.
# Change it on the Overrides page or by hand; `python -m encoding_core overrides check`
# fails (exit 1) when an entry is expired or due, and (exit 2) when the file is invalid.
version: 1
# Who may approve, reject and renew. Empty: anyone but the entry's author. When it lists
# people, e.g. [alice@example.com, bob@example.com], only a listed person whose identity the
# app verified (signed in through its OpenID Connect provider, or named by a trusted proxy
# header) may; a typed name never does. Names compare as people read them: case, look-alike
# letters (a Cyrillic а for a) and invisible characters make no difference.
reviewers: []
overrides: []
"""

class _Representer(RoundTripRepresenter):
    """Never writes anchors for dates and times: a change and its history event share the
    same value object, and ``&id001``/``*id001`` would only make the file harder to review."""

    def ignore_aliases(self, data: Any) -> bool:
        if isinstance(data, date):
            return True
        return bool(super().ignore_aliases(data))


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.Representer = _Representer
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 100
    yaml.preserve_quotes = True
    return yaml


def read_document(path: Path) -> Document:
    """Read and validate ``path``; a missing file is an empty document (written on first change)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return parse_document(path, "", template=NEW_FILE)
    except OSError as exc:
        raise OverrideFileError(path, None, f"cannot read the file: {exc.strerror}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise OverrideFileError(path, line, f"not UTF-8 (byte 0x{data[exc.start]:02x} at "
                                f"offset {exc.start})") from exc
    # A file saved with CRLF is read as LF (YAML reads both alike; ruamel would keep the CR in
    # its comments and a write would mix line ends): the next write is LF throughout.
    return parse_document(path, text.replace("\r\n", "\n"))


def parse_document(path: Path, text: str, *, template: str = "version: 1\noverrides: []\n"
                   ) -> Document:
    """Parse ``text`` (the content of ``path``) into a validated ``Document``."""
    try:
        root = _yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        context = str(exc.context or "")
        if context and exc.context_mark is not None and exc.context_mark.line + 1 != line:
            context += f" (started on line {exc.context_mark.line + 1})"
        reason = " ".join(p for p in (context, str(exc.problem or "")) if p) or "syntax error"
        raise OverrideFileError(path, line, f"not valid YAML: {reason}") from exc
    except YAMLError as exc:
        raise OverrideFileError(path, None, f"not valid YAML: {exc}") from exc
    except ValueError as exc:  # a timestamp that is no date (2027-02-30), built while loading
        line = _impossible_date_line(text)
        raise OverrideFileError(path, line, f"not a date that exists ({exc})") from exc
    except RecursionError as exc:  # ``[[[[...`` thousands deep
        raise OverrideFileError(path, _deepest_line(text), "not valid YAML: nested too deeply "
                                "to read (an overrides file is three levels deep)") from exc
    prefix = ""
    if root is None:  # empty or comments only: keep the comments, add the data below them
        prefix = text if not text or text.endswith("\n") else text + "\n"
        root = _yaml().load(template)
    doc = Document(path=path, text=text, prefix=prefix, root=root)
    validate(doc)
    return doc


_DATE = re.compile(r"(?<![\d-])(\d{4})-(\d{2})-(\d{2})(?![\d-])")


def _impossible_date_line(text: str) -> int | None:
    """The line of the first ``YYYY-MM-DD`` that is no calendar date, if any.

    >>> _impossible_date_line("a: 2026-01-31\\nb: 2027-02-30\\n")
    2
    """
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _DATE.finditer(line):
            try:
                date(*map(int, match.groups()))
            except ValueError:
                return number
    return None


def _deepest_line(text: str) -> int:
    """The line where the nesting (brackets, braces and indentation) is deepest.

    >>> _deepest_line("a: 1\\nb: [[[\\n  ]]]\\n")
    2
    """
    depth, deepest, at = 0, -1, 1
    for number, line in enumerate(text.splitlines(), start=1):
        indent = len(line) - len(line.lstrip(" -"))
        opens = line.count("[") + line.count("{")
        # a line inside a flow that opens nothing is not deeper
        if (opens or not depth) and depth + opens + indent > deepest:
            deepest, at = depth + opens + indent, number
        depth += opens - line.count("]") - line.count("}")
    return at


def revalidate(doc: Document) -> Document:
    """Validate ``doc``'s tree again after a change (no re-parse: the tree is what is written)."""
    checked = Document(path=doc.path, text=doc.text, prefix=doc.prefix, root=doc.root)
    validate(checked)
    return checked


def set_field(node: CommentedMap, key: str, value: Any) -> None:
    """Set ``key`` in place, or insert it where ``ENTRY_KEYS`` orders it; None removes it."""
    if value is None:
        node.pop(key, None)
        return
    if key in node:
        node[key] = value
        return
    order = ENTRY_KEYS.index(key) if key in ENTRY_KEYS else len(ENTRY_KEYS)
    position = sum(1 for k in node if k in ENTRY_KEYS and ENTRY_KEYS.index(k) < order)
    node.insert(position, key, value)


def render(doc: Document) -> str:
    """The document as the text a write would put on disk."""
    out = io.StringIO()
    _yaml().dump(doc.root, out)
    return doc.prefix + out.getvalue()


#: How ``render`` writes an entry of ``overrides`` (``_yaml``'s indentation: sequence 4, offset 2).
_ITEM = "  - "


def _own_layout(text: str) -> bool:
    """Whether ``text`` ends with its ``overrides`` list in ``render``'s layout, so an entry
    rendered alone (``_ITEM``) and written after it is an entry of that list: LF line ends
    only, a final newline, the key alone on its line at column 0, its first item at ``_ITEM``
    (dash at column 2) and after it no line left of column 2 but blank lines and comments.
    A file a person re-indented (indentless ``- id:``, a 4-space list) or saved with CRLF is
    not: the text plus an appended entry would not read back, or would mix line ends, so it
    is rendered whole (a linear scan of the text, far cheaper than the dump it saves)."""
    if "\r" in text or not text.endswith("\n"):
        return False
    lines = text.split("\n")
    head = max((n for n, line in enumerate(lines)
                if line[:1] not in ("", " ", "#")), default=-1)
    if head < 0 or lines[head].rstrip() != "overrides:":
        return False
    first = True
    for line in lines[head + 1:]:
        if not line.strip() or line.lstrip(" ").startswith("#"):
            continue
        if not line.startswith(_ITEM if first else "  "):
            return False
        first = False
    return not first


def _appendable(doc: Document) -> CommentedSeq | None:
    """``doc``'s entries when its text ends with them in block style and ``render``'s layout
    (so entries written after its end are entries of that list), else None."""
    seq = doc.root.get("overrides")
    if (doc.prefix or not isinstance(seq, CommentedSeq) or not seq
            or list(doc.root)[-1] != "overrides" or seq.fa.flow_style()
            or not _own_layout(doc.text)):
        return None
    return seq


def appended_text(doc: Document, before: int) -> str | None:
    """What ``render(doc)`` adds after ``doc.text`` when a change appended the entries from
    index ``before`` on (a proposal), rendered alone: a write then dumps one entry, not the
    whole file (ruamel's dump was half of a write at 160 entries). None when the file's text
    cannot simply be extended (no entry before, a comment-only prefix, another key last)."""
    seq = _appendable(doc)
    if seq is None or before < 1 or before >= len(seq):
        return None
    tail = CommentedMap()
    tail["overrides"] = CommentedSeq(seq[before:])
    out = io.StringIO()
    _yaml().dump(tail, out)
    head, _, items = out.getvalue().partition("\n")
    return items if head == "overrides:" and items.startswith(_ITEM) else None


def extend_document(doc: Document, text: str) -> Document | None:
    """``doc`` brought up to ``text``, the file after another writer appended entries to the
    text ``doc`` was read from: only the appended entries are parsed (a re-parse was the
    other half of a write). None when ``text`` is not that (the caller parses it all).

    ``doc``'s tree is extended in place: on None it may be half changed, and is dropped.
    """
    seq = _appendable(doc)
    if seq is None or not text.startswith(doc.text) or not text[len(doc.text):].startswith(
            _ITEM) or not _own_layout(text):
        return None
    try:
        part = _yaml().load("overrides:\n" + text[len(doc.text):])
    except (YAMLError, ValueError, RecursionError):
        return None
    if not isinstance(part, CommentedMap) or list(part) != ["overrides"] \
            or not isinstance(part["overrides"], CommentedSeq):
        return None
    seq.extend(part["overrides"])
    extended = Document(path=doc.path, text=text, prefix="", root=doc.root)
    try:
        validate(extended)
    except OverrideFileError:
        return None    # the full parse names the file's line
    return extended


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: temporary file in the same folder, fsync, rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except FileNotFoundError:
            mode = 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)  # make the rename itself durable
    finally:
        os.close(dir_fd)

