"""Pinned connections: httpx/httpcore connect only to the addresses the address guard checked.

This is the guard's third step, **Pin** (the first two, host to addresses and classify, are
``addressguard.py``, which re-exports these names). ``PinnedBackend`` is an httpcore network
backend that connects only to the addresses checked for a host and never resolves a name
itself, so a second DNS answer cannot differ from the one checked (DNS rebinding). The URL
keeps its host name, so the Host header, TLS SNI and certificate checks use the name as usual.
The backend also enforces the fetch's total deadline on every socket operation (a server
trickling bytes cannot hold the fetch past it). ``PinnedTransport`` is the httpx transport over
it: no proxies, no environment, HTTP/1.1.

It errs on the side of refusing: a host that was not pinned is never connected to, and neither
is a Unix socket.

It uses only public interfaces: httpx's transport API (``httpx.BaseTransport.handle_request``,
https://www.python-httpx.org/advanced/transports/#writing-custom-transports) over an
``httpcore.ConnectionPool`` given the pinned ``network_backend``
(https://www.encode.io/httpcore/network-backends/). httpx 0.28's ``HTTPTransport`` takes no
network backend, so ``PinnedTransport`` does what it does around its pool: the request and
response translated field for field, httpcore's exceptions raised as httpx's of the same name.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import httpcore
import httpx

__all__ = [
    "PinnedBackend",
    "PinnedTransport",
]


class _DeadlineStream(httpcore.NetworkStream):
    """A network stream whose every operation ends by the backend's deadline."""

    def __init__(self, inner: httpcore.NetworkStream, backend: PinnedBackend) -> None:
        self._inner = inner
        self._backend = backend

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, self._backend.time_left(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, self._backend.time_left(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        left = self._backend.time_left(timeout, httpcore.ConnectTimeout)
        return _DeadlineStream(self._inner.start_tls(ssl_context, server_hostname, left),
                               self._backend)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class PinnedBackend(httpcore.NetworkBackend):
    """An httpcore backend that connects only to pinned, checked addresses, before a deadline."""

    def __init__(self, deadline: float | None = None) -> None:
        self._inner = httpcore.SyncBackend()
        self._pins: dict[tuple[str, int], tuple[str, ...]] = {}
        self.deadline = deadline

    def pin(self, host: str, port: int, addresses: Sequence[str]) -> None:
        """Let connections to ``host:port`` go to ``addresses`` (and nowhere else)."""
        self._pins[(host.lower(), port)] = tuple(addresses)

    def time_left(self, timeout: float | None, expired: type[Exception]) -> float | None:
        """``timeout`` shortened to the deadline; raises ``expired`` once it has passed."""
        if self.deadline is None:
            return timeout
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise expired("the total time limit of the fetch has passed")
        return left if timeout is None else min(timeout, left)

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
                    ) -> httpcore.NetworkStream:
        addresses = self._pins.get((host.lower(), port))
        if not addresses:
            raise httpcore.ConnectError(f"refusing to connect to {host}:{port}: not checked")
        failure: Exception | None = None
        for address in addresses:
            try:
                stream = self._inner.connect_tcp(
                    address, port, self.time_left(timeout, httpcore.ConnectTimeout),
                    local_address, socket_options)
            except httpcore.ConnectError as exc:  # try the next checked address
                failure = exc
                continue
            return _DeadlineStream(stream, self)
        assert failure is not None
        raise failure

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
                            ) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("unix sockets are not fetched")

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


#: httpcore's exceptions and the httpx exceptions of the same name, most specific first (a
#: ReadTimeout is also a TimeoutException: the first match wins).
_EXCEPTIONS: tuple[tuple[type[Exception], type[httpx.HTTPError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProxyError, httpx.ProxyError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
)


@contextmanager
def _as_httpx_errors() -> Iterator[None]:
    """Raise an httpcore exception as the httpx exception of the same name."""
    try:
        yield
    except Exception as exc:
        mapped = next((theirs for ours, theirs in _EXCEPTIONS if isinstance(exc, ours)), None)
        if mapped is None:
            raise
        raise mapped(str(exc)) from exc


class _ResponseStream(httpx.SyncByteStream):
    """The body of an httpcore response as an httpx stream, with its errors as httpx's."""

    def __init__(self, stream: Iterable[bytes]) -> None:
        self._stream = stream

    def __iter__(self) -> Iterator[bytes]:
        with _as_httpx_errors():
            yield from self._stream

    def close(self) -> None:
        close = getattr(self._stream, "close", None)
        if close is not None:
            close()


class PinnedTransport(httpx.BaseTransport):
    """httpx transport over a ``PinnedBackend``: no proxies, no environment, HTTP/1.1."""

    def __init__(self, backend: PinnedBackend, *, verify: ssl.SSLContext | str | bool = True
                 ) -> None:
        # Smaller than httpx's default pool (100 connections, 20 kept alive): a transport serves
        # one fetch and its redirect hops.
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(verify=verify, trust_env=False),
            max_connections=10, max_keepalive_connections=5, keepalive_expiry=5.0,
            http1=True, http2=False, network_backend=backend,
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` through the pinned pool (as ``httpx.HTTPTransport`` does its own)."""
        assert isinstance(request.stream, httpx.SyncByteStream)
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(scheme=request.url.raw_scheme, host=request.url.raw_host,
                             port=request.url.port, target=request.url.raw_path),
            headers=request.headers.raw, content=request.stream, extensions=request.extensions)
        with _as_httpx_errors():
            response = self._pool.handle_request(core_request)
        assert isinstance(response.stream, Iterable)
        return httpx.Response(status_code=response.status, headers=response.headers,
                              stream=_ResponseStream(response.stream),
                              extensions=response.extensions)

    def close(self) -> None:
        self._pool.close()
