"""The overrides file's schema: validate the round-trip tree into records, with line numbers.

``validate`` walks a loaded document and turns each entry into a ``SiteOverride`` (and its
history), or raises ``OverrideFileError`` naming the file, the 1-based line and the key
(``ov-0003.review_by``, or ``overrides[2].host`` before the id is known). It also checks
what only the file can get wrong: unknown keys, duplicate ids, an approval without an
approver or by the author (names compared as people read them: ``names.same_person``), a
rejection or retirement without a reason, an ``approved_via`` or a history event's
``verified`` that is not one of ``oidc``, ``proxy``, ``unverified``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any, TypeVar

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..decision.models import Source
from ..errors import OverrideError
from .checks import (
    check_encoding,
    check_host,
    check_name,
    check_reason,
    same_person,
)
from .identity import Identity, Verified
from .model import (
    HistoryEvent,
    OverrideEvidence,
    SiteOverride,
    Status,
)

__all__ = ["ENTRY_KEYS", "FILE_VERSION", "Document", "OverrideFileError", "validate"]

FILE_VERSION = 1
#: Keys of an entry in the order they are written.
ENTRY_KEYS = ("id", "host", "encoding", "reason", "created", "created_by", "review_by", "status",
              "approved_by", "approved_on", "approved_via", "closed_by", "closed_on",
              "closed_reason", "evidence", "history")
_REQUIRED = ENTRY_KEYS[:8]
_EVIDENCE_KEYS = ("url", "fetched_at", "sha256", "corrects", "replacements", "conflicts",
                  "capture")
_HISTORY_KEYS = ("at", "by", "verified", "action", "reason", "changed")
_IDENTITY_KEYS = ("via", "issuer", "subject", "header", "proxy")
_TOP_KEYS = ("version", "reviewers", "overrides")

T = TypeVar("T")


class OverrideFileError(OverrideError):
    """The overrides file does not parse or an entry does not validate.

    ``line`` is 1-based (``None`` when unknown); ``key`` names the entry and field.
    """

    def __init__(self, path: Path, line: int | None, reason: str, key: str | None = None):
        where = f"{path}:{line}" if line is not None else str(path)
        super().__init__(f"{where}: {key + ': ' if key else ''}{reason}")
        self.path = path
        self.line = line
        self.key = key
        self.reason = reason


@dataclass
class Document:
    """A parsed overrides file: the round-trip tree and the validated entries."""

    path: Path
    text: str                       # the file as read; "" when it does not exist yet
    prefix: str                     # comment-only text kept in front of a data-less file
    root: CommentedMap
    entries: list[SiteOverride] = field(default_factory=list)
    history: dict[str, tuple[HistoryEvent, ...]] = field(default_factory=dict)
    nodes: dict[str, CommentedMap] = field(default_factory=dict)
    reviewers: tuple[str, ...] = ()


def validate(doc: Document) -> None:
    """Fill ``doc``'s entries, history, nodes and reviewers from its tree, or raise."""
    root = doc.root
    if not isinstance(root, CommentedMap):
        raise OverrideFileError(doc.path, 1, "the file must be a mapping with `version` and "
                                "`overrides` at the top level")
    for key in root:
        if key not in _TOP_KEYS:
            raise OverrideFileError(doc.path, _line(root, key), f"unknown top-level key; "
                                    f"expected one of {', '.join(_TOP_KEYS)}", key=str(key))
    version = root.get("version", FILE_VERSION)
    # the type too: ``true`` and ``1.0`` compare equal to 1 in Python, and are no version 1
    if type(version) is not int or version != FILE_VERSION:
        raise OverrideFileError(doc.path, _line(root, "version"),
                                f"unsupported version (this program reads {FILE_VERSION})",
                                key="version")
    reviewers = root.get("reviewers") or []
    if not isinstance(reviewers, list) or not all(isinstance(r, str) for r in reviewers):
        raise OverrideFileError(doc.path, _line(root, "reviewers"),
                                "must be a list of names", key="reviewers")
    doc.reviewers = tuple(r.strip() for r in reviewers)
    items = root.get("overrides")
    if items is None:
        items = root["overrides"] = CommentedSeq()
    if not isinstance(items, list):
        raise OverrideFileError(doc.path, _line(root, "overrides"),
                                "must be a list of entries", key="overrides")
    for index, node in enumerate(items):
        where = f"overrides[{index}]"
        if not isinstance(node, CommentedMap):
            raise OverrideFileError(doc.path, _item_line(items, index),
                                    "an entry must be a mapping", key=where)
        entry, history = _parse_entry(doc.path, node, where)
        if entry.id in doc.nodes:
            raise OverrideFileError(doc.path, _line(node, "id"), "duplicate id",
                                    key=f"{entry.id}.id")
        doc.entries.append(entry)
        doc.history[entry.id] = history
        doc.nodes[entry.id] = node


def _parse_entry(path: Path, node: CommentedMap, where: str
                 ) -> tuple[SiteOverride, tuple[HistoryEvent, ...]]:
    ident = node.get("id")
    if isinstance(ident, str) and ident.strip():
        where = ident.strip()
    for key in node:
        if key not in ENTRY_KEYS:
            raise OverrideFileError(path, _line(node, key), "unknown key; expected one of "
                                    + ", ".join(ENTRY_KEYS), key=f"{where}.{key}")
    for key in _REQUIRED:
        if node.get(key) is None:
            raise OverrideFileError(path, _line(node), "required key missing",
                                    key=f"{where}.{key}")

    def get(key: str, parse: Callable[[Any], T], optional: bool = False) -> T | None:
        value = node.get(key)
        if value is None and optional:
            return None
        try:
            return parse(value)
        except OverrideFileError:
            raise
        except OverrideError as exc:
            raise OverrideFileError(path, _line(node, key), str(exc), key=f"{where}.{key}"
                                    ) from exc

    entry = SiteOverride(
        id=_req(get("id", _identifier)),
        host=_req(get("host", _text(check_host))),
        encoding=_req(get("encoding", _text(check_encoding))),
        reason=_req(get("reason", _text(check_reason))),
        created=_req(get("created", _datetime)),
        created_by=_req(get("created_by", _text(lambda v: check_name(v, what="created_by")))),
        review_by=_req(get("review_by", _date)),
        status=_req(get("status", _status)),
        approved_by=get("approved_by", _text(lambda v: check_name(v, what="approved_by")), True),
        approved_on=get("approved_on", _date, True),
        approved_via=get("approved_via", _verified, True),
        closed_by=get("closed_by", _text(lambda v: check_name(v, what="closed_by")), True),
        closed_on=get("closed_on", _date, True),
        closed_reason=get("closed_reason", _text(check_reason), True),
        evidence=get("evidence", lambda v: _evidence(path, v, f"{where}.evidence"), True),
    )
    _check_consistent(path, node, where, entry)
    history = get("history", lambda v: _history(path, v, f"{where}.history"), True)
    return entry, history or ()


def _check_consistent(path: Path, node: CommentedMap, where: str, entry: SiteOverride) -> None:
    def fail(key: str, reason: str) -> None:
        raise OverrideFileError(path, _line(node, key), reason, key=f"{where}.{key}")

    if entry.status is Status.APPROVED:
        if entry.approved_by is None or entry.approved_on is None:
            fail("status", "an approved entry needs approved_by and approved_on")
        if same_person(entry.approved_by, entry.created_by):
            fail("approved_by", "the approver is never the author")
    if entry.status in (Status.REJECTED, Status.RETIRED) and (
            entry.closed_by is None or entry.closed_reason is None):
        fail("status", f"a {entry.status} entry needs closed_by and closed_reason")


def _req(value: T | None) -> T:
    assert value is not None  # required keys were checked before parsing
    return value


def _text(check: Callable[[str], T]) -> Callable[[Any], T]:
    def parse(value: Any) -> T:
        if not isinstance(value, str):
            raise OverrideError(f"must be text, not {type(value).__name__} {value!r}")
        return check(value)
    return parse


def _identifier(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 64 or any(
            ch.isspace() for ch in value.strip()):
        raise OverrideError(f"id {value!r} must be a short text without spaces")
    return value.strip()


def _status(value: Any) -> Status:
    try:
        return Status(value)
    except ValueError:
        raise OverrideError(f"status {value!r} is not one of "
                            + ", ".join(s.value for s in Status)) from None


def _verified(value: Any) -> Verified:
    try:
        return Verified(value)
    except ValueError:
        raise OverrideError(f"{value!r} is not one of "
                            + ", ".join(v.value for v in Verified)) from None


def _identity(by: str, value: Any) -> Identity | None:
    """A history event's ``verified`` mapping (``via`` and its details) as an Identity."""
    if value is None:
        return None
    if not isinstance(value, dict) or any(k not in _IDENTITY_KEYS for k in value):
        raise OverrideError("verified must be a mapping of " + ", ".join(_IDENTITY_KEYS))
    details = {k: None if value.get(k) is None else str(value[k]) for k in _IDENTITY_KEYS[1:]}
    return Identity(by, _verified(value.get("via")), **details)


def _date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise OverrideError(f"{value!r} is not a date (write YYYY-MM-DD)")


def _datetime(value: Any) -> datetime:
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, date):
        moment = datetime.combine(value, time())
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            raise OverrideError(f"{value!r} is not a date and time (ISO 8601)") from None
    else:
        raise OverrideError(f"{value!r} is not a date and time (ISO 8601)")
    # Naive times in the file are UTC; ruamel's TimeStamp carries its own tzinfo.
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return datetime(moment.year, moment.month, moment.day, moment.hour, moment.minute,
                    moment.second, tzinfo=UTC)  # a plain datetime, not ruamel's TimeStamp


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise OverrideError(f"{value!r} is not a count (a whole number, 0 or more)")
    return value


def _sha256(value: Any) -> str:
    text = value.strip().lower() if isinstance(value, str) else ""
    if len(text) != 64 or any(ch not in "0123456789abcdef" for ch in text):
        raise OverrideError(f"{value!r} is not a SHA-256 digest (64 hex digits)")
    return text


def _source(value: Any) -> str:
    try:
        return Source(value).value
    except ValueError:
        raise OverrideError(f"{value!r} is not a source; expected one of "
                            + ", ".join(s.value for s in Source)) from None


def _evidence(path: Path, node: Any, where: str) -> OverrideEvidence:
    if not isinstance(node, CommentedMap):
        raise OverrideError("evidence must be a mapping of " + ", ".join(_EVIDENCE_KEYS))
    parsers: dict[str, Callable[[Any], Any]] = {
        "url": _text(str), "fetched_at": _datetime, "sha256": _sha256, "corrects": _source,
        "replacements": _count, "conflicts": _count, "capture": _text(str)}
    values: dict[str, Any] = {}
    for key, value in node.items():
        if key not in parsers:
            raise OverrideFileError(path, _line(node, key), "unknown key; expected one of "
                                    + ", ".join(_EVIDENCE_KEYS), key=f"{where}.{key}")
        if value is None:
            continue
        try:
            values[key] = parsers[key](value)
        except OverrideError as exc:
            raise OverrideFileError(path, _line(node, key), str(exc), key=f"{where}.{key}"
                                    ) from exc
    return OverrideEvidence(**values)


def _history(path: Path, items: Any, where: str) -> tuple[HistoryEvent, ...]:
    if not isinstance(items, list):
        raise OverrideError("history must be a list of events")
    events = []
    for index, node in enumerate(items):
        here = f"{where}[{index}]"
        if not isinstance(node, CommentedMap) or any(k not in _HISTORY_KEYS for k in node):
            raise OverrideFileError(path, _item_line(items, index), "an event is a mapping of "
                                    + ", ".join(_HISTORY_KEYS), key=here)
        try:
            changed = node.get("changed") or {}
            changes = tuple((str(k), _opt_str(v[0]), _opt_str(v[1])) for k, v in changed.items())
            by = _text(str)(node.get("by"))
            events.append(HistoryEvent(
                at=_datetime(node.get("at")), by=by,
                action=_text(str)(node.get("action")),
                reason=_opt_str(node.get("reason")), changes=changes,
                identity=_identity(by, node.get("verified"))))
        except (OverrideError, AttributeError, IndexError, TypeError, KeyError) as exc:
            raise OverrideFileError(path, _item_line(items, index), f"bad event: {exc}",
                                    key=here) from exc
    return tuple(events)


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _line(node: Any, key: Any = None) -> int | None:
    """1-based line of ``key`` in ``node`` (of the node itself without a key)."""
    try:
        line = node.lc.line if key is None else node.lc.key(key)[0]
    except (AttributeError, KeyError, TypeError):
        return None
    return None if line is None else int(line) + 1


def _item_line(seq: Any, index: int) -> int | None:
    try:
        return int(seq.lc.item(index)[0]) + 1
    except (AttributeError, KeyError, TypeError, IndexError):
        return None
