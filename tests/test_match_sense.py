"""Match sense: the equity table agrees with matches simulated from the same round endings, is
fair between equal sides and follows the rules' cut-off; the bot plays for the match where the
round's points would have it play otherwise."""

from __future__ import annotations

import random

import pytest

from pasur import Rules
from pasur.bots import make_bot
from pasur.bots.match_sense import MatchSense, _endings, equity_table
from pasur.core.solver import Samples

from .helpers import position


def simulated_share(a: int, b: int, rules: Rules, matches: int, rng: random.Random) -> float:
    """Side a's share of ``matches`` played by drawing whole rounds from the measured endings."""
    tables = {key: _endings(*key, rules.sur_cancel) for key in ((x, y) for x in (False, True) for y in (False, True))}
    won = 0.0
    for _ in range(matches):
        x, y = a, b
        while max(x, y) < rules.target or x == y:
            endings = tables[
                (rules.sur_cutoff is None or x < rules.sur_cutoff, rules.sur_cutoff is None or y < rules.sur_cutoff)
            ]
            gain_x, gain_y, _ = rng.choices(endings, weights=[count for _, _, count in endings])[0]
            x, y = x + gain_x, y + gain_y
        won += x > y
    return won / matches


def test_the_equity_table_is_the_matches_its_round_endings_make():
    rng = random.Random(1)
    rules = Rules()
    table = equity_table(rules.target, rules.sur_cutoff, rules.sur_cancel)
    for a, b in [(0, 0), (30, 20), (45, 52), (49, 44), (58, 40), (61, 55)]:
        share = simulated_share(a, b, rules, 3000, rng)
        spread = (share * (1 - share) / 3000) ** 0.5
        assert abs(table[a][b] - share) < 4 * spread + 0.01, (a, b, table[a][b], share)


def test_equal_sides_have_even_chances_and_more_points_help_below_the_cutoff():
    table = equity_table(62, None, True)
    assert all(abs(table[a][b] + table[b][a] - 1) < 1e-9 for a in range(62) for b in range(62))
    assert all(table[a + 1][30] >= table[a][30] - 1e-12 for a in range(61))
    cut = equity_table(62, 50, True)  # crossing the cut-off costs the Surs of the next rounds
    assert cut[50][45] < cut[49][45] and table[50][45] > table[49][45]


def test_the_round_end_is_valued_by_the_match_it_leaves():
    sense = MatchSense(Rules(), 55, 55, 0, 0)  # the last deal: the round's end is known
    assert sense.win_chance(4) == 1.0  # 12 to 8: 67 against 63
    assert sense.win_chance(0) == 0.5  # 65 all: another round, even
    assert sense.win_chance(-4) == 0.0
    spread = MatchSense(Rules(), 55, 55, 0, 24)  # half a round still to deal: less certain
    assert 0.5 < spread.win_chance(4) < 1.0


def test_the_bot_plays_for_the_match_not_the_rounds_points(monkeypatch):
    game = position("5H", "5C 6D", last_deal=True)
    game.banked = (55, 55)
    view, legal = game.view(0), game.legal_moves()
    safe, bold = legal[0].code, legal[1].code
    # the safe move ends the round 4 ahead every time; the bold one 10 ahead or level: more points
    # on average, but only an even chance of the match in half the deals
    samples = Samples({safe: [4, 4], bold: [10, 0]}, [1.0, 1.0])
    chosen = {}
    for match in (0, 1):
        bot = make_bot(f"solver:match={match}", seed=1)
        monkeypatch.setattr(bot, "sampled", lambda view, legal: samples)
        chosen[match] = bot.choose(view, legal).code
    assert chosen == {0: bold, 1: safe}


@pytest.mark.parametrize("rules", [Rules(players=3), Rules(target=1000)])
def test_match_sense_stays_out_where_it_cannot_play(monkeypatch, rules):
    """Three sides, or a target too far for the table: the round's points decide."""
    assert not MatchSense.applies(rules)
    game = position("5H", "5C 6D", rules, last_deal=True)
    game.banked = (55,) * rules.sides
    legal = game.legal_moves()
    samples = Samples({legal[0].code: [4, 4], legal[1].code: [10, 0]}, [1.0, 1.0])
    bot = make_bot("solver:match=1", seed=1)
    monkeypatch.setattr(bot, "sampled", lambda view, legal: samples)
    assert bot.choose(game.view(0), legal) == legal[1]
