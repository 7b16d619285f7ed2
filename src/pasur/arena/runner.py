"""``pasur match``: many matches between bots on duplicate deals, in parallel.

A *set* is one seed's matches, played once for each rotation of the bots round the seats, so
every bot plays every seat of the same deals and luck cancels. Sets are independent and are the
unit of every interval.
"""

from __future__ import annotations

import queue
import signal
import threading
from collections.abc import Callable

from .games import GameResult, Plan, close_external_bots, play_set
from .tally import Intake, Tally


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(
    plan: Plan,
    jobs: int = 1,
    backend: str = "local",
    on_set: Callable[[Tally, list[GameResult]], None] | None = None,
) -> tuple[Tally, bool]:
    """Play sets until the plan says stop; returns the tally and whether it was interrupted
    (Ctrl-C stops at once and keeps what has finished)."""
    intake = Intake(Tally(plan), on_set)
    if backend == "ray":
        from .ray_backend import run_on_ray

        return run_on_ray(plan, intake, jobs)
    if backend != "local":
        raise ValueError(f"unknown backend '{backend}' (local or ray)")
    if jobs <= 1:
        try:
            while (index := intake.next_task()) is not None:
                intake.offer(play_set(plan, index))
        except KeyboardInterrupt:
            return intake.tally, True
        finally:
            close_external_bots()
        return intake.tally, False
    return _run_pool(plan, intake, jobs)


def _run_pool(plan: Plan, intake: Intake, jobs: int) -> tuple[Tally, bool]:
    import multiprocessing

    finished: queue.Queue[list[GameResult] | BaseException] = queue.Queue()
    pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_ignore_interrupts)
    # Ctrl-C only sets a flag, read between steps: an interrupt raised inside the pool's own
    # bookkeeping (a lock held in apply_async) could leave terminate() waiting for ever.
    interrupted = threading.Event()
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, lambda *_: interrupted.set()) if main_thread else None
    in_flight = 0
    try:
        while not interrupted.is_set():
            while in_flight < 2 * jobs and (index := intake.next_task()) is not None:
                pool.apply_async(play_set, (plan, index), callback=finished.put, error_callback=finished.put)
                in_flight += 1
            if in_flight == 0:
                return intake.tally, False
            try:
                item = finished.get(timeout=0.2)
            except queue.Empty:
                continue
            in_flight -= 1
            if isinstance(item, BaseException):
                raise item
            intake.offer(item)
        return intake.tally, True
    except KeyboardInterrupt:
        return intake.tally, True
    finally:
        if main_thread:
            signal.signal(signal.SIGINT, previous)
        pool.terminate()
        pool.join()
