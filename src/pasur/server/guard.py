"""The door: what the server checks of a request before the app reads it.

`Guard` is ASGI middleware (it works under any server and in the test client): the
``Host`` header must name this server, a WebSocket's ``Origin`` must be one of its hosts, and a
request body must arrive whole within a size and a time limit. `guarded_http()` makes the
HTTP protocol ``pasur serve`` runs under uvicorn: a cap on the connections one address holds
open, and a time and size limit on a request's headers."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, ClassVar
from urllib.parse import urlsplit

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .errors import TableError
from .messages import http_refusal
from .settings import ServerSettings
from .visitors import Network, is_trusted_proxy, network_of, trusted_networks

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def host_of(value: str) -> str:
    """The host of a ``Host`` header or an ``Origin`` (no port, no brackets), lower case."""
    netloc = urlsplit(value if "//" in value else f"//{value}").hostname
    return (netloc or "").lower()


#: What every HTTP answer carries: the page is never framed by another (its buttons cannot be
#: clicked through a page on top), runs only its own scripts and styles (and compiles its own
#: WebAssembly, the offline engine: 'wasm-unsafe-eval' allows nothing else), and talks only to here.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


class Guard:
    """Host and Origin checks and request-body limits, before the app sees a request; the
    security headers on every answer (`SECURITY_HEADERS`)."""

    def __init__(self, app: App, settings: ServerSettings) -> None:
        self.app = app
        self.settings = settings
        self.hosts = {host.lower().strip("[]") for host in settings.allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if scope["type"] == "http":
            send = _with_security_headers(send)
        headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}
        if "*" not in self.hosts and host_of(headers.get("host", "")) not in self.hosts:
            refusal = TableError("bad_host")
            return await self._refuse(scope, send, 421, refusal)
        if scope["type"] == "websocket":
            origin = headers.get("origin")
            if origin is not None and "*" not in self.hosts and host_of(origin) not in self.hosts:
                refusal = TableError("bad_origin")
                return await self._refuse(scope, send, 403, refusal)
            return await self.app(scope, receive, send)
        body = await self._read_body(scope, receive, send, headers)
        if body is None:
            return None
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # a disconnect, when the client goes away
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        return await self.app(scope, replay, send)

    async def _read_body(self, scope: Scope, receive: Receive, send: Send, headers: dict[str, str]) -> bytes | None:
        """The whole body, or None once a refusal has been sent (too large, too slow)."""
        limit = self.settings.body_bytes
        too_large = TableError("too_large", bytes=limit)
        if headers.get("content-length", "0").isdigit() and int(headers.get("content-length", "0")) > limit:
            await self._refuse(scope, send, 413, too_large)
            return None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settings.body_seconds
        body = bytearray()
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                seconds = self.settings.body_seconds
                slow = TableError("too_slow", seconds=seconds)
                await self._refuse(scope, send, 408, slow)
                return None
            if message["type"] == "http.disconnect":
                return None
            body += message.get("body", b"")
            if len(body) > limit:
                await self._refuse(scope, send, 413, too_large)
                return None
            if not message.get("more_body", False):
                return bytes(body)

    async def _refuse(self, scope: Scope, send: Send, status: int, refusal: TableError) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4000 + status, "reason": str(refusal)[:120]})
            return
        content = refusal_body(refusal)
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(content)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": [*headers, (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": content})


def _with_security_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
        await send(message)

    return sending


def guarded_http(settings: ServerSettings) -> type[GuardedHttp]:
    """`GuardedHttp` with the limits of ``settings``, counting the connections of one server."""
    given = {"settings": settings, "open_connections": Counter(), "proxies": trusted_networks(settings.trusted_proxies)}
    return type("GuardedHttp", (GuardedHttp,), given)


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with the door's connection limits (`guarded_http()` gives it
    its settings): at most ``connections_per_address`` open connections an address (a WebSocket
    counts as one while it is upgrading, then the app counts it), and headers complete within
    ``header_seconds`` and ``header_bytes``."""

    settings: ClassVar[ServerSettings]
    #: Open connections by network, over every connection of one server.
    open_connections: ClassVar[Counter[str]]
    proxies: ClassVar[tuple[Network, ...]]
    _address = ""
    _counted = False
    _header_timer: asyncio.TimerHandle | None = None
    _header_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = self.client[0] if self.client else ""
        if is_trusted_proxy(peer, self.proxies):  # a proxy's connections carry many visitors: the app counts them
            self._arm_header_timer()
            return
        self._address = network_of(peer, self.settings)
        if self.open_connections[self._address] >= self.settings.connections_per_address:
            too_many = TableError("too_many_connections")
            self._close_with(429, too_many)
            return
        self.open_connections[self._address] += 1
        self._counted = True
        self._arm_header_timer()

    def _arm_header_timer(self) -> None:
        self._header_bytes = 0
        if self._header_timer is not None:
            self._header_timer.cancel()
        self._header_timer = self.loop.call_later(self.settings.header_seconds, self._headers_too_slow)

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        self.transport.close()

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            self.open_connections[self._address] -= 1
            if self.open_connections[self._address] <= 0:
                del self.open_connections[self._address]
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._uncount()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._header_timer is None:
            self._arm_header_timer()

    def on_url(self, url: bytes) -> None:
        self._count_header_bytes(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_header_bytes(len(name) + len(value))
        super().on_header(name, value)

    def _count_header_bytes(self, count: int) -> None:
        self._header_bytes += count
        if self._header_bytes > self.settings.header_bytes:
            limit = self.settings.header_bytes
            too_large = TableError("headers_too_large", bytes=limit)
            self._close_with(431, too_large)

    def on_headers_complete(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        self._uncount()  # from here the app counts the socket
        super().handle_websocket_upgrade()

    def _close_with(self, status: int, refusal: TableError) -> None:
        body = refusal_body(refusal)
        phrase = {429: b"Too Many Requests", 431: b"Request Header Fields Too Large"}[status]
        self.transport.write(
            b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n%s"
            % (status, phrase, len(body), body)
        )
        self.transport.close()


def refusal_body(refusal: TableError) -> bytes:
    """A refusal as the body of an HTTP answer, in the one shape of `messages.http_refusal()`."""
    return json.dumps(http_refusal(refusal), ensure_ascii=False).encode()
