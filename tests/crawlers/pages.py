"""The crawler tests' pages (``tests/cases/crawler_pages.json``), served for real on 127.0.0.x.

Each case is served at ``/<label>`` with its Content-Type as given (none when null). Two
servers run: the overrides file the tests write has an approved utf-8 override for
``APPROVED_HOST`` and only a proposed one for ``PROPOSED_HOST``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from encoding_core.overrides.store import OverrideStore
from tests.conformance import case_body, load_cases
from tests.httpserver import ScriptedServer, respond
from tests.overridefiles import approved_override

CASES = load_cases("crawler_pages.json")
PROPOSED_HOST = "127.0.0.1"
APPROVED_HOST = "127.0.0.2"
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000")


def routes() -> dict[str, Any]:
    """Every case at ``/<label>``, and a PNG (not text: the middleware leaves it alone)."""
    found = {f"/{case['label']}": respond(
        case_body(case),
        headers=(() if case["content_type"] is None
                 else (("Content-Type", case["content_type"]),)))
        for case in CASES}
    found["/logo.png"] = respond(PNG, headers=(("Content-Type", "image/png"),))
    return found


def write_overrides(path: Path) -> Path:
    """The overrides file: approved utf-8 for APPROVED_HOST, proposed for PROPOSED_HOST."""
    approved_override(path, APPROVED_HOST, "utf-8")
    OverrideStore(path).propose(
        host=PROPOSED_HOST, encoding="utf-8", author="carol@example.com",
        reason="Proposed only: nobody has approved this one, so it must not apply.",
        review_by=date.today() + timedelta(days=30))
    return path


@dataclass
class Site:
    """The two servers and the overrides file."""

    proposed: ScriptedServer
    approved: ScriptedServer
    overrides: Path

    def url(self, label: str, *, approved: bool = False) -> str:
        return (self.approved if approved else self.proposed).url(f"/{label}")


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[Site]:
    """Both servers running, and the overrides file written in ``folder``."""
    overrides = write_overrides(folder / "overrides.yaml")
    with ScriptedServer(PROPOSED_HOST, routes()) as proposed, \
            ScriptedServer(APPROVED_HOST, routes()) as approved:
        yield Site(proposed, approved, overrides)
