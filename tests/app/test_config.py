"""ui/config.py: a bad [fetch] setting is reported where it is used; the page goes on."""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import ROOT

PAGE = str(ROOT / "app_pages" / "1_live_fetch.py")
TABS = ["Live URL", "Recent captures", "WARC file", "Host report"]


def _fetch_page(section: dict) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.secrets["fetch"] = section
    return at.run()


def _plain(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


@pytest.mark.parametrize(("section", "message"), [
    ({"allowed_networks": 5}, 'write allowed_networks = ["127.0.0.1/32", "10.1.0.0/16"]'),
    ({"allowed_networks": ["intranet"]}, "allowed_networks: 'intranet' is not a network"),
    ({"max_bytes": "ten"}, "write max_bytes = 10485760"),
    ({"retention_days": "a week"}, "write landing_dir"),
], ids=["networks-a-number", "networks-a-name", "size-a-word", "retention-a-word"])
def test_a_bad_setting_is_a_warning_and_every_tab_works(app_data, section, message):
    """The Fetch page names the bad setting and the form expected; its four tabs still work."""
    at = _fetch_page(section)
    assert not at.exception and not at.error
    assert any(message in _plain(w.value) and "default applies" in w.value for w in at.warning)
    assert [t.label for t in at.tabs] == TABS
    assert at.text_input(key="fetch_url") is not None


def test_one_network_written_as_a_string_is_read_as_a_list(app_data):
    """`allowed_networks = "127.0.0.1/32"`, the mistake from issue 22, just works."""
    at = _fetch_page({"allowed_networks": "127.0.0.1/32"})
    assert not at.exception and not at.error and not at.warning
    assert [t.label for t in at.tabs] == TABS
