"""The JSON Schemas of the formats (pasur.schemas): shipped as built, valid, met by everything the
project writes, and never stricter than the readers: every field of a valid file given every wrong
type (or left out) is refused by the reader whenever the schema refuses it."""

from __future__ import annotations

import copy
import io
import json
import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

jsonschema = pytest.importorskip("jsonschema", reason="the dev extra is installed by scripts/test.sh")

from pasur import Match, Rules, from_record, to_record  # noqa: E402
from pasur.bots import BotError, make_bot  # noqa: E402
from pasur.bots.protocol import ExternalBot, serve  # noqa: E402
from pasur.coach.puzzles import Puzzle, shipped_puzzles  # noqa: E402
from pasur.core import RecordError, RulesError  # noqa: E402
from pasur.schemas import FILES, HERE, build, load, text  # noqa: E402
from pasur.train.targets import Plan, check_header, position_line, read_decision  # noqa: E402

#: What a field is given instead of its value.
WRONG = [None, True, 7, -1, 1.5, "x", "", "\x1b]0;x\x07", "Ava\u202e", [], {}, ["x"], {"x": 1}]


def validator(name: str, message: str | None = None) -> jsonschema.protocols.Validator:
    """The schema of a format, or of one of pasur-bot/1's messages (``hello``, ``move``, ``quit``,
    ``hello_answer``, ``move_answer``)."""
    schema = load(name)
    if message is not None:
        schema = {key: value for key, value in schema.items() if key not in ("anyOf", "title")}
        schema["$ref"] = f"#/$defs/{message}"
    return jsonschema.Draft202012Validator(schema)


def played_match(rules: Rules, seed: int, moves: int | None = None) -> Match:
    """A match between greedy bots, whole or stopped after ``moves`` plays."""
    match = Match(rules, seed=seed)
    bots = [make_bot("greedy", seed=seat) for seat in range(rules.players)]
    played = 0
    while not match.over and (moves is None or played < moves):
        game = match.round
        move = bots[game.turn].choose(game.view(game.turn), game.legal_moves())
        match.play(move)
        played += 1
    return match


def mutations(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every copy of ``value`` with one field (of the first two items of each list) given a wrong
    value or left out, with the path changed."""
    if isinstance(value, dict):
        slots, wrongs = list(value), [*WRONG, ...]  # ...: the field left out
    elif isinstance(value, list):
        slots, wrongs = list(range(min(2, len(value)))), WRONG
    else:
        return
    for slot in slots:
        for wrong in wrongs:
            changed = copy.deepcopy(value)
            if wrong is ...:
                del changed[slot]
            else:
                changed[slot] = wrong
            yield (*path, slot), changed
        for inner_path, inner in mutations(value[slot], (*path, slot)):
            changed = copy.deepcopy(value)
            changed[slot] = inner
            yield inner_path, changed


def refused(read: Callable[[Any], object], data: Any, errors: tuple[type[Exception], ...]) -> bool:
    try:
        read(data)
    except errors:
        return True
    return False


def assert_never_stricter(
    name: str,
    valid: Any,
    read: Callable[[Any], object],
    errors: tuple[type[Exception], ...],
    message: str | None = None,
) -> None:
    """Whatever the schema refuses of ``valid``'s mutations, ``read`` refuses too (and it reads
    ``valid`` itself)."""
    check = validator(name, message)
    assert check.is_valid(valid) and not refused(read, valid, errors)
    tried = 0
    for path, changed in mutations(valid):
        if not check.is_valid(changed):
            tried += 1
            assert refused(read, changed, errors), f"{name}: the schema refuses {path}; the reader not"
    assert tried > 50


def test_the_shipped_schemas_are_the_built_ones_and_valid_schemas():
    built = build()
    assert set(built) == set(FILES)
    for name, schema in built.items():
        assert (HERE / FILES[name]).read_text(encoding="utf-8") == text(schema), "run python -m pasur.schemas"
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(players=3), Rules(players=4), Rules(players=4, partnership=False, haft_khaj="most", target=20)],
    ids=["2", "3", "4", "4-each"],
)
def test_every_record_written_validates(rules):
    check = validator("pasur-record/1")
    for match in (played_match(rules, 1), played_match(rules, 2, moves=30)):
        record = json.loads(json.dumps(to_record(match, names=[f"p{seat}" for seat in range(rules.players)])))
        assert check.is_valid(record), list(check.iter_errors(record))[:1]


def test_the_record_reader_refuses_what_its_schema_refuses():
    record = json.loads(json.dumps(to_record(played_match(Rules(target=10), 3, moves=12), names=["a", "b"])))
    assert_never_stricter("pasur-record/1", record, from_record, (RecordError,))


def test_every_shipped_puzzle_validates_and_the_reader_refuses_what_the_schema_refuses():
    check = validator("pasur-puzzle/1")
    puzzles = [puzzle.to_json() for puzzle in shipped_puzzles()]
    assert puzzles and all(check.is_valid(json.loads(json.dumps(puzzle))) for puzzle in puzzles)
    assert_never_stricter("pasur-puzzle/1", json.loads(json.dumps(puzzles[0])), Puzzle.from_json, (ValueError,))


def decision_lines(count: int) -> list[str]:
    """Lines as a targets file holds them, from views of greedy play (values made up)."""
    rng = random.Random(4)
    lines = []
    match = played_match(Rules(), 5, moves=0)
    while len(lines) < count and not match.over:
        game = match.round
        legal = game.legal_moves()
        lines.append(position_line(game.view(game.turn), legal, {move.code: rng.uniform(-5, 5) for move in legal}))
        match.play(legal[0])
    return lines


def test_a_targets_file_validates_line_by_line_and_its_reader_refuses_what_the_schema_refuses():
    check = validator("pasur-targets/1")
    header = json.loads(json.dumps(Plan(Rules(players=3), samples=8, weights="w.npz").header()))
    lines = [json.loads(line) for line in decision_lines(12)]
    assert all(check.is_valid(line) for line in [header, *lines])
    for line in lines:
        read_decision(line)
    # the header is read by its format and check_header, a decision by read_decision
    assert_never_stricter(
        "pasur-targets/1",
        header,
        lambda data: (check_header(data), data["format"] == "pasur-targets/1" or (_ for _ in ()).throw(ValueError)),
        (ValueError, RulesError, KeyError, TypeError),
    )
    assert_never_stricter("pasur-targets/1", lines[7], read_decision, (ValueError, KeyError))


LOGGING_BOT = (
    "import json, sys\n"
    "log = open(sys.argv[1], 'a')\n"
    "for line in sys.stdin:\n"
    "    log.write(line); log.flush()\n"
    "    message = json.loads(line)\n"
    "    if message['type'] == 'hello': print(json.dumps({'type': 'hello', 'name': 'logger'}), flush=True)\n"
    "    elif message['type'] == 'move':\n"
    "        print(json.dumps({'type': 'move', 'id': message['id'], 'move': message['legal'][0]}), flush=True)\n"
    "    elif message['type'] == 'quit': break\n"
)


def test_every_message_a_host_sends_and_a_served_bot_answers_validates(tmp_path):
    check = validator("pasur-bot/1")
    program, log = tmp_path / "bot.py", tmp_path / "messages.jsonl"
    program.write_text(LOGGING_BOT, encoding="utf-8")
    bot = ExternalBot(f"{sys.executable} {program} {log}")
    match = played_match(Rules(players=4), 6, moves=0)
    for _ in range(20):
        game = match.round
        move = bot.choose(game.view(game.turn), game.legal_moves())
        match.play(move)
    bot.close()
    sent = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert {message["type"] for message in sent} == {"hello", "move", "quit"}
    assert all(check.is_valid(message) for message in sent)
    answers = io.StringIO()
    serve(make_bot("greedy", seed=1), "greedy", io.StringIO("".join(json.dumps(m) + "\n" for m in sent)), answers)
    replies = [json.loads(line) for line in answers.getvalue().splitlines()]
    assert len(replies) == len(sent) - 1 and all(check.is_valid(reply) for reply in replies)


def test_a_served_bot_refuses_what_the_schema_refuses_of_a_hosts_messages(tmp_path):
    """``serve`` answers nothing to a message the schema refuses (it says so on standard error)."""
    game = played_match(Rules(), 7, moves=5).round
    legal = game.legal_moves()
    move = {
        "type": "move",
        "id": 3,
        "view": game.view(game.turn).to_json(),
        "legal": [game.view(game.turn).move_text(m) for m in legal],
        "moves": [{"move": "x", **m.to_json()} for m in legal],
    }

    def answered(message: Any) -> None:
        out = io.StringIO()
        serve(make_bot("greedy", seed=1), "greedy", io.StringIO(json.dumps(message) + "\n"), out)
        if not out.getvalue():
            raise ValueError("no answer")

    assert_never_stricter("pasur-bot/1", move, answered, (ValueError,), "move")
    check = validator("pasur-bot/1", "hello")
    for hello in ({"type": "hello"}, {"type": "hello", "protocol": "other/2"}, {"type": "hello", "protocol": 1}):
        assert not check.is_valid(hello) and refused(answered, hello, (ValueError,))


@pytest.mark.parametrize(
    "hello,answer,reason",
    [
        ({"type": "hello", "name": 5}, None, "bot_no_hello"),
        ({"type": "hello", "name": "ok"}, {"type": "move", "id": True, "move": "?"}, "bot_wrong_answer"),
        ({"type": "hello", "name": "ok"}, {"type": "move", "id": 1, "move": 7}, "bot_no_move_text"),
    ],
)
def test_the_host_refuses_answers_the_schema_refuses(tmp_path, hello, answer, reason):
    answering = "hello_answer" if answer is None else "move_answer"
    assert not validator("pasur-bot/1", answering).is_valid(hello if answer is None else answer)
    program = tmp_path / "bot.py"
    lines = [json.dumps(hello)] + ([json.dumps(answer)] if answer else [])
    program.write_text(
        "import sys\nreplies = iter(" + repr(lines) + ")\n"
        "for line in sys.stdin:\n    print(next(replies, ''), flush=True)\n",
        encoding="utf-8",
    )
    bot = ExternalBot(f"{sys.executable} {program}", timeout=5)
    game = played_match(Rules(), 8, moves=0).round
    with pytest.raises(BotError) as raised:
        bot.choose(game.view(game.turn), game.legal_moves())
    assert raised.value.reason == reason
