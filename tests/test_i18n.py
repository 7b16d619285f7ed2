"""The words people read, in English and Persian: every reason the engine gives for refusing a
move is said in Persian too, filled in from what the error names."""

from __future__ import annotations

import ast
import io
import random
import re
import string
import sys
from pathlib import Path

import pytest

import pasur
from pasur import CARDS, IllegalMove, Move, Round, Rules, deal_deck
from pasur.core import Refusal
from pasur.i18n import CATALOG, PERSIAN_REASONS, REFUSALS, refusal, text
from pasur.tui.plain import PlainGame
from pasur.tui.session import LocalGame, seat_plans

ENGLISH_WORD = re.compile("[a-z]{3,}")
FAULTY = Path(__file__).parent / "bots" / "faulty.py"


def bad_moves(game: Round, rng: random.Random) -> list[Move | str | int]:
    """Moves of every kind the engine refuses, as far as this position allows them."""
    hand = [card for card in CARDS if game.hands[game.turn] >> card & 1]
    table = [card for card in CARDS if game.table >> card & 1]
    elsewhere = [card for card in CARDS if card not in hand and card not in table]
    attempts: list[Move | str | int] = ["ZZ", f"{hand[0]}x", -1, str(rng.choice(elsewhere))]
    for card in hand:
        choices = game.card_codes(card)
        attempts.append(str(card))  # several choices: say which
        attempts.append(Move(card, ()))  # laying down when it must capture
        attempts.append(Move(card, (rng.choice(elsewhere),)))  # a card that is not on the table
        if table:
            attempts.append(f"{card}x{table[0]}+{table[0]}")  # named twice
            wrong = tuple(card for card in table if not any(code >> 6 == 1 << card for code in choices))
            if wrong:
                attempts.append(Move(card, wrong[:1]))  # cannot take that
    return attempts


def test_every_refusal_reads_in_persian():
    rng = random.Random(7)
    rules = Rules()
    seen: set[str] = set()
    for _ in range(200):
        game = Round(rules, deal_deck(rng, rules))
        for _ in range(rng.randrange(0, 40)):
            codes = game.legal_codes()
            game.play_code(codes[rng.randrange(len(codes))])
        for move in bad_moves(game, rng):
            try:
                game.read_move(move)
            except IllegalMove as error:
                assert error.reason in PERSIAN_REASONS, str(error)
                persian = refusal(error, "fa")
                assert refusal(error, "en") == str(error)
                assert persian != str(error) and not ENGLISH_WORD.search(persian), persian
                seen.add(error.reason)
    while not game.over:
        game.play_code(game.legal_codes()[0])
    with pytest.raises(IllegalMove) as refused:
        game.read_move("7C")
    seen.add(refused.value.reason)
    assert refusal(refused.value, "fa") == PERSIAN_REASONS["round_over"]
    assert seen == {
        "unreadable",
        "not_legal",
        "not_in_hand",
        "say_which",
        "named_twice",
        "must_capture",
        "not_on_table",
        "only_lay_down",
        "cannot_take",
        "round_over",
    }


def test_every_reason_the_code_gives_has_its_words():
    """Each refusal or bot fault raised with a reason anywhere in the package (found by reading
    the source) has its words: the server's (named by their reason alone) in English and Persian
    in REFUSALS, the core's and the bots' (which say their own English) in Persian; and each entry
    of the catalogues is still used."""
    pytest.importorskip("pasur.server.errors")  # the server's refusals are Refusals too
    from pasur.server.errors import PassedOn, TableError

    kinds, found = [Refusal], set()
    while kinds:  # every kind of refusal, however deep
        kind = kinds.pop()
        found.add(kind.__name__)
        kinds.extend(kind.__subclasses__())
    servers = {kind.__name__ for kind in (TableError, *all_subclasses(TableError))} - {PassedOn.__name__}
    refusals = found | {"BotError", "_fail"}  # a bot's fault, and the command's refusals, carry reasons too
    assert {"IllegalMove", "TableError", "ChangedElsewhere"} <= refusals
    said_by_server, said_with_english = set(), set()
    for path in Path(pasur.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            called = getattr(node, "func", None)
            name = getattr(called, "id", None) or getattr(called, "attr", None)
            if not isinstance(node, ast.Call) or name not in refusals:
                continue
            if name in servers:
                named = len(node.args) == 1 and isinstance(node.args[0], ast.Constant)
                assert named, f"{path}:{node.lineno}: name the refusal by its reason alone, as a literal"
                said_by_server.add(node.args[0].value)
            elif len(node.args) > 1:
                reason = node.args[1]
                if getattr(reason, "attr", None) == "reason" or getattr(reason, "id", None) == "reason":
                    continue  # passing on another refusal's reason, or its own parameter
                assert isinstance(reason, ast.Constant), f"{path}:{node.lineno}: say the reason as a literal"
                said_with_english.add(reason.value)
    assert said_by_server == set(REFUSALS)
    assert said_with_english - set(REFUSALS) == set(PERSIAN_REASONS)


def test_each_refusal_names_nothing_in_persian_that_english_does_not():
    for reason, (english, persian) in REFUSALS.items():
        named = {field for _, field, _, _ in string.Formatter().parse(english) if field}
        # Persian names what English does, or less (not a pydantic problem in English words)
        assert {field for _, field, _, _ in string.Formatter().parse(persian) if field} <= named, reason
        assert persian != english, reason


def all_subclasses(kind: type) -> list[type]:
    return [sub for direct in kind.__subclasses__() for sub in (direct, *all_subclasses(direct))]


def test_a_bad_typed_move_is_refused_in_persian():
    game = LocalGame(Rules(target=5), seat_plans(2, 1, ["random"], lang="fa"), seed=3)
    out = io.StringIO()
    hand = game.view(0).hand
    elsewhere = next(card for card in CARDS if card not in hand)
    PlainGame(game, lang="fa", source=io.StringIO(f"{elsewhere}\n99\nZZ\n"), sink=out).run()
    shown = out.getvalue()
    assert f"{elsewhere} در دست شما نیست" in shown
    assert "حرکت شماره ۹۹ وجود ندارد" in shown
    assert "«ZZ» خوانده نشد" in shown
    assert "not in your hand" not in shown and "there is no move" not in shown


def test_out_of_turn_is_refused_in_persian():
    game = LocalGame(Rules(), seat_plans(2, 1, ["random"], lang="fa"), seed=3)
    game.play(game.legal_moves()[0])
    with pytest.raises(IllegalMove) as refused:
        game.play(game.legal_moves()[0])
    assert refusal(refused.value, "fa") == f"نوبت {game.name(1)} است"


def test_the_persian_terminal_game_says_a_bots_fault_in_persian():
    plans = seat_plans(2, 1, [f"exec:{sys.executable} {FAULTY} garbage"], lang="fa")
    game = LocalGame(Rules(target=5), plans, seed=3, allow_exec=True)
    out = io.StringIO()
    PlainGame(game, lang="fa", source=io.StringIO("1\n" * 3), sink=out).run()
    shown = out.getvalue()
    assert "خطا داد (پاسخش JSON نیست)" in shown, shown
    assert "not JSON" not in shown


def test_a_count_of_one_takes_the_singular_and_each_singular_has_its_plural():
    assert text("puzzle_other_hand", "en", count=1, pack=4) == "The other player holds 1 card; the pack 4"
    assert text("puzzle_other_hand", "en", count=2, pack=4) == "The other player holds 2 cards; the pack 4"
    for key in [key for key in CATALOG if key.endswith("_one")]:
        assert key.removesuffix("_one") in CATALOG, key


def test_persian_numbers_have_one_form_digits_separator_and_minus():
    from pasur.i18n import number_text

    # the minus after a left-to-right mark, which keeps it left of the number in Persian text
    assert number_text(-2.44, "fa") == "\u200e−۲٫۴۴"
    assert number_text(64, "fa") == "۶۴" and number_text(0.35, "fa") == "۰٫۳۵"
    words = (Path(pasur.__file__).parent / "server" / "static" / "js" / "words.js").read_text(encoding="utf-8")
    assert 'const SIGN_MARK = "\\u200E";' in words  # the page writes them the same way
    assert ".replace(/-(?=[0-9])/g, `${SIGN_MARK}−`)" in words
