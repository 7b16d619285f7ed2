"""``--backend ray``: the same sets, played as Ray tasks on a cluster (or a local Ray instance).

Ray is an optional extra (``pip install 'pasur[ray]'``). ``RAY_ADDRESS`` picks the cluster; with
none set, a local instance is started with ``jobs`` CPUs.
"""

from __future__ import annotations

import os
from typing import Any

from ..core.errors import MissingExtra
from .games import GameResult, Plan, play_set
from .tally import Intake, Tally


def run_on_ray(plan: Plan, intake: Intake, jobs: int) -> tuple[Tally, bool]:
    """Keep ``2 × jobs`` sets in flight as Ray tasks until the plan says stop."""
    try:
        import ray
    except ImportError:
        raise MissingExtra("the ray backend (Ray)", "ray") from None
    started_here = not ray.is_initialized()
    if started_here:
        if os.environ.get("RAY_ADDRESS"):
            ray.init(address=os.environ["RAY_ADDRESS"], log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False)
    remote_set = ray.remote(play_set)
    pending: list[Any] = []
    try:
        while True:
            while len(pending) < 2 * max(1, jobs) and (index := intake.next_task()) is not None:
                pending.append(remote_set.remote(plan, index))
            if not pending:
                return intake.tally, False
            ready, pending = ray.wait(pending, num_returns=1)
            results: list[GameResult] = ray.get(ready[0])
            intake.offer(results)
    except KeyboardInterrupt:
        return intake.tally, True
    finally:
        for task in pending:
            ray.cancel(task, force=True)
        if started_here:
            ray.shutdown()
