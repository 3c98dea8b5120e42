"""Fixtures shared by test_landing.py and test_capture_warc.py: a server to fetch from, a zone.

Import them by their function names (``captures_server``, ``empty_zone``); tests ask for them as
``server`` and ``zone``.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import pytest

from encoding_core.fetch.client import FetchSettings
from encoding_core.warc.landing import LandingZone
from tests.httpserver import SEED_CASES, Handler, ScriptedServer, redirect, respond

SETTINGS = FetchSettings(connect_timeout=2, read_timeout=1, total_timeout=3,
                         allowed_networks=("127.0.0.1/32",))
PATHS = [f"/seed/{name}" for name, _, _ in SEED_CASES] + ["/gzip", "/r1", "/repeated", "/binary"]


def _routes() -> dict[str, Handler]:
    routes = {
        f"/seed/{name}": respond(body, headers=[("Content-Type", ctype)] if ctype else [])
        for name, body, ctype in SEED_CASES
    }
    routes.update({
        "/gzip": respond(gzip.compress("<p>café “quoted”</p>".encode()),
                         headers=[("Content-Type", "text/html; charset=utf-8"),
                                  ("Content-Encoding", "gzip")]),
        "/r1": redirect("/r2", 301),
        "/r2": redirect("/seed/meta-tag", 308),
        "/repeated": respond(b"\x93x\x94", headers=[("Content-Type", "text/html; charset=utf-8"),
                                                    ("content-type", "text/html; charset=gbk")]),
        "/binary": respond(bytes(range(256)), headers=[("Content-Type", "image/png")]),
    })
    return routes


@pytest.fixture(scope="module", name="server")
def captures_server() -> Iterator[ScriptedServer]:
    """A running server with every path in ``PATHS`` (and the redirect targets)."""
    with ScriptedServer(routes=_routes()) as srv:
        yield srv


@pytest.fixture(name="zone")
def empty_zone(tmp_path: Path) -> LandingZone:
    """An empty landing zone in a temporary folder."""
    return LandingZone(tmp_path / "captures")
