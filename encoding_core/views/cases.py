"""Regression cases: a decision written down in the format of ``tests/cases/*.json``.

An engineer who finds a page decoded wrongly (or rightly, for a reason worth keeping) exports
it as a case: the bytes as hex, the header, the encoding expected. Added to a case file, it
runs with the other cases, and a later change that decides differently fails loudly.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..decision.decode import decode
from ..decision.models import Decoded

__all__ = ["MAX_CASE_BYTES", "cases_json", "check_case", "regression_case"]

#: Bodies longer than this are not exported whole: a case should be small enough to review.
MAX_CASE_BYTES = 64 * 1024
_LABEL = re.compile(r"[^a-z0-9]+")


def regression_case(body: bytes, content_type: str | None, decided: Decoded, *,
                    label: str, comment: str = "",
                    expect_encoding: str | None = None) -> dict[str, Any]:
    """A case for ``tests/cases``: these bytes and header must decode as ``expect_encoding``.

    ``expect_encoding`` defaults to the decision's encoding (pin today's behaviour); give
    another to record what *should* happen (the case then runs as a known failure until the
    code agrees). Raises ValueError for a body over ``MAX_CASE_BYTES``.

    >>> body, header = b"caf\\xc3\\xa9", "text/html; charset=utf-8"
    >>> case = regression_case(body, header, decode(body, header), label="Café page")
    >>> case["label"], case["body_hex"], case["expect_encoding"], case["expect"]
    ('caf-page', '63 61 66 c3 a9', 'utf-8', 'pass')
    """
    if len(body) > MAX_CASE_BYTES:
        raise ValueError(f"the body has {len(body):,} bytes; a case holds at most "
                         f"{MAX_CASE_BYTES:,} (cut it to the part that matters)")
    expected = expect_encoding or decided.encoding
    passes = expected == decided.encoding
    case: dict[str, Any] = {
        "label": _LABEL.sub("-", label.lower()).strip("-") or "case",
        "comment": comment or (f"decided {decided.encoding} by {decided.decided_by}; conflicts: "
                               + (", ".join(c.kind for c in decided.conflicts) or "none")),
        "body_hex": body.hex(" "),
        "content_type": content_type,
        "expect_encoding": expected,
        "expect": "pass" if passes else "fail",
    }
    if not passes:
        case["reason"] = (f"decided {decided.encoding} by {decided.decided_by}; expected "
                          f"{expected}")
    return case


def check_case(case: dict[str, Any]) -> tuple[bool, str]:
    """Run one case: whether ``decode`` gives its expected encoding, and what it gave."""
    body = bytes.fromhex(case["body_hex"]) if "body_hex" in case else \
        str(case["body"]).encode("utf-8")
    got = decode(body, case.get("content_type")).encoding
    return got == case["expect_encoding"], got


def cases_json(cases: list[dict[str, Any]]) -> str:
    """Cases as a case file: a JSON list, one case per line (as tests/cases keeps them)."""
    return "[\n" + ",\n".join(json.dumps(c, ensure_ascii=False) for c in cases) + "\n]\n"
