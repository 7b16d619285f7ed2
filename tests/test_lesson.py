"""The first-game lesson: its chosen deal, the tips each position gives the learner, the lesson
table on the web server (its deal kept with the table, tips only to the learner's seat), and the
rules' pictures of captures."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from pasur import Match, Rules
from pasur.bots import make_bot
from pasur.coach.lesson import LEARNER, LESSON_DECK, Tip, lesson_match, lesson_tips, untold
from pasur.core import Move, Round, mask_of
from pasur.core.captures import hand_moves
from pasur.core.cards import card_of
from pasur.core.scoring import clears_table
from pasur.i18n import RULES_EXAMPLES, card_words, left_to_right, text
from pasur.server.app import create_app

from .server_helpers import TEST_SETTINGS, next_state, seated, start

#: Every topic a first round tells, whatever the learner plays.
EVERY_TOPIC = {
    "welcome", "eleven", "faces", "sur", "jack", "points", "deal", "must",
    "haft_khaj", "last_deal", "last_sweep", "scoring", "play_on",
}  # fmt: skip


def told_now(tips: list[Tip], told: set[str], order: list[str]) -> Move | None:
    """Tell what the page would; the move suggested, if any (``order`` gets the topics told)."""
    shown = untold(tips, told)
    order += [tip.topic for tip in shown]
    return shown[-1].move if shown else None


def play_the_lesson(bot_seed: int, learner: str, follow: bool = True) -> tuple[Match, list[str]]:
    """Round 1 of a lesson: the learner follows each suggestion (when ``follow``), else plays as
    ``learner``; the gentle bot answers. The topics in the order first told."""
    match = lesson_match(5)
    game = match.rounds[0]
    bot, own = make_bot("easy", seed=bot_seed), make_bot(learner, seed=bot_seed + 1)
    told: list[str] = []
    while True:
        view = game.view(LEARNER)
        suggested = told_now(lesson_tips(view), set(told), told)
        if game.over:
            return match, told
        legal = game.legal_moves()
        if game.turn == LEARNER:
            assert suggested is None or suggested in legal
            move = suggested if follow and suggested is not None else own.choose(view, legal)
        else:
            move = bot.choose(game.view(game.turn), legal)
        match.play(move)


def test_the_lesson_deal_is_a_deal_the_rules_allow():
    game = Round(Rules(), LESSON_DECK, 1, [0, 0])  # checks the deck: 52 cards, no Jack on the table
    assert sorted(str(card) for card in game.view(LEARNER).hand) == ["5H", "6H", "JH", "KD"]
    assert sorted(str(card) for card in game.view(LEARNER).table) == ["2D", "3S", "6C", "QD"]


@pytest.mark.parametrize("bot_seed", [1, 2, 3])
def test_following_the_tips_shows_each_rule_in_turn(bot_seed):
    _, told = play_the_lesson(bot_seed, "greedy")
    assert told[:6] == ["welcome", "eleven", "faces", "sur", "jack", "points"]
    assert set(told) == EVERY_TOPIC
    assert told[-3:] == ["last_sweep", "scoring", "play_on"]


@pytest.mark.parametrize("learner", ["random", "greedy"])
def test_every_rule_is_told_whatever_the_learner_plays(learner):
    match, told = play_the_lesson(7, learner, follow=False)
    assert set(told) == EVERY_TOPIC
    assert told[0] == "welcome"
    assert match.rounds[0].over


def test_the_first_suggestions_are_the_numerals_eleven_then_the_sur_then_the_jack():
    match = lesson_match(5)
    game = match.rounds[0]
    told: list[str] = []
    suggestions = []
    while len(suggestions) < 3:
        suggested = told_now(lesson_tips(game.view(LEARNER)), set(told), told)
        if game.turn == LEARNER:
            assert suggested is not None
            suggestions.append((told[-1], str(suggested.card), [str(card) for card in suggested.take]))
            match.play(suggested)
        else:
            match.play(make_bot("easy", seed=1).choose(game.view(game.turn), game.legal_moves()))
    assert suggestions == [("eleven", "5H", ["6C"]), ("sur", "6H", ["2D", "3S"]), ("jack", "JH", ["4S"])]


def test_a_sur_is_suggested_only_where_the_move_clears_the_table_and_counts():
    match = lesson_match(5)
    game = match.rounds[0]
    for _ in range(200):
        if game.over:
            break
        view = game.view(LEARNER)
        for tip in lesson_tips(view):
            if tip.topic == "sur" and tip.move is not None:
                assert clears_table(tip.move.card, tip.move.take_mask, game.table)
                assert game.pack > 0  # never in the last deal
        match.play(make_bot("greedy", seed=3).choose(game.view(game.turn), game.legal_moves()))


def test_the_rule_that_a_card_which_can_take_must_take_names_exactly_those_cards():
    game = lesson_match(5).rounds[0]
    must = next(tip for tip in lesson_tips(game.view(LEARNER)) if tip.topic == "must")
    assert must.move is None
    # 5♥, 6♥ and J♥ can take; K♦ cannot, so it alone may be laid
    assert "5♥+6♥+J♥ cannot be laid down" in must.words["en"]


def test_tips_speak_each_language_with_its_digits_and_cards_left_to_right():
    tips = lesson_tips(lesson_match(5).rounds[0].view(LEARNER))
    eleven = next(tip for tip in tips if tip.topic == "eleven")
    assert "play 5♥ × 6♣ (5 + 6 = 11)" in eleven.words["en"]
    persian = eleven.words["fa"]
    assert "\u2066۵ + ۶ = ۱۱\u2069" in persian and "\u2066۵♥\u2069 × \u2066۶♣\u2069" in persian
    assert not any(character.isascii() and character.isdigit() for character in persian)
    assert all(set(tip.words) == {"en", "fa"} and all(tip.words.values()) for tip in tips)


def test_the_rounds_end_suggests_nothing_and_later_rounds_have_no_tips():
    match, _ = play_the_lesson(1, "greedy")
    over = lesson_tips(match.rounds[0].view(LEARNER))
    assert [tip.topic for tip in over][-2:] == ["scoring", "play_on"]
    assert all(tip.move is None for tip in over)
    assert lesson_tips(match.rounds[1].view(LEARNER)) == []  # dealt as round 1 ended


# -- the lesson table on the web ---------------------------------------------------------------------


@pytest.fixture
def database(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'pasur.db'}"


def test_a_lesson_table_deals_the_lesson_and_tips_only_the_learner(database):
    with TestClient(create_app(database, TEST_SETTINGS)) as client:
        made = client.post("/api/lesson", json={"name": "Ava"}).json()
        info = client.get(f"/api/tables/{made['id']}").json()
        assert info["seats"][1]["bot"] == "easy" and info["lesson"] is True and info["hints"] is True
        assert info["rated"] is False and info["rules"]["players"] == 2
        with seated(client, made["id"], made["token"]) as learner:
            state = start(learner)
            assert sorted(state["view"]["hand"]) == ["5H", "6H", "JH", "KD"]
            topics = [tip["topic"] for tip in state["lesson"]]
            assert topics[:2] == ["welcome", "eleven"]
            eleven = state["lesson"][1]
            assert (eleven["card"], eleven["take"]) == ("5H", ["6C"]) and set(eleven["text"]) == {"en", "fa"}
            with seated(client, made["id"]) as spectator:
                assert next_state(spectator)["lesson"] == []
            learner.send_json({"type": "move", "version": state["version"], "move": "5Hx6C", "id": "m1"})
            after = next_state(learner, lambda message: message.get("legal"))
            assert "faces" in [tip["topic"] for tip in after["lesson"]]
    # a restart deals the same first round again from what the store kept, and replays the moves
    with TestClient(create_app(database, TEST_SETTINGS)) as client, seated(client, made["id"], made["token"]) as again:
        state = next_state(again)
        assert state["version"] >= 2 and "5H" not in state["view"]["hand"]
        assert state["table"]["lesson"] is True


def test_a_quick_game_is_no_lesson_and_a_lesson_takes_only_a_name(database):
    with TestClient(create_app(database, TEST_SETTINGS)) as client:
        quick = client.post("/api/tables", json={"name": "Ava", "seats": ["easy"]}).json()
        assert client.get(f"/api/tables/{quick['id']}").json()["lesson"] is False
        refused = client.post("/api/lesson", json={"name": "Ava", "deck": [str(card) for card in LESSON_DECK]})
        assert refused.status_code == 422 and "deck" in refused.text
        assert client.post("/api/lesson", json={"name": "x" * 201}).status_code == 422


# -- the rules' pictures ---------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "table", "take", "key"), RULES_EXAMPLES)
def test_each_pictured_capture_is_a_legal_move_and_its_caption_names_only_pictured_cards(card, table, take, key):
    legal = hand_moves(mask_of([card_of(card)]), mask_of(card_of(one) for one in table), True)
    assert Move(card_of(card), tuple(card_of(one) for one in take)).code in legal
    pictured = {card_words(one) for one in (card, *table)}
    named = set(re.findall(r"(?:10|[2-9AJQK])[♣♦♥♠]", text(key, "en")))
    assert named and named <= pictured
    persian = text(key, "fa")  # the same cards, in Persian digits, each kept left to right
    assert all(left_to_right(card_words(str(card_of(one)), "fa")) in persian for one in named)


def test_the_help_sends_the_pictures_with_their_captions_in_each_language(database):
    with TestClient(create_app(database, TEST_SETTINGS)) as client:
        examples = client.get("/api/help").json()["examples"]
    assert [(one["card"], one["take"]) for one in examples] == [
        (card, list(take)) for card, _, take, _ in RULES_EXAMPLES
    ]
    assert all(set(one["caption"]) == {"en", "fa"} for one in examples)


@pytest.mark.parametrize("stored", ["5H 6H", ["5H"] * 51, ["XX"] * 52, {"deck": 1}])
def test_a_stored_lesson_deck_that_is_not_52_cards_is_refused_when_read(stored):
    from pasur.server.seats import TableSettings

    good = TableSettings.from_json(
        {"rules": {}, "seed": 1, "seats": [], "host_hash": "h", "lesson_deck": [str(card) for card in LESSON_DECK]}
    )
    assert good.lesson and good.new_match().rounds[0].deck == LESSON_DECK
    with pytest.raises(ValueError):
        TableSettings.from_json({"rules": {}, "seed": 1, "seats": [], "host_hash": "h", "lesson_deck": stored})
