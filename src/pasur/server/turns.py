"""What a table remembers of the moves played on it, besides the match itself: which plays made a
Sur (the move log marks them), whose turns the turn timer played, how many moves each seat made
itself, and the move ids its clients sent (a repeat is acknowledged, not played again); and so
how the match ended (`results.Outcome`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Match, Played
from .errors import TableError
from .results import MOVES_TO_COUNT, Ended, Outcome
from .seats import TableSettings

#: A person whose last turns of a rated match, this many or more, the turn timer played has left
#: it: their side loses.
ABANDONED_TURNS = 3
#: Client move ids remembered per table, to acknowledge a repeated move.
REMEMBERED_IDS = 256


@dataclass
class Turns:
    """The moves of one table as they were played."""

    #: By round number, which of its plays (from 0) made a Sur that counts (the last two rounds).
    surs: dict[int, list[int]] = field(default_factory=dict)
    #: By seat, how many of its turns in a row, up to the last, the turn timer played.
    timed: dict[int, int] = field(default_factory=dict)
    #: By seat, the moves it made itself (not the turn timer for it).
    own: dict[int, int] = field(default_factory=dict)
    #: (seat, client move id) → (the version it made, its move's short text).
    client_ids: dict[tuple[int, str], tuple[int, str]] = field(default_factory=dict)

    def played(self, match: Match, played: Played, seat: int, timed: bool) -> None:
        """Note a move just played on ``match`` by ``seat`` (by the turn timer for it: ``timed``)."""
        if played.sur:
            self.surs.setdefault(played.round, []).append(len(match.rounds[played.round - 1].history) - 1)
            for old in [number for number in self.surs if number < played.round - 1]:
                del self.surs[old]
        if timed:
            self.timed[seat] = self.timed.get(seat, 0) + 1
        else:
            self.timed.pop(seat, None)
            self.own[seat] = self.own.get(seat, 0) + 1

    def remember(self, seat: int, client_id: str, version: int, text: str) -> None:
        """Keep that ``seat``'s move ``client_id`` made ``version`` (the latest ids only)."""
        self.client_ids[seat, client_id] = (version, text)
        if len(self.client_ids) > REMEMBERED_IDS:
            self.client_ids.pop(next(iter(self.client_ids)))

    def made_before(self, seat: int, client_id: str | None, text: str) -> int | None:
        """The version ``seat``'s move ``client_id`` made, when it was played already (None when
        not); TableError when that id was used for another move (``id_reused``)."""
        if not client_id or (seat, client_id) not in self.client_ids:
            return None
        version, text_made = self.client_ids[seat, client_id]
        if _spelled(text) != _spelled(text_made):
            raise TableError("id_reused", client=client_id[:64])
        return version

    def outcome(self, settings: TableSettings, match: Match | None) -> Outcome | None:
        """How the match ended (None while it goes on): a side resigned; at a rated table, a
        person the turn timer played for to the end (`ABANDONED_TURNS`) left it; else
        the score decided."""
        if settings.resigned is not None:
            return self.ended_early(settings, settings.resigned, Ended.RESIGNED, match)
        if match is None or match.winner is None:
            return None
        seat, turns = max(self.timed.items(), key=lambda item: item[1], default=(0, 0))
        if settings.rated and turns >= ABANDONED_TURNS:
            return self.ended_early(settings, seat, Ended.ABANDONED, match)
        return Outcome(match.winner)

    def ended_early(self, settings: TableSettings, seat: int, how: Ended, match: Match | None) -> Outcome:
        """The match lost by ``seat``'s side ``how``, won by the other side (of more than two, the
        one with the most points banked, the earlier of two level): aborted, and so never rated,
        while a seat has made fewer than `results.MOVES_TO_COUNT` moves itself."""
        rules = settings.rules
        early = any(self.own.get(other, 0) < MOVES_TO_COUNT for other in range(rules.players))
        lost = rules.side_of(seat)
        scores = match.scores if match is not None else [0] * rules.sides
        winner = max((side for side in range(rules.sides) if side != lost), key=lambda side: (scores[side], -side))
        return Outcome(winner, how, aborted=early)


def _spelled(text: str) -> str:
    """A move's short text with case and spaces set aside, to tell a repeat from another move."""
    return "".join(text.split()).upper()
