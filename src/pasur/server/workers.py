"""``pasur serve --workers N``: N server processes on one listening socket.

The parent forks the workers; each builds its own app (its own database sessions, bot processes and
event loop) and listens on the port with ``SO_REUSEPORT``, so the kernel deals new connections out
evenly between them (on Linux; elsewhere they accept from one socket the parent made, which left
one of two processes with 61% of 400 connections in a measured run). They share tables through
PostgreSQL (`shared`). A worker that dies is started again; Ctrl-C or SIGTERM stops them all.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger("pasur.server")

#: Seconds between looks at the workers.
WATCH_SECONDS = 0.5


#: Whether workers each listen on a socket of their own with ``SO_REUSEPORT`` (the kernel deals
#: connections out evenly), or all accept from the parent's.
BALANCED = sys.platform == "linux"


def held_port(host: str, port: int, balanced: bool = False) -> socket.socket:
    """A socket bound to ``host``:``port``, so that a port in use is said before anything starts
    (OSError): listening, unless ``balanced`` (then it only holds the port while each worker
    listens on a socket of its own)."""
    held = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        _share_port(held, balanced)
        held.bind((host, port))
        if not balanced:
            held.listen(2048)
    except OSError:
        held.close()
        raise
    return held


def serve_in_processes(
    count: int, host: str, port: int, serve: Callable[[socket.socket], Any], held: socket.socket
) -> None:
    """Run ``serve(listening_socket)`` in ``count`` worker processes until stopped, on the port
    ``held`` holds (`held_port` with `BALANCED`)."""
    family, balanced = held.family, BALANCED
    if not balanced:
        held.set_inheritable(True)
    forking = multiprocessing.get_context("fork")

    def start(number: int) -> BaseProcess:
        args = (serve, None if balanced else held, family, (host, port))
        worker = forking.Process(target=_worker, args=args, name=f"pasur-worker-{number}", daemon=False)
        worker.start()
        return worker

    workers = {number: start(number) for number in range(count)}
    stopping = False

    def stop(_signal: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        while not stopping:
            time.sleep(WATCH_SECONDS)
            for number, worker in list(workers.items()):
                if not worker.is_alive() and not stopping:
                    log.warning("worker %s ended (exit %s): starting another", number, worker.exitcode)
                    workers[number] = start(number)
    finally:
        for worker in workers.values():
            if worker.is_alive() and worker.pid is not None:
                os.kill(worker.pid, signal.SIGTERM)
        for worker in workers.values():
            worker.join(10)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        held.close()


def _share_port(opened: socket.socket, balanced: bool) -> None:
    opened.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if balanced:
        opened.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)


def _worker(
    serve: Callable[[socket.socket], Any], shared: socket.socket | None, family: int, address: tuple[str, int]
) -> None:
    """A worker: it accepts from the ``shared`` socket, or else listens on ``address`` itself."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)  # the server installs its own
    listening = shared
    if listening is None:
        listening = socket.socket(family, socket.SOCK_STREAM)
        _share_port(listening, True)
        listening.bind(address)
        listening.listen(2048)
    serve(listening)
