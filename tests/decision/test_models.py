"""Tests for the decision's records (encoding_core.decision.models): the source and its flag."""

from __future__ import annotations

import json

import pytest

from encoding_core import decode
from encoding_core.decision.models import Source, split_decided_by

_LOSSY = "<p>Café – naïve – crème</p>".encode() + b"<p>it\x92s</p>"


def test_source_is_an_enum_and_lossy_a_field() -> None:
    """A lossy reading keeps its source as a Source; the flag says it was lossy."""
    decided = decode(_LOSSY, "text/html; charset=utf-8", detector=None)
    assert decided.source is Source.HTTP_HEADER and decided.lossy is True
    assert decided.decided_by == "http-header-lossy"
    clean = decode(b"<p>x</p>", "text/html; charset=utf-8")
    assert (clean.source, clean.lossy, clean.decided_by) == (Source.HTTP_HEADER, False,
                                                             "http-header")


def test_json_keeps_the_suffixed_string() -> None:
    """to_json writes source as before ("http-header-lossy") and lossy beside it, in the
    same key order."""
    data = json.loads(decode(_LOSSY, "text/html; charset=utf-8", detector=None).to_json())
    assert (data["source"], data["lossy"]) == ("http-header-lossy", True)
    assert list(data) == ["text", "encoding", "source", "replacements", "evidence", "conflicts",
                          "browser_encoding", "bom_length", "error_offsets", "needs_review",
                          "body_length", "lossy", "suggested_encoding"]


@pytest.mark.parametrize("source", list(Source), ids=[s.value for s in Source])
@pytest.mark.parametrize("lossy", [False, True], ids=["strict", "lossy"])
def test_decided_by_reads_back(source: Source, lossy: bool) -> None:
    """Every source and flag written as a string reads back to the same pair."""
    written = f"{source.value}-lossy" if lossy else source.value
    assert split_decided_by(written) == (source, lossy)


@pytest.mark.parametrize("text", ["", "-lossy", "header", "http-header-lossy-lossy", "BOM"])
def test_decided_by_of_no_source_is_none(text: str) -> None:
    """A string that names no source reads back as None (a report from elsewhere)."""
    assert split_decided_by(text) is None
