"""How the solver samples deals: one frozen value that the solver bot, `solver` and the
native core pass down, and the evidence it may weigh the deals by."""

from __future__ import annotations

from dataclasses import dataclass

from .moves import MoveCode

#: The transposition table's default size. A thread's table is allocated once and kept for its
#: next solve (a new size allocates again).
DEFAULT_TABLE_MB = 16

#: Nodes the solver searches in about a millisecond (a low reading: 5 to 11 million a second on
#: one core), for the node limit that keeps one deal within a time.
NODES_A_MILLISECOND = 5000


def node_limit_within(ms: float | None) -> int:
    """The node limit past which a deal would take longer than ``ms`` milliseconds (0: none)."""
    return int(ms * NODES_A_MILLISECOND) if ms is not None else 0


#: A play another seat made in the current deal: its seat, the table it saw, the cards it played
#: later in the deal, and the move's code.
Evidence = tuple[int, int, int, MoveCode]
#: What the solver needs to judge an evidence play: each seat's cards played after it in the deal,
#: the side that had captured last (-1 none) and each side's clubs before it.
Context = tuple[tuple[int, int, int, int], int, tuple[int, int, int, int]]


@dataclass(frozen=True, slots=True)
class Sampling:
    """How `sampled_values()` solves its deals, and what it knows of the others' plays.

    ``deal_only`` searches each deal to the end of the current deal; ``node_limit`` ends the
    sampling at the first deal that needs more nodes (0: none), ``node_budget`` after the deal with
    which the nodes searched in all reach it (0: none); ``table_mb`` sizes the transposition table.
    With ``evidence``, each deal is weighted by how likely those plays are with its hands, a player
    passing up an immediate gain of g points with likelihood exp(-g / ``temper``), a play that
    leaves a table one card could sweep giving up ``gift`` times a Sur more; with ``contexts`` (one
    for each play), a play gives up what the solver finds it lost to the end of the deal with that
    deal's hands seen. With more than two sides, ``each`` searches each deal (to the end of the
    current deal) with every player playing for itself, else the others as one coalition."""

    deal_only: bool = False
    node_limit: int = 0
    node_budget: int = 0
    table_mb: float = DEFAULT_TABLE_MB
    evidence: tuple[Evidence, ...] = ()
    temper: float = 1.0
    gift: float = 0.0
    contexts: tuple[Context, ...] | None = None
    each: bool = False


#: The defaults: each deal solved to the round's end with the default table, weighing nothing.
DEFAULT_SAMPLING = Sampling()
