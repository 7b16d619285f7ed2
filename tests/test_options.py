"""Every rules option of RECORDS.md works, alone and together."""

from __future__ import annotations

import itertools
import random

import pytest

from pasur import Match, Move, Round, Rules, RulesError, deal_deck
from pasur.core.cards import JACKS, Card, mask_of
from pasur.core.deal import table_problem

from .helpers import cards, moves_text, position


def test_defaults_are_rules_md():
    rules = Rules()
    assert (rules.players, rules.partnership, rules.target, rules.sur_cutoff) == (2, True, 62, 50)
    assert rules.sur_cancel and not rules.sur_in_last_deal and rules.compulsory_capture
    assert rules.bury_table_jack and rules.redeal_on_faces and rules.haft_khaj == "seven"


@pytest.mark.parametrize(
    "data,message",
    [
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"target": 0}, "target must be a positive number"),
        ({"target": "62"}, "target must be a whole number"),
        ({"sur_cancel": "yes"}, "sur_cancel must be true or false"),
        ({"haft_khaj": "eight"}, "haft_khaj must be"),
        ({"surs": 1}, "unknown rules option 'surs'"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(data, message):
    with pytest.raises(RulesError, match=message):
        Rules.from_dict(data)


def test_target():
    """target: the match ends once a side reaches it."""
    for target in (1, 20, 100):
        match = Match(Rules(target=target), seed=target)
        while not match.over:
            match.play_code(match.rounds[-1].legal_codes()[0])
        assert max(match.scores) >= target
        finals = [sum(g.points()[side] for g in match.rounds[:-1]) for side in range(2)]
        assert max(finals) < target or finals[0] == finals[1]


def test_sur_cutoff_none_lets_a_high_side_score_surs():
    """sur_cutoff null: no cut-off."""
    rules = Rules(sur_cutoff=None)
    game = Round(rules, deal_deck(random.Random(0), rules), banked=[90, 0])
    game.table, game.hands[0], game.turn = mask_of(cards("10D")), mask_of(cards("AC")), 0
    game.play("AC")
    assert game.surs == [1, 0]


def test_sur_cutoff_other_value():
    """sur_cutoff 30: a side with 30 banked scores no Sur."""
    rules = Rules(sur_cutoff=30)
    game = Round(rules, deal_deck(random.Random(0), rules), banked=[30, 0])
    game.table, game.hands[0], game.turn = mask_of(cards("10D")), mask_of(cards("AC")), 0
    game.play("AC")
    assert game.surs == [0, 0]


def test_sur_cancel_off_scores_every_sur():
    """sur_cancel false: every Sur scores 5."""
    game = position("10D", "AC", Rules(sur_cancel=False))
    game.surs = [3, 1]
    assert [side.sur_points for side in game.breakdown()] == [15, 5]


def test_sur_in_last_deal():
    """sur_in_last_deal true: a sweep in the last deal is a Sur."""
    game = position("2C 3H", "6C", Rules(sur_in_last_deal=True), last_deal=True)
    game.play("6C")
    assert game.surs == [1, 0]


def test_compulsory_capture_off_lets_any_card_be_laid():
    """compulsory_capture false: any card may be laid on the table."""
    game = position("4S 2H", "7H JC", Rules(compulsory_capture=False))
    assert moves_text(game) == {"7Hx4S", "7H", "JCx2H+4S", "JC"}
    game.play(Move(Card.parse("7H")))
    assert game.table == mask_of(cards("2H 4S 7H"))


def test_bury_table_jack_off_leaves_a_single_jack_on_the_table():
    """bury_table_jack false: a Jack dealt to the table stays there (two still redeal)."""
    rules = Rules(bury_table_jack=False)
    assert table_problem(mask_of(cards("JC 2D 3H 4S")), rules) is None
    assert table_problem(mask_of(cards("JC JD 3H 4S")), rules) is not None
    rng = random.Random(3)
    seen_jack = False
    for _ in range(2000):
        deck = deal_deck(rng, rules)
        table = mask_of(deck[8:12])
        assert (table & JACKS).bit_count() <= 1
        seen_jack |= bool(table & JACKS)
    assert seen_jack


def test_redeal_on_faces_off_redeals_only_on_jacks():
    """redeal_on_faces false: three Queens or Kings stay; two Jacks still redeal."""
    rules = Rules(redeal_on_faces=False)
    assert table_problem(mask_of(cards("QC QD QH 4S")), rules) is None
    assert table_problem(mask_of(cards("KC KD KH KS")), rules) is None
    assert table_problem(mask_of(cards("QC QD QH 4S")), Rules()) is not None


def test_haft_khaj_most():
    """haft_khaj "most": 7 to the side with strictly the most clubs; a tie scores nobody."""
    rules = Rules(players=3, haft_khaj="most")
    game = Round(rules, deal_deck(random.Random(0), rules))
    game.captured = [mask_of(cards(p)) for p in ("AC 2C 3C 4C 5C", "6C 7C 8C 9C", "10C JC QC KC")]
    assert [side.haft_khaj for side in game.breakdown()] == [7, 0, 0]
    game.captured = [mask_of(cards(p)) for p in ("AC 2C 3C 4C", "6C 7C 8C 9C", "10C JC QC KC 5C")]
    assert [side.haft_khaj for side in game.breakdown()] == [0, 0, 7]
    game.captured = [mask_of(cards(p)) for p in ("AC 2C 3C 4C", "6C 7C 8C 9C", "10C JC QC")]
    assert [side.haft_khaj for side in game.breakdown()] == [0, 0, 0]


def test_partnership_off_makes_four_individual_sides():
    """partnership false with 4 players: each player scores alone."""
    rules = Rules(players=4, partnership=False)
    assert rules.sides == 4 and [rules.side_of(s) for s in range(4)] == [0, 1, 2, 3]
    match = Match(rules, seed=2)
    match.play(match.legal_moves()[0])
    assert len(match.scores) == 4


OPTION_VALUES = {
    "sur_cutoff": [50, None],
    "sur_cancel": [True, False],
    "sur_in_last_deal": [False, True],
    "compulsory_capture": [True, False],
    "bury_table_jack": [True, False],
    "redeal_on_faces": [True, False],
    "haft_khaj": ["seven", "most"],
}


@pytest.mark.parametrize("players,partnership", [(2, True), (3, True), (4, True), (4, False)])
def test_every_combination_of_options_plays_whole_matches(players, partnership):
    """All options together: random matches finish with consistent accounting."""
    rng = random.Random(players)
    combos = list(itertools.product(*OPTION_VALUES.values()))
    for index, combo in enumerate(rng.sample(combos, 24)):
        options = dict(zip(OPTION_VALUES, combo, strict=True))
        rules = Rules(players=players, partnership=partnership, target=40, **options)
        match = Match(rules, seed=index)
        while not match.over:
            codes = match.rounds[-1].legal_codes()
            assert codes
            match.play_code(codes[rng.randrange(len(codes))])
        assert max(match.scores) >= 40
