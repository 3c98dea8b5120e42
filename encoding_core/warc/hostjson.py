"""A host report's JSON read back: the one reader of that untrusted format.

``HostReport.to_json`` writes it (``report --json``, a Spark job's ``report.json``);
``read_report`` checks every field against the annotation of the dataclass it fills, so a
``"replacements": "lots"`` is refused here with where it is, not a ``TypeError`` when a page
renders it. Unknown names are left out, as a later version may add some.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from .hostmodels import HostSummary, RecordOutcome

__all__ = ["ReportParts", "read_report"]

#: (hosts, records, skipped, problem, records_omitted): ``HostReport``'s fields in order.
ReportParts = tuple[tuple[HostSummary, ...], tuple[RecordOutcome, ...], tuple[tuple[str, int], ...],
                    str | None, int]


def read_report(text: str | bytes) -> ReportParts:
    """The fields of the host report ``text`` holds; ``ValueError`` saying what is wrong
    when it is not one written by encoding-triage."""
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("the top level is not an object")
        hosts = tuple(HostSummary(**_typed(item, HostSummary, f"hosts[{i}]"))
                      for i, item in enumerate(_list(data, "hosts", required=True)))
        records = tuple(RecordOutcome(**_typed(item, RecordOutcome, f"records[{i}]"))
                        for i, item in enumerate(_list(data, "records")))
        skipped_in = data.get("skipped", {})
        if not isinstance(skipped_in, dict) or not all(
                _is_count(v) for v in skipped_in.values()):
            raise ValueError("skipped is not an object of counts")
        skipped = tuple(sorted((str(k), int(v)) for k, v in skipped_in.items()))
        omitted = data.get("records_omitted", 0)
        if not _is_count(omitted):
            raise ValueError(f"records_omitted is {omitted!r}, not a count")
        problem = data.get("problem")
        if problem is not None and not isinstance(problem, str):
            raise ValueError("problem is not text")
    except RecursionError as exc:
        raise ValueError("not a host report written by encoding-triage: nested too deeply"
                         ) from exc
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise ValueError(f"not a host report written by encoding-triage: {exc}") from exc
    return hosts, records, skipped, problem, omitted


def _list(data: dict[str, Any], key: str, *, required: bool = False) -> list[Any]:
    if required and key not in data:
        raise ValueError(f"no {key}")
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ValueError(f"{key} is not a list")
    return value


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_pairs(value: Any, first: type, second: type) -> bool:
    return isinstance(value, list) and all(
        isinstance(p, list) and len(p) == 2 and isinstance(p[0], first)
        and isinstance(p[1], second) and not isinstance(p[1], bool) for p in value)


#: What each field's annotation accepts from JSON, and how it is brought back (lists as tuples).
_JSON_TYPES: dict[str, tuple[Callable[[Any], bool], Callable[[Any], Any]]] = {
    "str": (lambda v: isinstance(v, str), str),
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), int),
    "bool": (lambda v: isinstance(v, bool), bool),
    "str | None": (lambda v: v is None or isinstance(v, str), lambda v: v),
    "int | None": (lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
                   lambda v: v),
    "tuple[str, ...]": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
                        tuple),
    "tuple[tuple[str, int], ...]": (lambda v: _is_pairs(v, str, int),
                                    lambda v: tuple(tuple(p) for p in v)),
    "tuple[tuple[int, int], ...]": (lambda v: _is_pairs(v, int, int),
                                    lambda v: tuple(tuple(p) for p in v)),
}


def _typed(item: Any, cls: type, where: str) -> dict[str, Any]:
    """The fields of ``cls`` in ``item``, each checked against its annotation (unknown names
    are left out, as a later version may add some)."""
    if not isinstance(item, dict):
        raise ValueError(f"{where} is not an object")
    known: dict[str, Any] = {}
    for spec in fields(cls):
        if spec.name not in item:
            continue
        check, convert = _JSON_TYPES[str(spec.type)]
        value = item[spec.name]
        if not check(value):
            raise ValueError(f"{where}.{spec.name} is {value!r:.60}, not {spec.type}")
        known[spec.name] = convert(value)
    return known
