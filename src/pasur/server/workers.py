"""``pasur serve --workers N``: N server processes on one listening socket.

The parent binds the socket and forks the workers; each builds its own app (its own database
sessions, bot processes and event loop) and accepts connections from the shared socket, so the
kernel spreads visitors over them. They share tables through PostgreSQL (:mod:`.shared`). A worker
that dies is started again; Ctrl-C or SIGTERM stops them all.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Any

log = logging.getLogger("pasur.server")

#: Seconds between looks at the workers.
WATCH_SECONDS = 0.5


def serve_in_processes(count: int, host: str, port: int, serve: Callable[[socket.socket], Any]) -> None:
    """Run ``serve(listening_socket)`` in ``count`` worker processes until stopped."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.create_server((host, port), family=family, backlog=2048)
    listening.set_inheritable(True)
    forking = multiprocessing.get_context("fork")

    def start(number: int) -> BaseProcess:
        worker = forking.Process(target=_worker, args=(serve, listening), name=f"pasur-worker-{number}", daemon=False)
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
        listening.close()


def _worker(serve: Callable[[socket.socket], Any], listening: socket.socket) -> None:
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)  # the server installs its own
    serve(listening)
