"""AppTest helpers: the app file, and data folders kept out of the developer's own."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


@pytest.fixture(autouse=True)
def app_data(tmp_path, monkeypatch) -> Path:
    """Point the app's data (overrides file, landing zone) at a temporary folder."""
    monkeypatch.setenv("ENCODING_TRIAGE_DATA", str(tmp_path))
    monkeypatch.setenv("ENCODING_TRIAGE_OVERRIDES", str(tmp_path / "overrides.yaml"))
    monkeypatch.setenv("ENCODING_TRIAGE_LANDING", str(tmp_path / "landing"))
    return tmp_path


def markdown_html(text: str) -> str:
    """``text`` rendered as CommonMark (markdown-it-py, which Streamlit's rich brings): an
    element that renders Markdown shows an image or a link where this has ``<img`` or ``<a``."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").render(text)
