"""Who a visitor is, for every per-address limit and for the bots' turns: the network an address
belongs to (IPv4 /24 and IPv6 /64 by default), so that more addresses of one network do not
multiply its share. Behind a reverse proxy the address is the one the proxy forwards, and only
from proxies the operator trusts (``pasur serve --trusted-proxy``; uvicorn reads the header)."""

from __future__ import annotations

import ipaddress

from starlette.requests import HTTPConnection

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
    """The visitor a request or socket comes from (see :func:`network_of`)."""
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
