"""Every worked check at the end of RULES.md (the two scoring checks are in test_rules.py)."""

import pytest

from pasur import IllegalMove, Move, Rules
from pasur.core.cards import Card, mask_of

from .helpers import cards, moves_text, position


def test_seven_on_a_2_2_4_a_10_table():
    """Table A♥ 2♣ 2♦ 4♠ 10♣, play 7♥: 7♥x4♠ or 7♥x2♣+2♦; A and 10 stay; it may not lay down."""
    game = position("AH 2C 2D 4S 10C", "7H")
    assert moves_text(game) == {"7Hx4S", "7Hx2C+2D"}
    with pytest.raises(IllegalMove, match="must capture"):
        game.play(Move(Card.parse("7H")))
    with pytest.raises(IllegalMove, match="7H can take 2C\\+2D or 4S here: say which"):
        game.play("7H")
    game.play("7Hx2C+2D")
    assert game.table == mask_of(cards("AH 4S 10C"))


def test_king_takes_one_king_never_both():
    """Table K♦ K♣ 5♥, play K♠: take K♦, or take K♣; never both."""
    game = position("KD KC 5H", "KS")
    assert moves_text(game) == {"KSxKD", "KSxKC"}
    with pytest.raises(IllegalMove):
        game.play("KSxKC+KD")


def test_jack_takes_numerals_and_jacks_not_queen_and_is_no_sur():
    """Table Q♥ 3♦ J♣, play J♠: takes 3♦ and J♣; Q♥ stays. No Sur even without the Q."""
    rules = Rules(bury_table_jack=False)
    game = position("QH 3D JC", "JS", rules)
    assert moves_text(game) == {"JSx3D+JC"}
    game.play("JS")
    assert game.table == mask_of(cards("QH"))
    game = position("3D JC", "JS", rules)
    game.play("JS")
    assert game.table == 0 and game.surs == [0, 0]


def test_queen_on_a_lone_queen_in_the_first_deal_is_a_sur():
    """Table Q♥ alone, play Q♣ in the first deal: a Sur."""
    game = position("QH", "QC")
    assert game.deal == 1
    game.play("QC")
    assert game.surs == [1, 0]


def test_six_takes_two_and_three_leaving_the_six():
    """Table 6♦ 2♣ 3♥, play 6♣: takes 2♣ and 3♥; 6♦ stays, no Sur. 5♣ instead takes 6♦."""
    game = position("6D 2C 3H", "6C 5C")
    assert moves_text(game) == {"6Cx2C+3H", "5Cx6D"}
    game.play("6C")
    assert game.table == mask_of(cards("6D")) and game.surs == [0, 0]


def test_sweep_in_the_last_deal_is_no_sur():
    """Table 2♣ 3♥ during the last deal, play 6♣: takes both, empties the table, no Sur."""
    game = position("2C 3H", "6C", last_deal=True)
    game.play("6C")
    assert game.table == 0 and game.surs == [0, 0]


def test_ace_on_a_lone_ten_is_a_sur():
    """Table 10♦ alone, play A♣ in an earlier deal: a Sur (1 + 10 = 11)."""
    game = position("10D", "AC")
    game.deal, game.dealt = 3, 36
    game.play("AC")
    assert game.surs == [1, 0]
