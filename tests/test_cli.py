"""The ``pasur`` command, run as a user runs it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.request

import pytest

from pasur import replay_record, to_record

from .test_record import played_match


def pasur(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pasur", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], status: int) -> str:
    assert result.returncode == status
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pasur: error: ")
    return lines[0]


@pytest.fixture
def record_file(tmp_path):
    path = tmp_path / "match.json"
    record = to_record(played_match(seed=3))
    path.write_text(json.dumps(record))
    return path, record


def test_replay_json_prints_the_records_md_object(record_file):
    path, record = record_file
    result = pasur("replay", str(path), "--json")
    assert result.returncode == 0
    assert json.loads(result.stdout) == replay_record(record)


def test_replay_human_readable(record_file):
    path, _ = record_file
    result = pasur("replay", str(path))
    assert result.returncode == 0
    assert "round 1" in result.stdout and "wins" in result.stdout


def test_replay_invalid_record_prints_only_the_error_object(record_file, tmp_path):
    _, record = record_file
    record["rounds"][0]["moves"][0]["take"] = ["KC", "KD"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = pasur("replay", str(path), "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["error"]["round"] == 1
    assert json.loads(result.stdout)["error"]["move"] == 1
    assert len(result.stdout.strip().splitlines()) == 1
    assert_one_line_error(pasur("replay", str(path)), 1)


def test_replay_json_lines_from_stdin_one_line_each(record_file):
    _, record = record_file
    lines = [json.dumps(record), "{broken", json.dumps({"rounds": []})]
    result = pasur("replay", "-", "--json", stdin="\n".join(lines) + "\n")
    assert result.returncode == 1
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 3
    assert out[0]["scores"] == replay_record(record)["scores"]
    assert "error" in out[1] and out[2]["over"] is False


def test_replay_jsonl_file_all_valid_exits_zero(tmp_path, record_file):
    _, record = record_file
    path = tmp_path / "many.jsonl"
    path.write_text((json.dumps(record) + "\n") * 5)
    result = pasur("replay", str(path), "--json")
    assert result.returncode == 0 and len(result.stdout.splitlines()) == 5


def test_replay_missing_file_and_not_json(tmp_path):
    assert "cannot read" in assert_one_line_error(pasur("replay", str(tmp_path / "none.json")), 1)
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    assert "not JSON" in assert_one_line_error(pasur("replay", str(bad)), 1)
    result = pasur("replay", str(bad), "--json")
    assert result.returncode == 1 and "not JSON" in json.loads(result.stdout)["error"]["message"]


def test_a_record_that_is_not_utf8_text_is_an_invalid_record_in_one_line(tmp_path, record_file):
    _, record = record_file
    latin = tmp_path / "latin.json"
    latin.write_bytes(json.dumps(record).replace('"format"', '"by": "Jos\xe9", "format"').encode("latin-1"))
    for command in ("replay", "analyze", "solve", "puzzles"):
        line = assert_one_line_error(pasur(command, str(latin)), 1)
        assert "invalid record: not UTF-8 text at line 1 column 12" in line, command
    result = pasur("replay", str(latin), "--json")
    assert result.returncode == 1 and json.loads(result.stdout)["error"]["message"].startswith("not UTF-8 text")
    # in JSON Lines (here on standard input) only that line is invalid: the others are replayed, in order
    lines = [json.dumps(record).encode(), b'{"rounds": "\xff\xfe"}', json.dumps(record).encode()]
    result = subprocess.run(
        [sys.executable, "-m", "pasur", "replay", "-", "--json"],
        input=b"\n".join(lines),
        capture_output=True,
        timeout=120,
    )
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 1 and len(out) == 3
    assert out[0] == out[2] == replay_record(record) and "not UTF-8 text" in out[1]["error"]["message"]


def test_a_file_that_cannot_be_written_is_said_in_one_line_before_the_work(tmp_path, record_file):
    path, _ = record_file
    nowhere = tmp_path / "missing" / "out.jsonl"
    for command in (["match", "greedy", "random", "--rounds", "1", "--records"], ["puzzles", str(path), "--out"]):
        line = assert_one_line_error(pasur(*command, str(nowhere)), 1)
        assert f"cannot write {nowhere}: No such file or directory" in line, command
    assert not nowhere.parent.exists()


def test_a_record_with_no_round_is_said_so_not_shown_blank(tmp_path):
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"format": "pasur-record/1", "rounds": []}))
    for view in (["--plain"], []):  # the full screen failed with IndexError, --plain printed nothing
        line = assert_one_line_error(pasur("replay", str(path), "--view", *view), 1)
        assert "the record has no round to show" in line
    judged = pasur("analyze", str(path))
    assert judged.returncode == 0 and judged.stdout == "nothing to judge: the record has no moves\n"


def test_a_record_whose_names_would_steer_the_terminal_is_invalid(tmp_path, record_file):
    _, record = record_file
    path = tmp_path / "steering.json"
    path.write_text(json.dumps({**record, "names": ["\x1b]0;owned\x07Ava", "Bo\x9b31m"]}))
    for command in (["replay", "--view", "--plain"], ["analyze"], ["puzzles"]):
        line = assert_one_line_error(pasur(*command, str(path)), 1)
        assert "names must hold no control characters" in line and "\x1b" not in line, command
    # a right-to-left override would show the rest of each line naming the seat backwards
    path.write_text(json.dumps({**record, "names": ["Ava", "\u202eBo"]}))
    line = assert_one_line_error(pasur("replay", str(path), "--view", "--plain"), 1)
    assert "names must hold no control characters" in line and "\u202e" not in line
    path.write_text(json.dumps({**record, "names": ["Ava", "آوا\u200c\u200fجان"]}))  # a joiner and a mark: a name
    assert pasur("replay", str(path), "--view", "--plain").returncode == 0


def test_deal_is_reproducible_and_shows_every_hand():
    first, second = pasur("deal", "--seed", "42", "--players", "3"), pasur("deal", "--seed", "42", "--players", "3")
    assert first.returncode == 0 and first.stdout == second.stdout
    lines = first.stdout.splitlines()
    assert [line.split(":")[0].strip() for line in lines[1:]] == ["seat 0", "seat 1", "seat 2", "table", "pack"]
    shown = " ".join(line.split(":", 1)[1] for line in lines[1:]).split()
    assert len(shown) == 52 and len(set(shown)) == 52


def test_rules_options_by_flag_or_by_name_agree():
    by_flag = pasur("rules", "--players", "3", "--no-sur-cancel", "--target", "100")
    by_name = pasur("rules", "--rule", "players=3", "--rule", "sur_cancel=false", "--rule", "target=100")
    assert by_flag.returncode == 0 and by_flag.stdout == by_name.stdout
    assert "no cancelling" in by_flag.stdout and "reaches 100" in by_flag.stdout
    assert '"sur_cutoff": null' in pasur("rules", "--no-sur-cutoff").stdout


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "--players", "7"],
        ["rules", "--rule", "sur_cancel=maybe"],
        ["rules", "--rule", "nonsense"],
        ["rules", "--rule", "colour=red"],
        ["deal", "--seed", "x"],
        ["nosuchcommand"],
        ["demo", "wizard"],
    ],
)
def test_bad_options_give_one_line_and_status_2(args):
    assert_one_line_error(pasur(*args), 2)


def test_bench_json_has_rounds_per_second():
    result = pasur("bench", "--json", "--seconds", "0.3", "--records", "3", "--no-bots")
    assert result.returncode == 0
    figures = json.loads(result.stdout)
    assert figures["rounds_per_second"] > 0 and figures["replay_moves_per_second"] > 0


def has_module(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def test_bench_and_version_say_which_engine_runs_and_the_pure_one_can_be_forced():
    from pasur.core import native

    figures = json.loads(pasur("bench", "--json", "--seconds", "0.3", "--records", "3", "--no-bots").stdout)
    assert figures["engine"] == native.ENGINE and figures["python_rounds_per_second"] > 0
    if native.available():
        assert figures["rounds_per_second"] == figures["native_rounds_per_second"] > figures["python_rounds_per_second"]
        assert figures["solver"]["positions"] == 40 and figures["solver"]["median_ms"] > 0
        if has_module("gymnasium"):  # the vector environment needs the rl extra
            assert figures["vector_env"]["vector_steps_per_second"] > 0 and figures["vector_env"]["speedup"] > 0
    assert f"({native.ENGINE} engine)" in pasur("--version").stdout
    forced = subprocess.run(
        [sys.executable, "-m", "pasur", "bench", "--json", "--seconds", "0.3", "--records", "3", "--no-bots"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PASUR_ENGINE": "python"},
    )
    pure = json.loads(forced.stdout)
    assert pure["engine"] == "python" and "native_rounds_per_second" not in pure
    assert "solver" not in pure and "vector_env" not in pure
    assert pure["rounds_per_second"] == pure["python_rounds_per_second"]


def test_bench_sets_the_environment_against_each_engine_loop():
    pytest.importorskip("pettingzoo", reason="the rl extra is installed by scripts/test.sh")
    from pasur.bench import ENGINE_LOOPS, environment_moves

    for players in (2, 4):
        elapsed, moves = environment_moves(600, seed=players, players=players)
        assert elapsed > 0 and 500 < moves <= 600  # a move takes one step, or more to choose a capture
    result = pasur("bench", "--seconds", "0.2", "--records", "2", "--no-bots", "--env-players", "4")
    assert result.returncode == 0 and "PettingZoo env : 4 players" in result.stdout
    for words in ("(masks, legal_codes, play_code)", "without the view", "(legal_moves, play)"):
        assert words in result.stdout
    figures = json.loads(pasur("bench", "--json", "--seconds", "0.2", "--records", "2", "--no-bots").stdout)
    assert all(figures["pettingzoo"][f"cost_per_{loop}_move"] > 0 for loop in ENGINE_LOOPS)


def test_demo_plays_a_whole_match():
    result = pasur("demo", "--seed", "9", "--letters", "--players", "4")
    assert result.returncode == 0
    assert "Round 1" in result.stdout and "wins the match" in result.stdout


def test_replay_json_lines_in_parallel_keeps_the_order(tmp_path):
    records = [to_record(played_match(seed=seed, target=20)) for seed in range(40)]
    records[17]["rounds"][0]["moves"][0]["take"] = ["KC", "KD"]
    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    serial = pasur("replay", str(path), "--json", "--jobs", "1")
    parallel = pasur("replay", str(path), "--json", "--jobs", "2")
    assert serial.returncode == parallel.returncode == 1
    assert serial.stdout == parallel.stdout
    lines = [json.loads(line) for line in parallel.stdout.splitlines()]
    assert [("error" in line) for line in lines] == [index == 17 for index in range(40)]
    assert lines[3]["scores"] == replay_record(records[3])["scores"]


def test_bench_times_a_bot_over_real_positions():
    from pasur.bench import bot_speed

    speed = bot_speed("expert", 30)
    assert speed["decisions_per_second"] > 0 and speed["median_ms"] >= 0


def test_bots_command_lists_every_bot():
    result = pasur("bots")
    assert result.returncode == 0
    assert [line.split()[0] for line in result.stdout.splitlines()] == [
        "random",
        "greedy",
        "expert",
        "net",
        "ismcts",
        "pimc",
        "solver",
        "omniscient",
        "exec:COMMAND",
    ]
    assert "solver   [grandmaster]" in result.stdout and "pimc     [master]" in result.stdout
    assert "omniscient [pasur match only]" in result.stdout


def test_serve_with_a_database_it_cannot_open_says_so_in_one_line():
    pytest.importorskip("fastapi")
    for url in ("nonsense://nowhere", "mysql://someone@somewhere/pasur"):  # no dialect; no driver
        message = assert_one_line_error(pasur("serve", "--database", url), 1)
        assert "cannot open the database" in message and "give a sqlite:///FILE or postgresql+psycopg://" in message
    message = assert_one_line_error(pasur("serve", "--database", "sqlite:////no/such/folder/pasur.db"), 1)
    assert "unable to open database file" in message and "give" not in message


def test_serve_on_a_port_in_use_says_so_in_one_line_and_claims_nothing(tmp_path):
    pytest.importorskip("fastapi")
    database = f"sqlite:///{tmp_path / 'one.db'}"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused = pasur("serve", "--database", database, "--port", str(port))
        message = assert_one_line_error(refused, 1)
        assert f"cannot listen on 127.0.0.1:{port}" in message and "being served" not in refused.stdout
    # free, the same command serves, and says so
    command = [sys.executable, "-m", "pasur", "serve", "--database", database, "--port", str(port)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as server:
        try:
            assert server.stdout is not None and "being served" in server.stdout.readline()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
                assert page.status == 200 and b"<title>Pasur</title>" in page.read()
        finally:
            server.terminate()


def test_serve_from_several_processes_needs_postgresql(tmp_path):
    pytest.importorskip("fastapi")
    database = f"sqlite:///{tmp_path / 'one.db'}"
    message = assert_one_line_error(pasur("serve", "--database", database, "--workers", "2"), 2)
    assert "with SQLite one process is the limit" in message and "postgresql" in message
