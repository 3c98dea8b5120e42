"""Tests for fetch.pinned_transport: connections go only to checked, pinned addresses."""

from __future__ import annotations

from collections.abc import Iterator

import httpcore
import httpx
import pytest

from encoding_core.fetch.pinned_transport import PinnedBackend, PinnedTransport
from tests.httpserver import ScriptedServer, respond


@pytest.fixture(scope="module")
def server() -> Iterator[ScriptedServer]:
    with ScriptedServer(routes={"/": respond(b"pinned")}) as srv:
        yield srv


def test_pinned_backend_refuses_unchecked_hosts() -> None:
    """The backend never connects to a host that was not checked and pinned."""
    with pytest.raises(httpcore.ConnectError, match="not checked"):
        PinnedBackend().connect_tcp("example.com", 80)


def test_pinned_name_connects_to_checked_address(server: ScriptedServer) -> None:
    """A pinned name goes to its checked address with no lookup, keeping its Host header."""
    backend = PinnedBackend()
    backend.pin("pinned.invalid", server.port, ["127.0.0.1"])
    with httpx.Client(transport=PinnedTransport(backend), trust_env=False) as client:
        response = client.get(f"http://pinned.invalid:{server.port}/")
    assert response.content == b"pinned"
    assert server.requests[-1].header("Host") == f"pinned.invalid:{server.port}"


def test_pinned_backend_deadline() -> None:
    """Past the deadline every socket operation fails as a timeout."""
    backend = PinnedBackend(deadline=0.0)
    with pytest.raises(httpcore.ReadTimeout):
        backend.time_left(5.0, httpcore.ReadTimeout)
    assert PinnedBackend().time_left(5.0, httpcore.ReadTimeout) == 5.0


@pytest.mark.parametrize(("pin", "deadline", "raised", "message"), [
    (False, None, httpx.ConnectError, "not checked"),
    (True, 0.0, httpx.ConnectTimeout, "total time limit"),
], ids=["unpinned-host", "deadline-passed"])
def test_transport_raises_httpx_errors(server: ScriptedServer, pin: bool,
                                       deadline: float | None, raised: type[Exception],
                                       message: str) -> None:
    """httpcore's errors reach the client as httpx's of the same name, message kept."""
    backend = PinnedBackend(deadline)
    if pin:
        backend.pin("pinned.invalid", server.port, ["127.0.0.1"])
    with (httpx.Client(transport=PinnedTransport(backend), trust_env=False) as client,
          pytest.raises(raised, match=message)):
        client.get(f"http://pinned.invalid:{server.port}/")


def test_transport_uses_only_public_httpx_interfaces() -> None:
    """The transport is a plain httpx.BaseTransport: nothing of httpx.HTTPTransport's inside
    (whose private pool an upgrade may rename) is inherited or overwritten."""
    assert PinnedTransport.__mro__[1] is httpx.BaseTransport
    assert not issubclass(PinnedTransport, httpx.HTTPTransport)
