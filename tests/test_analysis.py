"""``pasur analyze``: every move judged from the mover's view only, with honest intervals; a
random player loses more than a greedy one; hidden cards do not change a judgement."""

from __future__ import annotations

import json

import pytest

from pasur import Match, Round, Rules, to_record
from pasur.bots.analysis import analysis_tasks, judge_move, players_summary
from pasur.core import native
from pasur.host import MatchHost, seat_bots

from .test_cli import assert_one_line_error, pasur

if not native.available():
    pytest.skip("the native core was not built (or PASUR_ENGINE=python)", allow_module_level=True)


def played_round(bots: list[str], seed: int, rules: Rules | None = None) -> Match:
    """One round played by bots (the match stops there: target 1)."""
    match = Match(rules or Rules(target=1), seed=seed)
    host = MatchHost(match, seat_bots(bots, seed))
    for _ in host.play_bots():
        pass
    return match


def test_a_random_player_loses_more_than_a_greedy_one_and_every_judgement_adds_up():
    match = played_round(["random", "greedy"], seed=3)
    judgements = [judge_move(task, 8) for task in analysis_tasks(match, None, seed=1)]
    assert len(judgements) == 48 and {one.seat for one in judgements} == {0, 1}
    for one in judgements:
        assert one.values[one.best] == max(one.values.values())
        assert one.loss == pytest.approx(one.values[one.best] - one.values[one.played]) and one.loss >= 0
        low, high = one.loss_interval
        assert low <= one.loss <= high
    summary = {row["seat"]: row for row in players_summary(judgements)}
    assert summary[0]["mean_loss"] > summary[1]["mean_loss"]
    assert summary[0]["mistakes"] >= 1


def test_a_judgement_does_not_depend_on_the_cards_the_mover_cannot_see():
    match = played_round(["greedy", "greedy"], seed=5)
    tasks = analysis_tasks(match, [0], seed=2)
    rules, deck, number, banked, before, played, seed = tasks[5]  # seat 0's 6th move, mid-round
    position = Round(rules, deck, number, banked, check_deck=False)
    for code in before:
        position.play_code(code)
    # swap a card of the other hand with one still in the pack: seat 0 sees neither
    other_card = (position.hands[1] & -position.hands[1]).bit_length() - 1
    pack_card = position.deck[position.dealt]
    swapped = [pack_card if card == other_card else other_card if card == pack_card else card for card in deck]
    original = judge_move(tasks[5], 12)
    assert judge_move((rules, tuple(swapped), number, banked, before, played, seed), 12) == original


def test_analyze_prints_json_and_a_summary(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(played_round(["random", "greedy"], seed=4))))
    result = pasur("analyze", str(path), "--seat", "0", "--samples", "4", "--json", "--jobs", "2")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert {one["seat"] for one in answer["moves"]} == {0} and len(answer["moves"]) == 24
    first = answer["moves"][0]
    assert {"round", "move", "seat", "played", "best", "loss", "values"} <= set(first)
    assert answer["players"][0]["seat"] == 0 and "mean_loss" in answer["players"][0]
    human = pasur("analyze", str(path), "--samples", "4")
    assert human.returncode == 0 and "seat 0:" in human.stdout and "seat 1:" in human.stdout


def test_analyze_judges_three_players_against_the_others_average(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(played_round(["greedy"] * 3, 6, Rules(players=3, target=1)))))
    result = pasur("analyze", str(path), "--seat", "2", "--samples", "4", "--json", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    moves = json.loads(result.stdout)["moves"]
    assert len(moves) == 16 and {one["seat"] for one in moves} == {2}
    assert all(one["loss"] >= 0 and one["played"] in one["values"] for one in moves)


def test_analyze_refuses_what_it_cannot_judge(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("{not json")
    assert "invalid record" in assert_one_line_error(pasur("analyze", str(path)), 1)
    path.write_text(json.dumps(to_record(played_round(["greedy", "greedy"], seed=7))))
    assert "--seat" in assert_one_line_error(pasur("analyze", str(path), "--seat", "3"), 2)
