"""Ratings: one model, from the ``openskill`` library, for two players, three and four (in
partnership, or each for themselves), each kind of table rated apart.

We use OpenSkill's Bradley–Terry model (Weng & Lin 2011) for every kind of rated table rather than
Glicko-2 for one and a team model for another: one model keeps a player's 2-, 3- and 4-player
ratings comparable in meaning, it rates a partnership as a team and a match of three (or of four
each for themselves) as the winner ahead of each other player (the others level) without a rule of
our own, and its win chance is Elo's logistic curve, so the bots' ratings — Elo differences
measured on duplicate deals (docs/STRENGTH.md) — sit on the same scale. Its parameters put it on
that scale: ``beta`` is chosen so that two settled ratings 400 apart give the stronger a 10-to-1
chance, as in Elo. A rating is shown as its mean (``value``) and deviation; a new one starts at
1500 ± 350 and is provisional (shown "1500?") while its deviation is above `PROVISIONAL`. A bot's
rating is fixed: it plays with a small deviation and its own change is thrown away."""

from __future__ import annotations

import math
from dataclasses import dataclass

from openskill.models import BradleyTerryFull

from ..core import Rules
from ..core.rules import TABLES
from .bots import BOT_RATINGS_AT, RATED_TABLES
from .errors import NotSignedIn, TableError

#: A new player's rating and deviation.
START, START_DEVIATION = 1500.0, 350.0
#: Elo's scale: 400 points are odds of 10 to 1.
ELO_SCALE = 400 / math.log(10)
#: A rating is provisional while its deviation is above this (about 15 rated matches).
PROVISIONAL = 150.0
#: The deviation a bot plays with: its measured rating is known to about this.
BOT_DEVIATION = 25.0
#: The rating of a bot level the operator added (never measured): the bottom of the ladder.
UNMEASURED_BOT = min(min(ratings.values()) for ratings in BOT_RATINGS_AT.values())

#: The rules a rated match is played by: the standard ones at each kind of rated table.
RATED_RULES = tuple(TABLES[kind] for kind in RATED_TABLES)

MODEL = BradleyTerryFull(mu=START, sigma=START_DEVIATION, beta=ELO_SCALE / math.sqrt(2), tau=START / 300)


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating: its value and its deviation (how far it may be off)."""

    value: float = START
    deviation: float = START_DEVIATION

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL

    def to_json(self) -> dict[str, float | bool]:
        return {"value": round(self.value), "deviation": round(self.deviation), "provisional": self.provisional}


def check_rated(rules: Rules, timer: int, account: int | None) -> None:
    """A rated table needs the standard rules of two players, three, or four (in partnership or each
    for themselves), a turn timer (an absent player cannot hold it up), and its people signed in."""
    if account is None:
        raise NotSignedIn("rated_needs_account")
    if rules not in RATED_RULES:
        raise TableError("rated_rules")
    if not timer:
        raise TableError("rated_timer")


def expected_score(sides: list[list[Rating]], side: int) -> float:
    """The model's chance that ``side`` wins a match between ``sides``; with more than two, the
    least of its chances against each other side alone (the model's own figure for three is at
    most 2/3, so a player all but sure to beat each of two bots is still, by it, unsure)."""
    teams = [[MODEL.rating(mu=rating.value, sigma=rating.deviation) for rating in team] for team in sides]
    return min(float(MODEL.predict_win([teams[side], team])[0]) for index, team in enumerate(teams) if index != side)


def match_wins_elo(wins: float, sides: int, seats: int = 1) -> float:
    """The Elo difference, as the rating model reads matches of ``sides`` sides each playing alone,
    of a player who sits in ``seats`` of them (as a bot level can) and wins a share ``wins`` of the
    matches (all its seats together) against equal others: a match's winner is ahead of each other
    player and the others level with one another, so one of its seats scores against one of the
    others' ``wins / seats`` for its wins plus a half of the matches neither wins, and the Elo is
    that score's, as between two. With two sides, the Elo of the share of matches won."""
    own, theirs = wins / seats, (1 - wins) / (sides - seats)
    score = own + (1 - own - theirs) / 2
    score = min(max(score, 1e-6), 1 - 1e-6)
    return 400 * math.log10(score / (1 - score))


def bot_rating(level: str, kind: str = "2") -> Rating:
    """A bot level's fixed rating at a rated table of the kind ``kind`` (`pasur.Rules.table`)."""
    return Rating(float(BOT_RATINGS_AT[kind].get(level, UNMEASURED_BOT)), BOT_DEVIATION)


def rate(sides: list[list[Rating]], winner: int) -> list[list[Rating]]:
    """The ratings after a match between ``sides`` (each a list of its players' ratings), won by
    side ``winner``."""
    teams = [[MODEL.rating(mu=rating.value, sigma=rating.deviation) for rating in side] for side in sides]
    ranks = [0.0 if index == winner else 1.0 for index in range(len(sides))]
    rated = MODEL.rate(teams, ranks=ranks)
    return [[Rating(player.mu, player.sigma) for player in side] for side in rated]
