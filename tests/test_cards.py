"""Cards and the short text notation (RULES.md, Notation)."""

import pytest

from pasur import CARDS, Card, Move
from pasur.core.cards import format_cards, mask_of


def test_every_card_round_trips_through_its_text():
    for card in CARDS:
        assert Card.parse(str(card)) == card
        assert Card.parse(card.symbol()) == card
        assert Card.parse(str(card).lower()) == card


@pytest.mark.parametrize(
    "text,expected",
    [
        ("10D", "10D"),
        ("TD", "10D"),
        ("td", "10D"),
        ("10♦", "10D"),
        ("t♦", "10D"),
        ("AS", "AS"),
        ("a♠", "AS"),
        ("QC", "QC"),
        ("q♣", "QC"),
        (" 7h ", "7H"),
    ],
)
def test_input_accepts_both_suit_forms_any_case_and_t_for_ten(text, expected):
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "1", "11C", "ZZ", "7X", "10", "JJ", "7CC"])
def test_bad_card_text_is_refused_with_its_text_in_the_message(text):
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse(text)


def test_values_and_ranks():
    assert Card.parse("AC").value == 1
    assert Card.parse("10D").value == 10
    assert [Card.parse(t).value for t in ("JC", "QC", "KC")] == [0, 0, 0]
    assert Card.parse("7H").suit == 2


def test_move_text_round_trips():
    for text in ("7Cx4H", "5DxAS+2C+3H", "KSxKC", "JSx3D+JC", "KD"):
        move = Move.parse(text)
        assert Move.parse(str(move)) == move
    assert str(Move.parse("5dx4s+2c")) == "5Dx2C+4S"
    assert Move.parse("7Cx4H").text(symbols=True) == "7♣x4♥"


def test_reprs_paste_back_into_python():
    for card in CARDS:
        assert eval(repr(card)) == card
    for text in ("7Cx4H", "5DxAS+2C+3H", "KD", "10Sx10C"):
        move = Move.parse(text)
        assert eval(repr(move)) == move


def test_format_cards_sorts_by_rank():
    assert format_cards(mask_of(Card.parse(t) for t in ("KD", "AS", "10C"))) == "AS 10C KD"
