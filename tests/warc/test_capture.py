"""Tests for encoding_core.warc.capture: a capture written as per-record WARC, rebuilt identical."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fastwarc.warc import ArchiveIterator

from encoding_core.decision.decode import decode
from encoding_core.fetch.client import fetch_page
from encoding_core.warc.capture import capture_as_warc, capture_from_warc
from encoding_core.warc.landing import LandingZone, keep, reopen
from tests.httpserver import ScriptedServer
from tests.landingfixtures import (  # noqa: F401 (fixtures: server, zone)
    PATHS,
    SETTINGS,
    captures_server,
    empty_zone,
)

CAPTURE_ID = "20250101T000000Z-0123456789ab"


@pytest.mark.parametrize("path", PATHS, ids=PATHS)
def test_reopen_gives_the_same_capture_and_decision(server: ScriptedServer, zone: LandingZone,
                                                    path: str) -> None:
    """A kept capture reopens identical: bytes, headers, hops, hence the same decision."""
    kept = keep(fetch_page(server.url(path), settings=SETTINGS), zone)
    assert kept.capture_id is not None
    again = reopen(kept.capture_id, zone)
    assert again == kept
    first, second = decode(kept.body, kept.content_type), decode(again.body, again.content_type)
    assert (second.encoding, second.source, second.text) == (first.encoding, first.source,
                                                             first.text)


def test_file_is_warc_that_fastwarc_reads(server: ScriptedServer, zone: LandingZone) -> None:
    """The file is per-record gzip WARC: warcinfo, request/response per hop, metadata."""
    kept = keep(fetch_page(server.url("/r1"), settings=SETTINGS), zone)
    assert kept.capture_id is not None
    path = zone.path(kept.capture_id)
    with path.open("rb") as stream:
        types = [str(r.record_type) for r in ArchiveIterator(stream, verify_digests=True)]
    assert types == ["warcinfo", *["request", "response"] * 3, "metadata"]
    assert path.read_bytes()[:2] == b"\x1f\x8b"


def test_payload_stored_decoded_with_renamed_headers(server: ScriptedServer,
                                                     zone: LandingZone) -> None:
    """A gzip body is stored decoded, Content-Encoding renamed; reopening restores the header."""
    kept = keep(fetch_page(server.url("/gzip"), settings=SETTINGS), zone)
    assert kept.capture_id is not None
    with zone.path(kept.capture_id).open("rb") as stream:
        response = next(r for r in ArchiveIterator(stream) if str(r.record_type) == "response")
        headers = response.http_headers.to_tuples()
        payload = response.reader.read()
    assert ("X-Crawler-Content-Encoding", "gzip") in headers
    assert payload == kept.body == "<p>café “quoted”</p>".encode()
    assert ("Content-Encoding", "gzip") in reopen(kept.capture_id, zone).headers


def test_capture_from_warc_reads_what_capture_as_warc_wrote(server: ScriptedServer) -> None:
    """The bytes written rebuild the capture with its id; a file with no response is None."""
    capture = fetch_page(server.url("/r1"), settings=SETTINGS)
    rebuilt = capture_from_warc(capture_as_warc(capture, CAPTURE_ID), CAPTURE_ID)
    assert rebuilt == replace(capture, capture_id=CAPTURE_ID)
    assert capture_from_warc(b"", CAPTURE_ID) is None


def test_a_kept_capture_with_a_status_that_is_no_number_is_a_clear_error(
        server: ScriptedServer) -> None:
    """A kept file whose status line says ``2OO`` (a ValueError from int() before) is refused
    with a WarcFormatError naming the capture and the status."""
    from encoding_core.warc.warcfile import WarcFormatError

    capture = fetch_page(server.url("/r1"), settings=SETTINGS)
    damaged = replace(capture, exchanges=tuple(replace(e, status="2OO")  # type: ignore[arg-type]
                                               for e in capture.exchanges))
    with pytest.raises(WarcFormatError, match=f"capture {CAPTURE_ID}: the status '2OO' is not"):
        capture_from_warc(capture_as_warc(damaged, CAPTURE_ID), CAPTURE_ID)
