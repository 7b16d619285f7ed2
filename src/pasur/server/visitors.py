"""Who a visitor is, for every per-address limit and for the bots' turns: the network an address
belongs to (IPv4 /24 and IPv6 /64 by default), so that more addresses of one network do not
multiply its share. Behind a reverse proxy the address is the one the proxy forwards, and only
from proxies the operator trusts (``pasur serve --trusted-proxy``): uvicorn reads
``X-Forwarded-For``; a proxy that writes RFC 7239 ``Forwarded`` instead is read through
`ForwardedHeader` (``--proxy-header forwarded``)."""

from __future__ import annotations

import ipaddress
import re
import time
from collections import defaultdict, deque

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from .settings import ServerSettings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def network_of(address: str, settings: ServerSettings) -> str:
    """The network of ``address`` that counts as one visitor ("203.0.113.0/24"); what is not an
    IP address (a test client's name) is its own."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = settings.ipv4_prefix if ip.version == 4 else settings.ipv6_prefix
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def visitor(connection: HTTPConnection, settings: ServerSettings) -> str:
    """The visitor a request or socket comes from (see `network_of()`)."""
    return network_of(connection.client.host if connection.client else "unknown", settings)


def trusted_networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    """The networks of ``--trusted-proxy`` addresses; ValueError naming one that is neither an
    address nor a network."""
    networks = []
    for proxy in proxies:
        try:
            networks.append(ipaddress.ip_network(proxy.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{proxy!r} is neither an IP address nor a network") from None
    return tuple(networks)


def is_trusted_proxy(address: str, networks: tuple[Network, ...]) -> bool:
    """Whether ``address`` is one of the trusted proxies' (whose connections carry many visitors)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


#: One ``name=value`` pair of a ``Forwarded`` element (RFC 7239: a token, or a quoted string).
_FORWARDED_PAIR = re.compile(r'\s*([A-Za-z]+)\s*=\s*("[^"]*"|[^\s;,"]*)\s*')


def forwarded_hosts(header: str) -> tuple[list[str], str | None]:
    """The ``for=`` hosts of a ``Forwarded`` header, one for each element in order ("unknown"
    where an element names none, or cannot be read: a visitor may have written it), and the last
    element's ``proto=`` (None without one)."""
    hosts: list[str] = []
    proto: str | None = None
    for element in header.split(","):  # never within a value: a quote a visitor left open ends here
        pairs: dict[str, str] = {}
        for pair in element.split(";"):
            match = _FORWARDED_PAIR.fullmatch(pair)
            if match is not None:
                pairs[match[1].lower()] = match[2].strip('"')
        hosts.append(_bare_host(pairs.get("for", "")) or "unknown")
        proto = pairs.get("proto")
    return hosts, proto


def _bare_host(value: str) -> str:
    """An address without its port or brackets ("[2001:db8::1]:80" → "2001:db8::1")."""
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else ""
    return value.split(":")[0] if value.count(":") == 1 else value


class ForwardedHeader:
    """ASGI middleware for a proxy that writes ``Forwarded`` (RFC 7239): its ``for=`` and
    ``proto=`` are handed on as ``X-Forwarded-For`` and ``-Proto``, which uvicorn's
    ``ProxyHeadersMiddleware`` reads (only from a trusted proxy); any ``X-Forwarded-*`` a visitor
    sent is dropped, as such a proxy passes it on untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = [(name, value) for name, value in scope["headers"] if not name.startswith(b"x-forwarded-")]
            forwarded = b", ".join(value for name, value in scope["headers"] if name == b"forwarded")
            if forwarded:
                hosts, proto = forwarded_hosts(forwarded.decode("latin-1"))
                headers.append((b"x-forwarded-for", ", ".join(hosts).encode("latin-1")))
                if proto:
                    headers.append((b"x-forwarded-proto", proto.encode("latin-1")))
            scope = {**scope, "headers": headers}
        await self.app(scope, receive, send)


class RateLimit:
    """At most ``count`` events per ``seconds`` for each key (a sliding window). Keys whose
    window has passed are let go once there are ``keys`` of them, so memory stays bounded."""

    def __init__(self, count: int, seconds: float, keys: int = 10_000) -> None:
        self.count = count
        self.seconds = seconds
        self.keys = keys
        self.events: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        if len(self.events) >= self.keys and key not in self.events:
            for old in [old for old, window in self.events.items() if not window or now - window[-1] > self.seconds]:
                del self.events[old]
        window = self.events[key]
        while window and now - window[0] > self.seconds:
            window.popleft()
        if len(window) >= self.count:
            return False
        window.append(now)
        return True
