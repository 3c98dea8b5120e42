"""SiteOverrides: which file a crawler applies, and a file that breaks during a crawl."""

from __future__ import annotations

import pytest

from encoding_core.crawlers.siteoverrides import SiteOverrides
from encoding_core.decision.overridden import HostOverrides, decode_overridden
from encoding_core.errors import OverrideError
from encoding_core.overrides.retest import decode_with_overrides
from tests.overridefiles import approved_override


def test_named_file_must_exist(tmp_path):
    """A typo in the setting is an error, not a crawl without overrides."""
    with pytest.raises(OverrideError, match="no such overrides file"):
        SiteOverrides.configured(tmp_path / "typo.yaml")


def test_default_file_when_it_exists(tmp_path, monkeypatch):
    """None named: the app's file ($ENCODING_TRIAGE_OVERRIDES) when it exists, else none."""
    path = tmp_path / "app.yaml"
    monkeypatch.setenv("ENCODING_TRIAGE_OVERRIDES", str(path))
    assert SiteOverrides.configured() is None
    approved_override(path, "shop.example")
    found = SiteOverrides.configured()
    assert found is not None and found.encoding_for("shop.example") == "utf-8"
    assert SiteOverrides.configured(enabled=False) is None


def test_broken_at_start_is_an_error(tmp_path):
    """A broken file when the crawl starts stops it, as fetch exits 2."""
    path = tmp_path / "o.yaml"
    path.write_text("overrides: [unclosed\n", "utf-8")
    with pytest.raises(OverrideError):
        SiteOverrides.configured(path)


def test_broken_mid_crawl_keeps_the_last_entries(tmp_path):
    """A half-saved edit: the entries read before stay in force, and problem says why."""
    path = tmp_path / "o.yaml"
    approved_override(path, "shop.example")
    overrides = SiteOverrides.configured(path)
    assert overrides is not None and overrides.problem is None
    path.write_text(path.read_text("utf-8") + "\n  - {broken: [\n", "utf-8")
    assert overrides.encoding_for("shop.example") == "utf-8"
    assert overrides.problem is not None and "stay in force" in overrides.problem
    approved_override(tmp_path / "fresh.yaml", "other.example")
    path.write_text((tmp_path / "fresh.yaml").read_text("utf-8"), "utf-8")
    assert overrides.encoding_for("other.example") == "utf-8"
    assert overrides.encoding_for("shop.example") is None and overrides.problem is None


def test_no_host_no_statuses(tmp_path):
    """A URL without a host gets no override."""
    path = tmp_path / "o.yaml"
    approved_override(path, "shop.example")
    overrides = SiteOverrides.configured(path)
    assert overrides is not None and overrides.statuses(None) == ()


def test_a_crawlers_overrides_decide_as_fetch_does(tmp_path):
    """``for_host`` makes it an ``OverrideSource``: a body decided through it gets the trace
    ``decode_with_overrides`` gives from the host's statuses (the entry named)."""
    path = tmp_path / "o.yaml"
    approved_override(path, "shop.example")
    overrides = SiteOverrides.configured(path)
    assert overrides is not None
    body = "<p>José “quoted”</p>".encode()
    through_source = decode_overridden(body, "text/html; charset=iso-8859-1",
                                       overrides.for_host("shop.example"))
    assert through_source == decode_with_overrides(body, "text/html; charset=iso-8859-1",
                                                   overrides.statuses("shop.example"))
    assert through_source.source == "override" and "ov-0001" in through_source.evidence[1].reason
    assert overrides.for_host("other.example") == HostOverrides()
