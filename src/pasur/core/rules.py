"""The rules options of RULES.md's variant table, with their JSON names from RECORDS.md."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from .errors import RulesError

HaftKhaj = Literal["seven", "most"]


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules in force. Every field defaults to what RULES.md plays."""

    players: int = 2
    partnership: bool = True
    target: int = 62
    sur_cutoff: int | None = 50
    sur_cancel: bool = True
    sur_in_last_deal: bool = False
    compulsory_capture: bool = True
    bury_table_jack: bool = True
    redeal_on_faces: bool = True
    haft_khaj: HaftKhaj = "seven"

    def __deepcopy__(self, memo: dict[int, object]) -> Rules:
        """Itself: rules never change once made (a copied game state shares them)."""
        return self

    def __post_init__(self) -> None:
        _check_int("players", self.players)
        if self.players not in (2, 3, 4):
            raise RulesError(f"players must be 2, 3 or 4, not {self.players}")
        _check_int("target", self.target)
        if self.target < 1:
            raise RulesError(f"target must be a positive number, not {self.target}")
        if self.sur_cutoff is not None:
            _check_int("sur_cutoff", self.sur_cutoff)
            if self.sur_cutoff < 0:
                raise RulesError(f"sur_cutoff must be 0 or more (or none), not {self.sur_cutoff}")
        for name in (
            "partnership",
            "sur_cancel",
            "sur_in_last_deal",
            "compulsory_capture",
            "bury_table_jack",
            "redeal_on_faces",
        ):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, not {getattr(self, name)!r}")
        if self.haft_khaj not in ("seven", "most"):
            raise RulesError(f'haft_khaj must be "seven" or "most", not {self.haft_khaj!r}')

    @property
    def sides(self) -> int:
        """How many sides score: 2 for four players in partnership, else one per player."""
        return 2 if self.players == 4 and self.partnership else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat plays for: partners sit opposite (seats 0+2 and 1+3)."""
        return seat % self.sides

    @property
    def table(self) -> str:
        """The kind of table: "2", "3", "4" (in partnership) or "4-each" (each for themselves)."""
        return "4-each" if self.players == 4 and not self.partnership else str(self.players)

    @property
    def table_tag(self) -> str:
        """The kind of table as file names carry it: "2p", "3p", "4p" or "4each"."""
        return "4each" if self.table == "4-each" else f"{self.players}p"

    @property
    def deals(self) -> int:
        """Deals in a round: 6 with 2 players, 4 with 3, 3 with 4."""
        return 12 // self.players

    def to_dict(self, changed_only: bool = False) -> dict[str, Any]:
        """The options as JSON-ready values; with ``changed_only`` just those off their default."""
        data = {name: getattr(self, name) for name in _OPTION_NAMES}  # asdict's deep copy is slow
        if changed_only:
            default = Rules()
            data = {key: value for key, value in data.items() if getattr(default, key) != value}
            data.setdefault("players", self.players)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Read a record's ``rules`` object; every option left out takes its default."""
        if not isinstance(data, dict):
            raise RulesError("rules must be a JSON object")
        known = {field.name for field in fields(cls)}
        for key in data:
            if key not in known:
                raise RulesError(f"unknown rules option '{key}' (known: {', '.join(sorted(known))})")
        return cls(**data)

    def with_options(self, **changes: Any) -> Rules:
        """A copy with some options changed."""
        return replace(self, **changes)

    def describe(self) -> list[str]:
        """The rules in force, one plain line each."""
        sides = (
            "partners: seats 0+2 against 1+3"
            if self.players == 4 and self.partnership
            else "each player for themselves"
        )
        cutoff = (
            f"a side with {self.sur_cutoff} or more banked at the start of a round scores no Sur"
            if self.sur_cutoff is not None
            else "no Sur cut-off"
        )
        return [
            f"players: {self.players} ({sides}); {self.deals} deals of 4 cards a round",
            f"the match ends after the round in which a side reaches {self.target}; highest wins, a tie plays on",
            "a Jack dealt to the table is buried in the pack"
            if self.bury_table_jack
            else "a Jack dealt to the table stays there",
            "redeal on 2+ Jacks, 3+ Queens or 3+ Kings on the table"
            if self.redeal_on_faces
            else "redeal on 2+ Jacks on the table",
            "a card that can capture must capture"
            if self.compulsory_capture
            else "any card may be laid on the table, even one that could capture",
            "Sur: 5 points, tit for tat (only the net difference scores)"
            if self.sur_cancel
            else "Sur: 5 points each, no cancelling",
            "Sur is allowed in the last deal" if self.sur_in_last_deal else "no Sur in the last deal",
            cutoff,
            "Haft Khaj: 7 points for 7 or more clubs"
            if self.haft_khaj == "seven"
            else "Haft Khaj: 7 points for strictly the most clubs",
            "2 of clubs 2, 10 of diamonds 3, each Ace 1, each Jack 1",
        ]


def _check_int(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(f"{name} must be a whole number, not {value!r}")


#: The options' names, in order.
_OPTION_NAMES = tuple(field.name for field in fields(Rules))


#: The standard rules at each kind of table, by `Rules.table`.
TABLES = {
    rules.table: rules for rules in (Rules(), Rules(players=3), Rules(players=4), Rules(players=4, partnership=False))
}
