"""What a server allows: its host names, its bots' budget, and every limit at the door. The
operator sets these on the command line (``pasur serve --help``); nothing a visitor sends changes
them."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """A server's limits, with defaults suited to a small site on two cores."""

    #: Host names this server answers for (the ``Host`` header, and a WebSocket's ``Origin``);
    #: ``*`` answers any (behind a proxy that checks them).
    allowed_hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "::1")
    #: Seconds before a bot moves, so a person can follow.
    bot_delay: float = 0.45
    #: The most a searching bot thinks for one move, in milliseconds.
    bot_ms: int = 250
    #: The most one move of a finished match is judged for, in milliseconds of the worker's CPU
    #: (deals are added until its loss is known to ±0.3 points within one verdict, as ``pasur
    #: analyze`` does, or this ends): the same as ``pasur analyze``, so the page judges as well.
    analysis_ms: int = 2000
    #: The bot workers' CPU seconds one visitor's hints and analyses may take a minute.
    advice_seconds: float = 30.0
    #: Worker processes for the searching bots.
    bot_workers: int = 1
    #: Levels the operator adds to the built-in ones: name → built-in bot spec.
    extra_levels: dict[str, str] = field(default_factory=dict)
    #: New tables one address may create a minute.
    tables_per_minute: int = 20
    #: Seats one address may take a minute (a person joins a few tables; a squatter, them all).
    joins_per_minute: int = 10
    #: Reviews one address may ask for a minute, over all tables (the page asks every 2 s while it
    #: shows one: 30 a minute).
    review_asks_per_minute: int = 60
    #: Open connections (HTTP and WebSocket) one address may hold.
    connections_per_address: int = 32
    #: Addresses and networks of the reverse proxies whose forwarding header names the visitor
    #: (none: the connecting address is the visitor, and every such header is ignored).
    trusted_proxies: tuple[str, ...] = ()
    #: The header those proxies write: "x-forwarded-for", or "forwarded" (RFC 7239).
    proxy_header: str = "x-forwarded-for"
    #: Addresses of one network this large count as one visitor in every per-address limit.
    ipv4_prefix: int = 24
    ipv6_prefix: int = 64
    #: The turn timers a table may have, in seconds (0: none).
    timers: tuple[int, ...] = (0, 30, 60, 120)
    #: Spectators one table admits.
    spectators_per_table: int = 20
    #: WebSocket messages one address may send a second, over all its connections.
    messages_per_second: int = 50
    #: Hours a table may stand untouched with nobody there: then a table never started is deleted,
    #: and a match under way is ended as abandoned (its moves kept) and let go. 0: kept for ever.
    abandoned_hours: float = 24.0
    #: Seconds a message to a socket may take to be read: a socket slower than that is closed.
    send_seconds: float = 20.0
    #: The largest request body, and the largest WebSocket message, in bytes.
    body_bytes: int = 64 * 1024
    message_bytes: int = 16 * 1024
    #: How deep a WebSocket message's JSON may nest.
    json_depth: int = 8
    #: Seconds a request's headers, and its body, have to arrive.
    header_seconds: float = 10.0
    body_seconds: float = 10.0
    #: The largest request line and headers together, in bytes.
    header_bytes: int = 16 * 1024
    #: Accounts one address may make a day.
    sign_ups_per_day: int = 10
    #: Failed log-ins an account, and an address, may have in a quarter of an hour.
    log_in_failures: int = 10
    log_in_failures_per_address: int = 50
    #: Log-ins of every kind (successes too) an account, and an address, may try in a quarter of an hour.
    log_ins_per_account: int = 20
    log_ins_per_address: int = 100
    #: Passwords hashed at once (Argon2id takes 64 MiB and several threads each), and how many
    #: more may wait for a turn; past that a log-in is refused as busy. Memory for hashing stays
    #: within ``hashes_at_once`` × 64 MiB whatever arrives.
    hashes_at_once: int = max(1, (os.cpu_count() or 2) // 2)
    hashes_waiting: int = 8
    #: Sessions one account may hold; a new log-in past that ends the oldest.
    sessions_per_account: int = 20
    #: Days a signed-in session lasts.
    session_days: int = 30


#: The defaults, where another part needs one (the command's options, the bot pool).
SERVER_DEFAULTS = ServerSettings()
