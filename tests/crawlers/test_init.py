"""The room is lazy: the core loads no crawler library, the room loads none until asked."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conformance import REPO_ROOT

LIBRARIES = ("scrapy", "twisted", "requests")


def _loaded(code: str) -> list[str]:
    """Run ``code`` in a fresh interpreter; the crawler libraries' modules it loaded."""
    probe = (code + "\nimport json, sys\nprint(json.dumps(sorted(m for m in sys.modules "
             f"if m.split('.')[0] in {LIBRARIES!r})))\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO_ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    loaded: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return loaded


def test_core_loads_no_crawler_library():
    """`import encoding_core` (and a decode) loads none of scrapy, twisted, requests."""
    assert _loaded("import encoding_core\nencoding_core.decode(b'caf\\xc3\\xa9')") == []


def test_room_loads_no_crawler_library():
    """The httpx and requests hooks need neither Scrapy nor requests itself."""
    assert _loaded("import encoding_core.crawlers") == []


def test_middleware_loads_scrapy():
    """The probe can fail: the middleware's module does load Scrapy."""
    assert "scrapy" in _loaded("import encoding_core.crawlers.scrapy")


def test_extras_are_declared_and_pinned_inside_them():
    """`pip install '.[scrapy]'` and `'.[requests]'` exist, and the pins tests run with fit."""
    import tomllib

    from packaging.requirements import Requirement

    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text("utf-8"))[
        "project"]["optional-dependencies"]
    pins = dict(line.split("==") for line in
                (REPO_ROOT / "requirements-dev.txt").read_text("utf-8").splitlines()
                if "==" in line and not line.startswith("#"))
    for extra in ("scrapy", "requests"):
        (requirement,) = (Requirement(r) for r in extras[extra])
        assert requirement.name == extra
        assert requirement.specifier.contains(pins[extra]), (extra, pins[extra])
