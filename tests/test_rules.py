"""One test (at least) per rule point of RULES.md, each naming the point it checks."""

from __future__ import annotations

import random

import pytest

from pasur import IllegalMove, Match, Move, Round, Rules, deal_deck
from pasur.core.cards import JACKS, KINGS, QUEENS, Card, mask_of
from pasur.core.deal import table_problem

from .helpers import cards, moves_text, position


def deck_with(table: str, players: int = 2, front: str = "", seed: int = 0) -> list[int]:
    """A deck whose first-deal table is ``table`` and whose first cards are ``front``."""
    fixed = cards(front) + cards(table)
    rest = [card for card in range(52) if card not in fixed]
    random.Random(seed).shuffle(rest)
    hands_needed = 4 * players - len(cards(front))
    return cards(front) + rest[:hands_needed] + cards(table) + rest[hands_needed:]


# -- Cards, seats, sides ------------------------------------------------------------------------


def test_cards_numerals_count_face_value_and_faces_have_none():
    """Cards: A = 1, 2 … 10 at face value; J, Q, K have no number value."""
    game = position("10H", "AC JC QC KC")
    assert moves_text(game) == {"ACx10H", "JCx10H", "QC", "KC"}
    game = position("9H 8S", "2C 3D 4S")
    assert moves_text(game) == {"2Cx9H", "3Dx8S", "4S"}


def test_sides_four_players_partners_sit_opposite():
    """Sides: with 4 players seats 0+2 form side 0 and seats 1+3 side 1."""
    rules = Rules(players=4)
    assert [rules.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert Rules(players=3).sides == 3
    assert Rules(players=2).sides == 2


def test_seats_play_in_order():
    """Seats are numbered in the order of play: turns go 0, 1, 2, … and wrap."""
    match = Match(Rules(players=3), seed=4)
    seen = []
    for _ in range(7):
        seen.append(match.turn)
        match.play(match.legal_moves()[0])
    assert seen == [0, 1, 2, 0, 1, 2, 0]


# -- A round ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_1_dealer_and_first_player_pass_each_round(players):
    """A round 1: in round k seat (k-1) mod n plays first."""
    rules = Rules(players=players)
    deck = deal_deck(random.Random(1), rules)
    for number in range(1, 6):
        game = Round(rules, deck, number)
        assert game.first == game.turn == (number - 1) % players


def test_round_2_first_deal_gives_four_each_from_the_first_player_then_four_to_the_table():
    """A round 2: starting with the first player each gets 4 from the top, then 4 to the table."""
    rules = Rules(players=3)
    deck = deal_deck(random.Random(2), rules)
    game = Round(rules, deck, number=2)  # seat 1 plays first
    assert game.hands[1] == mask_of(deck[0:4])
    assert game.hands[2] == mask_of(deck[4:8])
    assert game.hands[0] == mask_of(deck[8:12])
    assert game.table == mask_of(deck[12:16])
    assert game.pack == 36


@pytest.mark.parametrize(
    "table,reason",
    [
        ("JC JD 5H 6S", "two or more Jacks"),
        ("QC QD QH 6S", "three or more Queens"),
        ("KC KD KH 6S", "three or more Kings"),
    ],
)
def test_round_2_tables_that_force_a_redeal_are_refused(table, reason):
    """A round 2: 2+ Jacks, 3+ Queens or 3+ Kings on the table: deal again."""
    assert reason in table_problem(mask_of(cards(table)), Rules())


def test_round_2_the_deal_redeals_until_the_table_stands():
    """A round 2: deal_deck never leaves a Jack (it is buried), 3 Queens or 3 Kings."""
    for players in (2, 3, 4):
        rules = Rules(players=players)
        rng = random.Random(players)
        for _ in range(3000):
            deck = deal_deck(rng, rules)
            table = mask_of(deck[4 * players : 4 * players + 4])
            assert not table & JACKS
            assert (table & QUEENS).bit_count() < 3 and (table & KINGS).bit_count() < 3


class _ScriptedShuffle(random.Random):
    """A Random whose first shuffle puts a Jack on the table and whose bury position is known."""

    def __init__(self, order: list[int], bury_at: int) -> None:
        super().__init__(0)
        self.order, self.bury_at, self.asked = order, bury_at, None

    def shuffle(self, x):  # type: ignore[override]
        x[:] = self.order

    def randrange(self, start, stop=None, step=1):  # type: ignore[override]
        self.asked = (start, stop)
        return self.bury_at


def test_round_2_one_jack_is_buried_not_on_top_and_replaced_by_the_top_card():
    """A round 2: exactly one Jack on the table is buried at a random place in the undealt pack,
    not on top, and replaced by the top card of the pack."""
    order = deck_with("5C JH 7D 9S")
    top_of_pack = order[12]
    rng = _ScriptedShuffle(order, bury_at=5)
    deck = deal_deck(rng, Rules())
    assert rng.asked == (1, 40)  # 39 cards left after the top one replaced the Jack: 1 … 39
    assert deck[8:12] == [order[8], top_of_pack, order[10], order[11]]
    assert deck[12 + 5] == Card.parse("JH")
    assert deck[12] != Card.parse("JH")
    assert sorted(deck) == list(range(52))


def test_round_2_a_jack_that_comes_again_forces_a_redeal():
    """A round 2: if the table then holds a Jack again, reshuffle and deal again."""
    order = deck_with("5C JH 7D 9S")
    order.remove(Card.parse("JS"))
    order.insert(12, Card.parse("JS"))  # the replacement is a Jack too
    first = True

    class Twice(_ScriptedShuffle):
        def shuffle(self, x):  # type: ignore[override]
            nonlocal first
            x[:] = order if first else deck_with("2C 3D 4H 6S", seed=9)
            first = False

    deck = deal_deck(Twice(order, bury_at=3), Rules())
    assert deck == deck_with("2C 3D 4H 6S", seed=9)


@pytest.mark.parametrize("players,deals", [(2, 6), (3, 4), (4, 3)])
def test_round_3_later_deals_give_four_each_and_nothing_to_the_table(players, deals):
    """A round 3: 4 more each when every hand is empty; 6, 4 or 3 deals; the last empties the pack."""
    rules = Rules(players=players)
    game = Round(rules, deal_deck(random.Random(players), rules))
    seen_deals = {1}
    while not game.over:
        table_before = game.table
        deal_before = game.deal
        code = game.legal_codes()[0]
        game.play_code(code)
        assert game.table & ~table_before in (0, 1 << (code & 63))  # only the laid card joins
        if game.deal != deal_before:
            seen_deals.add(game.deal)
            assert all(hand.bit_count() == 4 for hand in game.hands)
            assert game.last_deal == (game.deal == deals)
    assert seen_deals == set(range(1, deals + 1))
    assert game.pack == 0


def test_round_4_a_card_that_can_capture_must_but_another_card_may_be_laid():
    """A round 4: a capturing card must capture; the player may play a card that cannot."""
    game = position("4S", "7H 8D")
    assert moves_text(game) == {"7Hx4S", "8D"}
    with pytest.raises(IllegalMove, match="7H must capture here: it can take 4S"):
        game.play(Move(Card.parse("7H")))
    assert game.play("8D").move == Move(Card.parse("8D"))


def test_round_5_numeral_takes_one_set_totalling_eleven():
    """A round 5: a numeral takes one set of numerals that with it total 11; a 7 takes a 4, or a
    3 and an A, or two 2s."""
    game = position("4H 3D AS 2C 2D KH", "7C")
    assert moves_text(game) == {"7Cx4H", "7CxAS+3D", "7Cx2C+2D"}


def test_round_5_numerals_never_take_faces():
    """A round 5: a numeral never takes J, Q or K."""
    game = position("QH KH", "AC")
    assert moves_text(game) == {"AC"}
    game = position("JD", "AC", Rules(bury_table_jack=False))
    assert moves_text(game) == {"AC"}


def test_round_5_king_and_queen_take_exactly_one_of_their_rank():
    """A round 5: a King takes one King, a Queen one Queen; the player picks which."""
    game = position("QD QC KH 5S", "QS")
    assert moves_text(game) == {"QSxQD", "QSxQC"}
    game = position("KH 5S", "KS QH")
    assert moves_text(game) == {"KSxKH", "QH"}


def test_round_5_jack_takes_every_numeral_and_jack_but_no_face():
    """A round 5: a Jack takes every numeral and Jack, not K or Q; with none it stays."""
    game = position("QH 3D JC 9S KD", "JS", Rules(bury_table_jack=False))
    assert moves_text(game) == {"JSx3D+9S+JC"}
    game = position("QH KD", "JS")
    assert moves_text(game) == {"JS"}
    game.play("JS")
    assert game.table == mask_of(cards("QH KD JS"))


def test_round_5_only_a_jack_captures_a_jack():
    """A round 5: only a Jack ever captures a Jack."""
    game = position("JC", "AC KD QD 10S", Rules(bury_table_jack=False))
    assert moves_text(game) == {"AC", "KD", "QD", "10S"}


def test_round_6_capture_pile_and_last_capturer():
    """A round 6: the played and taken cards go to the side's pile; the last capturer is kept."""
    game = position("4H 9C", "7C", Rules(players=4))
    game.play("7C")
    assert game.captured[0] == mask_of(cards("7C 4H"))
    assert game.last_capturer == 0
    assert game.table == mask_of(cards("9C"))


def test_round_7_sur_clears_the_table():
    """A round 7: a capture leaving the table empty is a Sur, also on the round's first play."""
    game = position("10D", "AC")
    assert not game.history
    game.play("AC")
    assert game.surs == [1, 0]


def test_round_7_no_sur_with_a_jack():
    """A round 7: a sweep with a Jack is no Sur."""
    game = position("3D 5H", "JS")
    game.play("JS")
    assert game.table == 0 and game.surs == [0, 0]


def test_round_7_no_sur_in_the_last_deal():
    """A round 7: a sweep during the last deal is no Sur."""
    game = position("2C 3H", "6C", last_deal=True)
    game.play("6C")
    assert game.surs == [0, 0]


def test_round_7_no_sur_for_a_side_at_the_cutoff():
    """A round 7: a side with 50 or more banked at the round's start scores no Sur."""
    rules = Rules()
    game = Round(rules, deal_deck(random.Random(0), rules), banked=[50, 49])
    game.table, game.hands[0], game.turn = mask_of(cards("10D")), mask_of(cards("AC")), 0
    game.play("AC")
    assert game.surs == [0, 0]
    game = Round(rules, deal_deck(random.Random(0), rules), banked=[49, 70])
    game.table, game.hands[0], game.turn = mask_of(cards("10D")), mask_of(cards("AC")), 0
    game.play("AC")
    assert game.surs == [1, 0]


def test_round_7_cutoff_side_does_not_cancel_the_opponents_surs():
    """A round 7: a side at the cut-off scores no Sur and its sweeps do not cancel others'."""
    rules = Rules()
    game = Round(rules, deal_deck(random.Random(0), rules), banked=[55, 10])
    game.surs = [0, 2]
    game.table, game.hands[0], game.turn = mask_of(cards("10D")), mask_of(cards("AC")), 0
    game.play("AC")  # side 0's sweep
    assert game.surs == [0, 2]
    assert [side.sur_points for side in game.breakdown()] == [0, 10]


def test_round_8_last_capturer_takes_what_is_left_and_it_is_no_sur():
    """A round 8: after the last card the last capturer takes the table; never a Sur."""
    game = position("5H 9D", "6C", last_deal=True)
    game.hands[1] = mask_of(cards("2S"))
    game.play("6Cx5H")
    game.play("2S")  # 2 + 9 = 11: the 2 must take the 9 and empties the table
    assert game.over
    assert game.last_capturer == 1
    assert game.captured[1] == mask_of(cards("2S 9D"))
    game = position("5H 9D", "6C", last_deal=True)
    game.hands[1] = mask_of(cards("KS"))
    game.play("6Cx5H")
    game.play("KS")
    assert game.over and game.captured[0] == mask_of(cards("6C 5H 9D KS"))
    assert game.surs == [0, 0]


def test_round_8_nobody_captured_so_the_table_belongs_to_nobody():
    """A round 8: if nobody captured all round, the cards left belong to nobody."""
    game = position("KC", "QD", last_deal=True)
    game.hands[1] = mask_of(cards("2S"))
    game.play("QD")
    game.play("2S")
    assert game.over and game.last_capturer == -1
    assert game.captured == [0, 0]
    assert [side.total for side in game.breakdown()] == [0, 0]


# -- Scoring a round ---------------------------------------------------------------------------


def finished_round(piles: list[str], surs: list[int], rules: Rules | None = None) -> Round:
    rules = rules or Rules(players=len(piles))
    game = Round(rules, deal_deck(random.Random(0), rules))
    game.captured = [mask_of(cards(pile)) for pile in piles]
    game.surs = surs
    return game


def test_scoring_table():
    """Scoring: 7+ clubs 7, 2♣ 2 (and a club), 10♦ 3, each Ace 1, each Jack 1."""
    clubs7 = "AC 2C 3C 4C 5C 6C 7C"
    game = finished_round([clubs7 + " 10D AD JH JS", "8C 9C AH AS"], [0, 0])
    mine, theirs = game.breakdown()
    assert (mine.clubs, mine.haft_khaj, mine.two_of_clubs, mine.ten_of_diamonds) == (7, 7, 2, 3)
    assert (mine.aces, mine.jacks, mine.total) == (2, 2, 16)
    assert (theirs.clubs, theirs.haft_khaj, theirs.aces, theirs.total) == (2, 0, 2, 2)


def test_scoring_six_clubs_is_not_haft_khaj():
    """Scoring: Haft Khaj needs 7 or more clubs."""
    game = finished_round(["3C 4C 5C 6C 7C 8C", "9C"], [0, 0])
    assert game.breakdown()[0].haft_khaj == 0


def test_scoring_surs_two_sides_net():
    """Worked check: two sides, Surs 3 and 1: the first scores 10 for Surs, the second 0."""
    game = finished_round(["", ""], [3, 1])
    assert [side.sur_points for side in game.breakdown()] == [10, 0]


def test_scoring_surs_three_players_tit_for_tat():
    """Worked check: three players, Surs 2, 1, 0: they score 10, 5 and 0."""
    game = finished_round(["", "", ""], [2, 1, 0])
    assert [side.sur_points for side in game.breakdown()] == [10, 5, 0]


def test_scoring_three_players_may_all_miss_haft_khaj():
    """Scoring: with three players nobody may reach 7 clubs; those 7 points go to nobody."""
    game = finished_round(["AC 2C 3C 4C 5C", "6C 7C 8C 9C", "10C JC QC KC"], [0, 0, 0])
    assert [side.haft_khaj for side in game.breakdown()] == [0, 0, 0]


# -- The match ---------------------------------------------------------------------------------


def _bank(match: Match, surs: list[int], piles: tuple[str, str] = ("", "")) -> None:
    """End the current round with the given Surs (5 points each, no cancelling) and piles."""
    game = match.round
    assert game is not None
    game.surs = surs
    game.captured = [mask_of(cards(pile)) for pile in piles]
    game.over = True
    match._bank(game)


def test_match_scores_carry_over_and_highest_at_target_wins():
    """The match: scores carry over; after a round with a side at 62+, the highest wins."""
    match = Match(Rules(sur_cancel=False), seed=1)
    _bank(match, [8, 4])
    assert match.scores == [40, 20] and not match.over and len(match.rounds) == 2
    assert match.round is not None and match.round.banked == (40, 20)
    _bank(match, [5, 9])
    assert match.scores == [65, 65] and not match.over  # equal: another round
    _bank(match, [0, 0], ("AD AH AS", "JC JD JH JS AC"))
    assert match.scores == [68, 70] and match.over and match.winner == 1
    assert len(match.rounds) == 3


def test_match_the_higher_side_wins_even_if_both_pass_the_target():
    """The match: if several sides pass 62, the highest score wins."""
    match = Match(Rules(sur_cancel=False), seed=1)
    _bank(match, [14, 12], ("", "JC JD JH JS"))
    assert match.scores == [70, 64] and match.winner == 0
