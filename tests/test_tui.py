"""Playing at one computer: the session, ``--plain`` from scripted input, and the full-screen app
driven headless through Textual's pilot."""

from __future__ import annotations

import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from pasur import CARDS, Match, Rules, replay_record, to_record
from pasur.cli import cli
from pasur.coach.hint import move_gain
from pasur.core import IllegalMove, Move
from pasur.i18n import move_words, typed_move
from pasur.tui.plain import PlainGame
from pasur.tui.session import LocalGame, SeatPlan, seat_plans

textual = pytest.importorskip("textual")

from pasur.tui.app import PasurApp  # noqa: E402
from pasur.tui.replay import RecordSteps, ReplayApp  # noqa: E402
from pasur.tui.widgets import MessageScreen  # noqa: E402


def versus(level: str = "random", target: int = 15, seed: int = 4, **rules: object) -> LocalGame:
    return LocalGame(Rules(target=target, **rules), seat_plans(2, 1, [level]), seed=seed)  # type: ignore[arg-type]


def assert_people_played_first_legal_moves(game: LocalGame) -> None:
    """Replays the log from the same seed: every person's move was legal move number 1."""
    match = Match(game.rules, seed=game.seed)
    for played in game.log:
        if game.is_person(played.seat):
            assert played.move == match.round.legal_moves()[0]
        match.play(played.move)
    assert match.scores == game.match.scores


# -- the session -----------------------------------------------------------------------------------


def test_seat_plans_put_two_people_as_partners_and_check_levels():
    plans = seat_plans(4, 2, ["easy"])
    assert [plan.bot for plan in plans] == [None, "easy", None, "easy"]
    assert [plan.bot for plan in seat_plans(3, 1, ["easy", "hard"])] == [None, "easy", "hard"]
    with pytest.raises(ValueError, match="one opponent level, or 2"):
        seat_plans(3, 1, ["easy", "hard", "medium"])
    with pytest.raises(ValueError):
        seat_plans(2, 1, ["wizard"])


def test_a_person_cannot_play_an_illegal_move_or_out_of_turn():
    game = versus()
    elsewhere = next(card for card in CARDS if card not in game.view(0).hand)
    with pytest.raises(IllegalMove, match="not in your hand"):
        game.play(str(elsewhere))
    assert not game.log
    game.play(game.legal_moves()[0])
    with pytest.raises(IllegalMove, match="turn"):
        game.play(game.legal_moves()[0])
    assert len(game.log) == 1


def test_save_and_resume_carry_on_exactly(tmp_path):
    game = versus(level="easy", target=30)
    for _ in range(30):
        if game.is_person(game.turn):
            game.play(game.legal_moves()[-1])
        else:
            game.play_bot()
    path = tmp_path / "save.json"
    game.save(path)
    resumed = LocalGame.load(path)
    assert resumed.to_record() == game.to_record()
    assert resumed.plans == game.plans
    assert resumed.legal_moves() == game.legal_moves()
    assert replay_record(json.loads(path.read_text()))["scores"] == game.match.scores


def test_any_record_can_be_played_on_with_people_or_bots(tmp_path):
    match = Match(Rules(), seed=9)
    for _ in range(5):
        match.play(match.legal_moves()[0])
    path = tmp_path / "record.json"
    path.write_text(json.dumps(to_record(match, names=["Ava", "Bo"])))
    assert LocalGame.load(path).plans == [SeatPlan("Ava"), SeatPlan("Bo")]
    assert LocalGame.load(path, ["easy"]).plans[1].bot == "easy"


def test_a_hint_is_legal_and_says_why():
    game = versus()
    move, said = game.ask_hint()
    assert move in game.legal_moves() and said[0].startswith("Hint: ")
    lay_down = next((move for move in game.legal_moves() if not move.take), None)
    if lay_down is not None:
        assert move_gain(game.view(game.turn), lay_down).endswith(", taking nothing")


# -- --plain ---------------------------------------------------------------------------------------


def test_plain_plays_a_whole_match_from_scripted_input():
    game = versus()
    out = io.StringIO()
    answers = io.StringIO("zz\n99\nh\n" + "1\n" * 600)
    assert PlainGame(game, source=answers, sink=out).run()
    shown = out.getvalue()
    assert "'zz' is neither a move number" in shown and "there is no move 99" in shown
    assert "Hint: " in shown and "Legal moves:" in shown and "Round 1 is over" in shown
    assert "Winner:" in shown and game.over
    assert_people_played_first_legal_moves(game)
    assert replay_record(game.to_record())["over"]


def test_plain_accepts_moves_in_the_short_text():
    game = versus()
    typed = game.legal_moves()[-1]
    PlainGame(game, source=io.StringIO(str(typed) + "\n"), sink=io.StringIO()).run()
    assert game.log[0].move == typed


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_every_move_as_the_game_prints_it_is_accepted_as_typed(lang):
    """The words the game shows a move in (the legal list, the log: ``lay 4♦``, ``2♣ × 9♥``, in
    Persian with Persian digits) read back as that very move, at every turn of whole matches and
    whatever the rules say of laying a card that could take."""
    for seed, compulsory in ((4, True), (5, False), (6, True)):
        game = LocalGame(Rules(target=1, compulsory_capture=compulsory), seat_plans(2, 2, []), seed=seed)
        while not game.over:
            legal = game.legal_moves()
            for move in legal:
                printed = move_words(str(move.card), [str(card) for card in move.take], lang)
                assert game.round.read_move(typed_move(printed)) == move.code, printed
            chosen = legal[len(game.log) % len(legal)]  # laying down every card would never end
            game.play(move_words(str(chosen.card), [str(card) for card in chosen.take], lang))
        assert len(game.log) >= 48


def test_a_move_that_names_no_card_is_said_so_in_words():
    game = versus()
    for typed in ("xx", "x4H", " × "):
        with pytest.raises(IllegalMove) as refused:
            game.play(typed)
        assert "is not a move" in str(refused.value) and "''" not in str(refused.value)


def test_plain_stops_cleanly_at_the_end_of_input():
    result = CliRunner().invoke(cli, ["play", "--plain", "--seed", "1", "--opponents", "random"], input="1\n")
    assert result.exit_code == 0, result.output
    assert "Input ended; the match stops here." in result.output


def test_plain_through_the_command_to_the_end_of_a_match():
    command = ["play", "--plain", "--seed", "5", "--opponents", "easy", "--target", "12", "--players", "3"]
    result = CliRunner().invoke(cli, command, input="1\n" * 800)
    assert result.exit_code == 0, result.output
    assert "Winner:" in result.output and "easy" in result.output


def test_plain_in_persian():
    game = LocalGame(Rules(), seat_plans(2, 1, ["random"], lang="fa"), seed=2)
    out = io.StringIO()
    PlainGame(game, lang="fa", source=io.StringIO("1\n"), sink=out).run()
    shown = out.getvalue()
    assert "زمین" in shown and "شما" in shown and "سور" in shown and "دست ۱" in shown
    # beside Persian digits a middle dot reads as the digit zero (۰): parts are set apart by a bar
    assert "·" not in shown and " | " in shown


def test_bad_command_lines_get_one_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "--plain", "--opponents", "wizard"])
    assert result.exit_code == 2 and "wizard" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"rounds": 3}')
    result = runner.invoke(cli, ["play", "--plain", "--resume", str(bad)])
    assert result.exit_code == 1 and "cannot resume" in result.output and "Traceback" not in result.output


# -- full screen -----------------------------------------------------------------------------------


async def settle(app: PasurApp, pilot) -> None:  # type: ignore[no-untyped-def]
    await app.workers.wait_for_complete()
    await pilot.pause()


async def play_until_over(app: PasurApp, pilot, rounds: int | None = None) -> None:  # type: ignore[no-untyped-def]
    """Play first cards (choosing the second capture when there is a choice) until the match
    ends or ``rounds`` rounds are done; Enter through every message."""
    game = app.game
    for _ in range(3000):
        await settle(app, pilot)
        finished = sum(1 for played in game.log if played.round_over)
        if rounds is not None and finished >= rounds and not isinstance(app.screen, MessageScreen):
            return
        if isinstance(app.screen, MessageScreen):
            await pilot.press("enter")
        elif game.over:
            return
        elif app.my_turn():
            await pilot.press("1")
            await pilot.pause()
            if app.choosing:
                await pilot.press("down", "enter")
    raise AssertionError("the game did not end")


async def test_full_screen_plays_rounds_refusing_bad_keys_and_illegal_moves():
    game = versus(target=200)
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert app.my_turn()
        message = app.query_one("#message")
        await pilot.press("9")
        assert "no card 9" in str(message.render()) and not game.log
        await pilot.press("x", "ctrl+x", "f5")
        assert not game.log
        hand = [str(card) for card in game.view(0).hand]
        await pilot.press("m")
        missing = next(card for card in ("KS", "KH", "KD", "KC", "QS") if card not in hand)
        await pilot.press(*missing, "enter")
        assert "Not legal" in str(message.render()) and not game.log
        await play_until_over(app, pilot, rounds=2)
        assert len(game.match.rounds) >= 3 and all(played.move for played in game.log)


def with_a_capture_choice() -> tuple[LocalGame, list[int]]:
    """A game where the person plays first holding a card with several captures, and where those
    cards are in the hand (skips the test if none of 200 deals has one)."""
    for seed in range(200):
        game = versus(seed=seed)
        hand = game.view(0).hand
        several = [index for index, card in enumerate(hand) if len(game.choices(card)) > 1]
        if game.turn == 0 and several:
            return game, several
    pytest.skip("no capture choice in the first 200 deals")


async def test_full_screen_capture_choice_highlights_what_it_takes():
    game, several = with_a_capture_choice()
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press(str(several[0] + 1))
        await pilot.pause()
        assert app.choosing and app.taken_preview == app.choosing[0].take_mask
        await pilot.press("down")
        await pilot.pause()
        assert app.taken_preview == app.choosing[1].take_mask
        await pilot.press("escape")
        assert not app.choosing and not game.log
        await pilot.press(str(several[0] + 1))
        await pilot.pause()
        expected = app.choosing[1]
        await pilot.press("down", "enter")
        await settle(app, pilot)
        assert game.log[0].move == expected


async def test_full_screen_plays_a_whole_match():
    game = versus(target=10, seed=8)
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until_over(app, pilot)
    assert game.over and game.match.winner is not None


async def test_hot_seat_hides_each_hand_until_its_player_is_ready():
    game = LocalGame(Rules(target=200), seat_plans(2, 2, []), seed=3)
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MessageScreen) and app.viewer is None
        assert "Player 1" in str(app.screen.query_one("#message-body").render())
        hand_text = str(app.query_one("#hand").render())
        assert not any(card.symbol() in hand_text for card in game.view(0).hand)
        await pilot.press("1")  # nothing happens behind the message
        assert not game.log
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.viewer == 0 and app.my_turn()
        await pilot.press("1")
        await pilot.pause()
        if app.choosing:
            await pilot.press("enter")
        await settle(app, pilot)
        assert len(game.log) == 1 and app.viewer is None and isinstance(app.screen, MessageScreen)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.viewer == 1


async def test_hint_and_save_keys(tmp_path):
    game = versus()
    path = tmp_path / "game.json"
    app = PasurApp(game, fast=True, save_path=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("h")
        await settle(app, pilot)  # the hint is thought out in a worker
        assert "Hint:" in str(app.query_one("#message").render())
        await pilot.press("s")
        assert path.exists() and LocalGame.load(path).to_record() == game.to_record()


async def test_replay_viewer_steps_through_a_record():
    match = Match(Rules(target=5), seed=3)
    while not match.over:
        match.play(match.legal_moves()[0])
    steps = RecordSteps(match)
    assert len(steps) == sum(len(game.history) + 1 for game in match.rounds)
    assert steps.step(len(steps) - 1).round.over
    app = ReplayApp(match, ["Ava", "Bo"])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "right", "right")
        assert app.index == 3
        played = steps.step(3).played
        assert played is not None
        assert played.move.card.symbol() in str(app.query_one("#position").render())
        await pilot.press("left")
        assert app.index == 2
        await pilot.press("end")
        assert app.index == len(steps) - 1
        await pilot.press("home", "left")
        assert app.index == 0
        await pilot.press("n")  # no review was asked for: said so, not silence
        await pilot.pause()
        assert app.index == 0 and any("--analyze" in str(note.message) for note in app._notifications)


#: Names a record may hold that the screen's markup would read as its own: a closing tag with
#: nothing to close (the screen failed with MarkupError), an action to run on a click, a link.
MARKUP_NAMES = ["[/]Ava", "[@click=app.quit]Bo[/] [link=https://example.org]x"]


async def test_names_and_typed_text_are_shown_as_written_never_read_as_markup():
    game = LocalGame(Rules(), [SeatPlan(MARKUP_NAMES[0]), SeatPlan(MARKUP_NAMES[1], "random")], seed=4)
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert MARKUP_NAMES[1] in str(app.query_one("#scores").render())
        await pilot.press("m", *"[/]", "enter")  # a typed move said back in the refusal
        assert "'[/]'" in str(app.query_one("#message").render()) and not game.log
    replay = ReplayApp(Match(Rules(), seed=3), MARKUP_NAMES)
    async with replay.run_test(size=(100, 30)) as pilot:
        await pilot.press("right")
        shown = str(replay.query_one("#position").render())
        assert all(name in shown for name in MARKUP_NAMES)


async def test_a_mouse_click_on_a_card_plays_it():
    game = versus(seed=6)
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        strip = app.query_one("#hand")
        last = len(game.view(0).hand) - 1
        row, start, _ = strip.spans[last]
        card = game.view(0).hand[last]
        await pilot.click("#hand", offset=(start + 1, row))
        await pilot.pause()
        if app.choosing:
            await pilot.press("enter")
        await settle(app, pilot)
        assert game.log[0].move.card == card


def test_replay_view_plain_prints_every_position(tmp_path):
    match = Match(Rules(target=5), seed=3)
    while not match.over:
        match.play(match.legal_moves()[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(match, names=["Ava", "Bo"])))
    result = CliRunner().invoke(cli, ["replay", str(path), "--view", "--plain"])
    assert result.exit_code == 0, result.output
    count = sum(len(game.history) for game in match.rounds) + len(match.rounds) - 1
    assert result.output.count(" · move ") == count + 1
    assert f"move {count} of {count}" in result.output and "Ava" in result.output


def test_plain_saves_on_leaving_when_a_save_file_is_given(tmp_path):
    path = tmp_path / "left.json"
    game = versus()
    PlainGame(game, source=io.StringIO("1\nq\n"), sink=io.StringIO(), save_path=str(path)).run()
    assert LocalGame.load(path).to_record() == game.to_record() and len(game.log) >= 1


# -- finishing, saving, resuming, quitting ---------------------------------------------------------


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP on this system")
@pytest.mark.parametrize("given", [True, False])
def test_a_terminal_closed_mid_match_leaves_a_save_that_resumes_it(tmp_path, given):
    """`pasur play --plain` (with --save, kept after every move; without, to pasur-save.json) is
    sent SIGHUP, as a closed window or a dropped SSH session sends it, three moves in: the match
    is on disk, whole, and resumes with those moves."""
    path = tmp_path / ("kept.json" if given else "pasur-save.json")
    command = [sys.executable, "-m", "pasur", "play", "--plain", "--fast", "--seed", "8", "--opponents", "easy"]
    if given:
        command += ["--save", str(path)]
    errors = tmp_path / "stderr.txt"  # a file, not a pipe nobody reads until the end
    with errors.open("w") as stderr:
        game = subprocess.Popen(
            command, cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True
        )
    assert game.stdin is not None and game.stdout is not None
    game.stdin.write("1\n1\n1\n")
    game.stdin.flush()  # standard input stays open: the person is still there
    shown = ""
    deadline = time.monotonic() + 60
    while shown.count("Your move") < 4:  # asked for a fourth move: three were played
        assert time.monotonic() < deadline and game.poll() is None, shown[-500:]
        if select.select([game.stdout], [], [], 1)[0]:
            shown += os.read(game.stdout.fileno(), 65536).decode("utf-8", "replace")
    game.send_signal(signal.SIGHUP)
    try:
        ended = game.wait(timeout=30)
    except subprocess.TimeoutExpired:  # seen once in a full run: say where it stood
        game.kill()
        game.communicate()
        written = errors.read_text()[-2000:]
        pytest.fail(f"still running 30 s after SIGHUP; its output ends {shown[-300:]!r}, its errors {written!r}")
    assert ended == 128 + signal.SIGHUP
    resumed = LocalGame.load(path)
    people = resumed.to_record()["rounds"][0]["moves"][::2]  # seat 0 opens round 1
    assert len(people) >= 3 and not resumed.over
    assert not list(tmp_path.glob(".*.part"))  # no half-written file left behind


def test_a_finished_match_is_saved_with_save_and_replays(tmp_path):
    path = tmp_path / "won.json"
    command = ["play", "--plain", "--humans", "0", "--seed", "3", "--target", "10", "--save", str(path)]
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 0 and "Saved to" in result.output
    summary = replay_record(json.loads(path.read_text()))
    assert summary["over"] and summary["winner"] is not None
    replayed = CliRunner().invoke(cli, ["replay", "-"], input=path.read_text())  # pretty-printed on stdin
    assert replayed.exit_code == 0 and "wins" in replayed.output and "error" not in replayed.output


def test_an_unwritable_save_path_is_said_in_one_line(tmp_path):
    path = tmp_path / "no such folder" / "game.json"
    command = ["play", "--plain", "--humans", "0", "--seed", "3", "--target", "5", "--save", str(path)]
    result = CliRunner().invoke(cli, command)
    assert result.exit_code == 0 and "Could not save" in result.output and "Traceback" not in result.output


def test_resuming_shows_the_round_so_far_and_a_finished_match_its_winner(tmp_path):
    game = versus(target=200)
    for _ in range(5):
        game.play_bot() if game.is_bot(game.turn) else game.play(game.legal_moves()[0])
    path = tmp_path / "save.json"
    game.save(path)
    resumed = LocalGame.load(path)
    assert [played.move for played in resumed.log] == [played.move for played in game.log]
    finished = tmp_path / "finished.json"
    CliRunner().invoke(cli, ["play", "--plain", "--humans", "0", "--target", "5", "--save", str(finished)])
    result = CliRunner().invoke(cli, ["play", "--plain", "--resume", str(finished)])
    assert result.exit_code == 0 and "Winner:" in result.output


def test_many_records_view_one_by_number(tmp_path):
    match = Match(Rules(target=5), seed=2)
    while not match.over:
        match.play(match.legal_moves()[0])
    lines = tmp_path / "two.jsonl"
    lines.write_text(json.dumps(to_record(match)) + "\n" + json.dumps(to_record(match)) + "\n")
    shown = CliRunner().invoke(cli, ["replay", str(lines), "--view", "--plain", "--record", "2"])
    assert shown.exit_code == 0 and "move 1 of" in shown.output
    missing = CliRunner().invoke(cli, ["replay", str(lines), "--view", "--plain", "--record", "3"])
    assert missing.exit_code == 1 and "fewer than 3 records" in missing.output


def test_more_people_than_seats_is_refused():
    result = CliRunner().invoke(cli, ["play", "--plain", "--humans", "3", "--players", "2"])
    assert result.exit_code == 2 and "room for 2 people at most" in result.output


def test_bots_at_a_table_have_names_told_apart():
    names = [plan.name for plan in seat_plans(4, 1, ["hard"])]
    assert len(set(names)) == 4 and all("hard" in name for name in names[1:])
    persian = [plan.name for plan in seat_plans(3, 1, ["medium"], lang="fa")]
    assert "شیرین (متوسط)" in persian and len(set(persian)) == 3


async def test_capture_choices_are_numbered_and_picked_by_digit():
    game, several = with_a_capture_choice()
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press(str(several[0] + 1))
        await pilot.pause()
        labels = [str(app.query_one("#choices").get_option_at_index(i).prompt) for i in range(len(app.choosing))]
        assert [label.split(")")[0] for label in labels] == [str(n) for n in range(1, len(labels) + 1)]
        expected = app.choosing[1]
        await pilot.press("2")
        await settle(app, pilot)
        assert game.log[0].move == expected


async def test_q_asks_before_leaving_an_unfinished_match(tmp_path):
    game = versus(target=200)
    path = tmp_path / "left.json"
    app = PasurApp(game, fast=True, save_path=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("q")
        await pilot.pause()
        assert "Leave the match?" in str(app.screen.query_one("#confirm-body").render())
        await pilot.press("n")
        await pilot.pause()
        assert app.is_running and not path.exists()
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert path.exists()


async def test_the_persian_question_to_leave_takes_persian_keys(tmp_path):
    game = LocalGame(Rules(target=200), seat_plans(2, 1, ["random"], lang="fa"), seed=2)
    path = tmp_path / "left.json"
    app = PasurApp.in_language("fa")(game, lang="fa", fast=True, save_path=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("q")
        await pilot.pause()
        assert "ب (y): خروج" in str(app.screen.query_one("#confirm-body").render())
        await pilot.press("ن")  # نه: go on
        await pilot.pause()
        assert app.is_running and not path.exists()
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("ب")  # بله: leave (saved)
        await pilot.pause()
    assert path.exists()


async def test_the_persian_screen_sets_parts_apart_with_a_bar_not_a_middle_dot():
    """Beside Persian digits a middle dot reads as the digit zero (۰): the status line, the scores
    and the other seats' line set their parts apart with a bar, as the page does."""
    game = LocalGame(Rules(players=3, target=200), seat_plans(3, 1, ["random", "random"], lang="fa"), seed=2)
    app = PasurApp.in_language("fa")(game, lang="fa", fast=True)
    async with app.run_test(size=(120, 24)) as pilot:
        await settle(app, pilot)
        lines = [str(app.query_one(f"#{name}").render()) for name in ("status", "scores", "others")]
        assert not any("·" in line for line in lines) and all(" | " in line for line in lines), lines


async def test_the_footer_speaks_persian():
    game = LocalGame(Rules(target=200), seat_plans(2, 1, ["random"], lang="fa"), seed=2)
    app = PasurApp.in_language("fa")(game, lang="fa", fast=True)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(app, pilot)
        shown = {binding.description for _, binding, *_ in app.active_bindings.values() if binding.show}
        assert {"راهنما", "ذخیره", "خروج"} <= shown and not shown & {"hint", "save", "quit"}


async def test_question_mark_shows_the_rules_and_keys_in_the_players_language():
    for lang, rule, key in (("en", "Sur", "quit"), ("fa", "سور", "خروج")):
        app = PasurApp.in_language(lang)(versus(), fast=True, lang=lang)
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(app, pilot)
            before = app.game.round.copy().history if app.game.round else []
            await pilot.press("question_mark")
            await settle(app, pilot)
            shown = str(app.screen.query_one("#message-body").render())
            assert rule in shown and key in shown and "7Cx4H" in shown
            await pilot.press("1")  # nothing is played behind the page
            assert app.game.round is not None and app.game.round.history == before
            await pilot.press("enter")
            await settle(app, pilot)
            assert not app.screen.query("#message-body")


def test_plain_question_mark_shows_the_rules_and_keys():
    game = versus()
    out = io.StringIO()
    PlainGame(game, source=io.StringIO("?\n"), sink=out).run()
    shown = out.getvalue()
    assert "Pasur in brief" in shown and "62" in shown and "h hint" in shown and not game.log


def test_replay_view_with_analysis_shows_each_verdict(tmp_path):
    from pasur.host import MatchHost, seat_bots

    match = Match(Rules(target=1), seed=12)
    for _ in MatchHost(match, seat_bots(["random", "greedy"], 12)).play_bots():
        pass
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(match)))
    for lang, choice, kinds, summary in (
        ("en", "to play, and plays", ("deals solved", "every card known", "the only legal move"), "accuracy"),
        ("fa", "بازی می‌کند", ("چینش حل‌شده", "همه کارت‌ها معلوم", "تنها حرکت مجاز"), "دقت"),
    ):
        result = CliRunner().invoke(
            cli, ["replay", str(path), "--view", "--plain", "--analyze", "--samples", "4", "--lang", lang]
        )
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        # every move judged once, under the position it was chosen in (the choice faced, its
        # hand still holding the card played), each judged by samples, exactly, or forced
        chosen = [index for index, line in enumerate(lines) if choice in line]
        assert len(chosen) == 48
        said = [next(kind for kind in kinds if kind in lines[index + 1]) for index in chosen]
        assert set(said) == set(kinds)
        # the last position sums each player up: the accuracy score, explained, and the verdicts
        assert sum(f": {summary} " in line for line in result.output.splitlines()) == 2
    refused = CliRunner().invoke(cli, ["replay", str(path), "--analyze"])
    assert refused.exit_code == 2 and "--view" in refused.output


# -- the details a player trips on ------------------------------------------------------------------


def finished_game() -> LocalGame:
    """A short match played out by bots, won by the second side (so seat order and the result's
    order differ)."""
    for seed in range(40):
        game = LocalGame(Rules(target=5), seat_plans(2, 0, ["random", "random"]), seed=seed)
        while not game.over:
            game.play_bot()
        if game.match.winner == 1:
            return game
    pytest.skip("no match of the first 40 won by the second side")


def test_the_winner_line_gives_the_winners_score_first():
    from pasur.tui.session import winner_text

    game = finished_game()
    won, lost = game.match.scores[1], game.match.scores[0]
    assert won > lost
    assert winner_text(game).endswith(f"{won} - {lost}.") and game.side_name(1) in winner_text(game)
    out = io.StringIO()
    PlainGame(game, source=io.StringIO(""), sink=out).run()
    assert winner_text(game) in out.getvalue()


def test_a_side_past_the_sur_cut_off_is_shown_so():
    from pasur.tui.session import side_lines

    game = versus(target=200)  # the cut-off is 50 by default
    game.match.scores[0] = 52
    lines = side_lines(game, game.view(0))
    assert "Sur cut-off" in lines[0] and "Sur cut-off" not in lines[1]
    persian = side_lines(game, game.view(0), "fa")[0]
    assert "سقف سور" in persian and "، " in persian and "," not in persian  # Persian's own comma


def test_plain_takes_the_keys_of_a_persian_keyboard_layout():
    game = versus()
    out = io.StringIO()
    PlainGame(game, lang="fa", source=io.StringIO("ا\n۱\n"), sink=out).run()
    assert "راهنما:" in out.getvalue() and game.log and game.log[0].seat == 0


def test_ctrl_c_in_plain_saves_like_leaving(tmp_path):
    class Interrupted(io.StringIO):
        def readline(self, *_: object) -> str:  # type: ignore[override]
            line = super().readline()
            if not line:
                raise KeyboardInterrupt
            return line

    path = tmp_path / "interrupted.json"
    game = versus()
    with pytest.raises(KeyboardInterrupt):
        PlainGame(game, source=Interrupted("1\n"), sink=io.StringIO(), save_path=str(path)).run()
    assert LocalGame.load(path).to_record() == game.to_record() and game.log


def test_a_resumed_game_saves_back_to_its_file(tmp_path):
    game = versus(target=200)
    path = tmp_path / "mine.json"
    game.save(path)
    before = len(LocalGame.load(path).log)
    result = CliRunner().invoke(cli, ["play", "--plain", "--resume", str(path)], input="1\ns\nq\n")
    assert result.exit_code == 0 and str(path.resolve()) in result.output, result.output
    assert len(LocalGame.load(path).log) > before and not (tmp_path / "pasur-save.json").exists()


async def test_full_screen_takes_the_keys_of_a_persian_keyboard_layout(tmp_path):
    game = LocalGame(Rules(target=200), seat_plans(2, 1, ["random"], lang="fa"), seed=4)
    path = tmp_path / "fa.json"
    app = PasurApp.in_language("fa")(game, lang="fa", fast=True, save_path=str(path))
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(app, pilot)
        message = app.query_one("#message")
        await pilot.press("۹")
        assert "۹" in str(message.render()) and not game.log  # no ninth card: said, nothing played
        await pilot.press("ا")
        await settle(app, pilot)
        assert "راهنما:" in str(message.render())
        await pilot.press("س")
        assert path.exists()
        await pilot.press("۱")
        await settle(app, pilot)
        assert game.log and game.log[0].seat == 0


def crowded_table() -> tuple[LocalGame, list]:  # type: ignore[type-arg]
    """A fixed deal whose table is made to hold twelve cards (and those cards)."""
    from pasur.core.cards import mask_of

    game = versus(target=200)
    round_ = game.match.round
    held = round_.hands[0] | round_.hands[1]
    spare = [card for card in CARDS if not held >> int(card) & 1][:12]
    round_.table = mask_of(spare)
    return game, spare


async def test_no_table_card_is_cut_off_on_a_narrow_screen():
    game, spare = crowded_table()
    for columns in (60, 80, 120):
        app = PasurApp(game, fast=True)
        async with app.run_test(size=(columns, 30)) as pilot:
            await settle(app, pilot)
            strip = app.query_one("#table")
            inner = strip.content_size.width
            assert all(line.cell_len <= inner + 1 for line in strip.lines)  # the last space may hang over
            assert len(strip.spans) == 12 and strip.size.height == len(strip.lines)
            assert (len(strip.lines) > 1) == (columns == 60)
            shown = "\n".join(line.plain for line in strip.lines)
            assert all(card.symbol() in shown for card in spare)


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_the_table_screen_is_drawn_as_it_was_approved(snap_compare, columns):
    """The whole screen, as pictures (tests/__snapshots__/test_tui/*.svg): a crowded table, the
    hand, the scores and the keys at 60, 80 and 120 columns. After a deliberate change to the
    look, run `pytest tests/test_tui.py --snapshot-update`, open the SVGs and commit them."""
    game, _ = crowded_table()

    async def settled(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot.app, pilot)

    assert snap_compare(PasurApp(game, fast=True), terminal_size=(columns, 30), run_before=settled)


def test_a_capture_choice_is_drawn_as_it_was_approved(snap_compare):
    game, several = with_a_capture_choice()

    async def choosing(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot.app, pilot)
        await pilot.press(str(several[0] + 1))
        await pilot.pause()
        assert pilot.app.choosing

    assert snap_compare(PasurApp(game, fast=True), terminal_size=(80, 30), run_before=choosing)


def test_the_replay_marks_surs_the_last_sweep_and_the_result():
    from pasur.tui.replay import describe_step

    match = Match(Rules(target=5), seed=3)
    while not match.over:
        match.play(match.legal_moves()[0])
    steps = RecordSteps(match)
    names = ["Ava", "Bo"]
    shown = [describe_step(steps.step(index), names) for index in range(len(steps))]
    surs = [index for index in range(len(steps)) if (played := steps.step(index).played) and played.sur]
    sweeps = [index for index in range(len(steps)) if (played := steps.step(index).played) and played.swept]
    assert surs and sweeps, "the seed's match has a Sur and a sweep"
    assert all(any("Sur!" in line for line in shown[index]) for index in surs)
    assert all(any("captured last" in line or "last capture" in line for line in shown[index]) for index in sweeps)
    winner = match.winner
    assert winner is not None
    result = f"{match.scores[winner]} - {match.scores[1 - winner]}"
    assert any(line.startswith("Winner:") and result in line for line in shown[-1])
    assert not any(line.startswith("Winner:") for lines in shown[:-1] for line in lines)
    fa = describe_step(steps.step(surs[0]), names, "fa")
    assert any("سور!" in line for line in fa)
    # Persian digits (the scores, the cards swept last), and a bar between the parts (a middle dot
    # beside Persian digits reads as ۰)
    last = describe_step(steps.step(len(steps) - 1), names, "fa")
    assert "؛ آخرین برداشت" in last[2] and not any(re.search("[0-9]", line) for line in last[:3]), last
    assert not any("·" in line for line in last) and " | " in last[0], last


async def test_the_round_over_dialog_shows_the_rounds_last_plays():
    from pasur.tui.session import describe

    game = versus(target=200)
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(100, 40)) as pilot:
        for _ in range(200):
            await settle(app, pilot)
            if isinstance(app.screen, MessageScreen):
                break
            await pilot.press("1")
        assert isinstance(app.screen, MessageScreen) and game.log[-1].round_over
        body = str(app.screen.query_one("#message-body").render())
        assert "is over" in body and describe(game, game.log[-1]) in body and describe(game, game.log[-2]) in body


def contrast(first: str, second: str) -> float:
    """WCAG's contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour.lstrip("#")[index : index + 2], 16) / 255 for index in (0, 2, 4)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


async def test_red_suits_meet_4_5_to_1_in_both_themes():
    from pasur.tui.widgets import RED_SUITS

    game = versus(target=200)
    for theme in ("dark", "light"):
        app = PasurApp(game, fast=True, theme_name=theme)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            red = RED_SUITS[app.theme]
            strips = [app.query_one("#table"), app.query_one("#hand")]
            styles = {str(span.style) for strip in strips for line in strip.lines for span in line.spans}
            assert any(red in style for style in styles)  # this deal shows red cards, in the theme's red
            colours = app.get_css_variables()
            for background in ("background", "surface", "panel"):
                assert contrast(red, colours[background]) >= 4.5, (theme, background)


def test_a_card_marked_to_be_taken_reads_at_4_5_to_1_whatever_its_suit():
    from rich.style import Style

    from pasur.core import CARDS
    from pasur.tui.widgets import card_text

    for card in (CARDS[0], CARDS[1]):  # the A♣ and the A♦
        style = Style.parse(str(card_text(card, taken=True).style))
        assert contrast(style.color.triplet.hex, style.bgcolor.triplet.hex) >= 4.5, style


# -- the first-game lesson -------------------------------------------------------------------------


def test_plain_lesson_tells_each_rule_once_and_the_round_end():
    result = CliRunner().invoke(cli, ["play", "--lesson", "--plain", "--seed", "3"], input="1\n" * 30)
    assert result.exit_code == 0, result.output
    shown = result.output
    assert shown.count("* Tip: Welcome to Pasur!") == 1
    assert "* Tip: A numeral takes the table's numerals that add up with it to 11: play 5♥ × 6♣ (5 + 6 = 11)." in shown
    assert "Shirin (easy)" in shown and "Round 1 is over" in shown
    assert shown.index("Round 1 is over") < shown.index("* Tip: Those are all the rules.")
    assert "\u2066" not in shown  # a terminal gets no isolates
    refused = CliRunner().invoke(cli, ["play", "--lesson", "--plain", "--humans", "2"])
    assert refused.exit_code == 2 and "leave out --humans" in refused.output


async def test_full_screen_lesson_shows_the_tip_and_chooses_the_move_it_suggests():
    game = LocalGame.first_lesson(seed=3)
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        coach = app.query_one("#coach")
        assert coach.has_class("open") and "Welcome to Pasur" in str(coach.render())
        assert str(game.view(0).hand[app.selected]) == "5H"
        assert app.taken_preview == Move.parse("5Hx6C").take_mask
        await pilot.press("enter")  # the card the tip chose
        await settle(app, pilot)
        assert str(game.log[0].move) == "5Hx6C" and "Sur" in str(coach.render())
        assert str(game.view(0).hand[app.selected]) == "6H"


async def test_the_log_uses_the_height_it_is_given_and_the_rules_scroll_with_the_keys():
    game = versus(target=200)
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        while len(game.log) < 20:  # the person plays its first card each turn; the bot answers
            await pilot.press("enter")
            await settle(app, pilot)
        shown = [line for line in str(app.query_one("#log-text").render()).splitlines() if line.strip()]
        log = app.query_one("#log")
        assert len(shown) >= 20 and log.size.height > 10  # not 5 lines on a tall screen
        assert "last: " in str(app.query_one("#others").render())  # the seat across, with room to say more
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(80, 24)) as pilot:  # a short screen: the log pages back with the keys
        await settle(app, pilot)
        log = app.query_one("#log")
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y  # the latest move in sight
        assert "last: " not in str(app.query_one("#others").render())  # a short screen: one line
        await pilot.press("pageup")
        await pilot.pause()
        assert log.scroll_y < log.max_scroll_y
    app = PasurApp(game, fast=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        rules = app.screen.query_one("VerticalScroll")
        assert rules.max_scroll_y > 0  # longer than the screen
        await pilot.press("pagedown")
        await pilot.pause()
        assert rules.scroll_y > 0


@pytest.mark.parametrize("lang", ["en", "fa"])
async def test_at_60_columns_the_footer_still_shows_the_rules_and_leaving(lang):
    game = LocalGame(Rules(target=200), seat_plans(2, 1, ["random"], lang=lang), seed=2)
    app = PasurApp.in_language(lang)(game, lang=lang, fast=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(app, pilot)
        shown = {key.key: key.region for key in app.query("FooterKey")}
        for key in ("question_mark", "q"):
            assert shown[key].width and shown[key].right <= 60, (key, shown[key])
