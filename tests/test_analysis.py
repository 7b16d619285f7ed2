"""``pasur analyze``: every move judged from the mover's view only, with honest intervals; a
random player loses more than a greedy one; hidden cards do not change a judgement."""

from __future__ import annotations

import json
import random

import pytest

from pasur import Match, Move, Round, Rules, deal_deck, to_record
from pasur.coach.analysis import (
    MoveJudgement,
    Precision,
    accuracy,
    analysis_tasks,
    judge_move,
    judge_position,
    judgement_line,
    players_summary,
    weighted_interval,
)
from pasur.coach.hint import hint
from pasur.coach.reasons import explain, reason_line
from pasur.core import native
from pasur.core.cards import mask_of
from pasur.core.stats import t_quantile
from pasur.host import MatchHost, seat_bots

from .helpers import cards, position
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
    judgements = [judge_move(task, Precision.fixed(8)) for task in analysis_tasks(match, None, seed=1)]
    assert len(judgements) == 48 and {one.seat for one in judgements} == {0, 1}
    for one in judgements:
        assert one.values[one.best] == max(one.values.values())
        assert one.loss == pytest.approx(one.values[one.best] - one.values[one.played]) and one.loss >= 0
        low, high = one.loss_interval
        assert low <= one.loss <= high
    summary = {row["seat"]: row for row in players_summary([one.to_json() for one in judgements])}
    assert summary[0]["mean_loss"] > summary[1]["mean_loss"]
    assert summary[0]["accuracy"] < summary[1]["accuracy"] <= 100
    assert summary[0]["mistakes"] + summary[0]["unclear"] >= 1
    for row in summary.values():
        # the largest losses, largest first, and the key moments, in order, are the seat's own
        own = {(one.round, one.move): one for one in judgements if one.seat == row["seat"]}
        losses = [largest["loss"] for largest in row["largest"]]
        assert losses == sorted(losses, reverse=True) and len(losses) <= 3
        assert losses[:1] == [round(max(one.loss for one in own.values()), 3)][: len(losses)]
        moments = [(moment["round"], moment["move"]) for moment in row["key_moments"]]
        assert moments == sorted(moments) and all(own[moment].verdict != "good" for moment in moments)


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
    original = judge_move(tasks[5], Precision.fixed(12))
    assert judge_move((rules, tuple(swapped), number, banked, before, played, seed), Precision.fixed(12)) == original


def test_accuracy_is_100_for_no_loss_and_halves_with_every_035_points_lost_a_move():
    assert accuracy(0.0) == 100 and accuracy(0.35) == 50 and accuracy(0.7) == 25 and accuracy(1.0) == 14


def test_t_quantiles_match_the_table_and_weights_count_as_fewer_samples():
    # Student's t at 97.5%, from any table: 1, 2, 5, 10, 30 and 120 degrees of freedom
    for freedom, known in ((1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042), (120, 1.980)):
        assert t_quantile(freedom) == pytest.approx(known, rel=0.01 if freedom == 2 else 0.001)
    values = [0.0, 1.0, 2.0, 5.0, -1.0, 3.0]
    mean, spread, effective = weighted_interval(values, [1.0] * 6)
    sample_sd = (sum((value - 5 / 3) ** 2 for value in values) / 5) ** 0.5
    assert mean == pytest.approx(5 / 3) and effective == pytest.approx(6)
    assert spread == pytest.approx(t_quantile(5) * sample_sd / 6**0.5)
    assert weighted_interval(values, [3.0] * 6) == pytest.approx((mean, spread, effective))  # only ratios count
    # one deal weighing as much as all the others: fewer effective samples, a wider interval
    uneven = weighted_interval(values, [5.0, 1, 1, 1, 1, 1])
    assert uneven[2] == pytest.approx(100 / 30) and uneven[1] > spread
    assert weighted_interval([2.0, 4.0], [1.0, 1e-9])[1] == float("inf")  # one deal counts: no bound


def judged_with(interval: tuple[float, float], played: str = "7Dx4C", best: str = "10CxAS") -> MoveJudgement:
    loss = sum(interval) / 2
    codes = {text: Move.parse(text).code for text in (played, best)}
    return MoveJudgement(1, 5, 0, played, best, loss, interval, {}, 256, 256.0, codes[played], codes[best])


def test_a_verdict_is_given_only_when_the_whole_interval_lies_in_its_band():
    assert judged_with((-0.1, 0.25)).verdict == "good"
    assert judged_with((0.35, 0.9)).verdict == "inaccuracy"
    assert judged_with((1.0, 2.4)).verdict == "mistake"
    # an interval across one edge says which two verdicts it allows; across both, unclear
    assert judged_with((0.1, 0.5)).verdict == "good_or_inaccuracy"
    assert judged_with((0.8, 1.3)).verdict == "inaccuracy_or_mistake"
    assert judged_with((-0.2, 3.0)).verdict == "unclear"


def test_a_judgement_reads_for_people_with_its_unit_its_margin_and_the_capture_named():
    line = judgement_line(judged_with((1.2, 1.8), played="7D", best="10CxAS"))
    assert line == "mistake: loses 1.5 points (between 1.2 and 1.8, 95% sure) · best 10♣ × A♠ · 256 deals solved"
    between = judgement_line(judged_with((0.7, 1.3), best="7D"))
    assert between == (
        "an inaccuracy or a mistake: loses 1.0 points (between 0.7 and 1.3, 95% sure) · best lay 7♦ · 256 deals solved"
    )
    persian = judgement_line(judged_with((1.2, 1.8), played="7D", best="10CxAS"), "fa")
    assert "۱٫۵" in persian and "۱۰♣ × A♠" in persian and "۲۵۶" in persian
    assert not any(character.isascii() and character.isdigit() for character in persian)
    assert ";" not in persian and "," not in persian
    assert judgement_line(judged_with((0.0, 0.0), played="7D", best="7D")).startswith("good: the best move")


def test_deals_are_added_until_the_loss_is_known_to_the_width_or_the_most_are_solved():
    match = played_round(["random", "greedy"], seed=3)
    tasks = [task for task in analysis_tasks(match, [0], seed=4)][:12]
    precision = Precision(width=0.4, least=8, most=128, ms=None)  # the width decides, however busy the machine
    judged = [judge_move(task, precision) for task in tasks]
    assert any(one.samples > 8 for one in judged)  # some needed more than the first batch
    for one in judged:
        if one.samples < precision.most:
            assert one.margin <= precision.width and one.verdict != "unclear"
        fixed = judge_move(tasks[judged.index(one)], Precision.fixed(8))
        assert fixed.samples in (1, 8)


def test_a_move_no_deal_can_be_solved_for_in_the_time_is_unclear_not_judged_late():
    # four players each for themselves at a round's first choice: one whole round takes seconds
    # to solve there, so within 100 ms not one deal is (before: a batch of 8, half a minute)
    rules = Rules(players=4, partnership=False)
    game = Round(rules, deal_deck(random.Random(4), rules), check_deck=False)
    while len(game.legal_codes()) < 2:
        game.play_code(game.legal_codes()[0])
    judged = judge_position(game, game.legal_codes()[0], 1, Precision(ms=100))
    assert (judged.samples, judged.verdict, judged.cut_short, judged.reason) == (0, "unclear", True, None)
    shown = judged.to_json()
    assert set(shown["values"].values()) == {None} and shown["loss_interval"] == [0.0, None]
    assert json.loads(json.dumps(shown, allow_nan=False)) == shown
    summary = players_summary([shown])[0]  # nothing known: not a perfect move in the accuracy
    assert (summary["moves"], summary["choices"], summary["mean_loss"], summary["unclear"]) == (1, 0, 0.0, 1)
    assert judgement_line(judged) == "unclear: not one deal could be solved in the time"
    assert "حل نشد" in judgement_line(judged, "fa")


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


def last_deal_after_earlier_play(table: str, mine: str, theirs: str, rules: Rules, surs: tuple[int, int]) -> Round:
    """A last-deal position at two players, seat 0 to play ``mine`` onto ``table`` and seat 1
    holding ``theirs``: every other card already taken, seat 1's pile holding the Aces left over
    and seat 0's seven clubs (Haft Khaj decided), and ``surs`` made earlier."""
    game = position(table, mine, rules, last_deal=True)
    held = mask_of(cards(table)) | mask_of(cards(mine)) | mask_of(cards(theirs))
    game.hands[1] = mask_of(cards(theirs))
    rest = [card for card in range(52) if not held >> card & 1]
    aces_and_some = [card for card in rest if card >> 2 == 0 or card in rest[-12:]]
    game.captured = [mask_of([card for card in rest if card not in aces_and_some]), mask_of(aces_and_some)]
    game.surs = list(surs)
    assert game.view(0).sees_everything
    return game


def test_a_reason_counts_what_follows_the_move_not_what_was_taken_before():
    # the other side already holds three Aces and two Surs; the Ace on the table is what is at stake
    game = last_deal_after_earlier_play("AD", "10H 5S", "10S 3C", Rules(), surs=(0, 2))
    better, worse = Move.parse("10HxAD").code, Move.parse("5S").code
    reason = explain(game, better, worse, seed=1)
    assert reason is not None and reason.exact and reason.deals == 1
    aces = reason.parts[0]
    assert (aces.part, aces.mine, aces.after_worse, aces.after_better) == ("aces", False, 1, 0)
    line = reason_line(reason)
    assert "the other side's 10♠ takes A♦ next move" in line and "takes 1 of the Aces after lay 5♠, 0 after" in line
    assert "solved deals" not in line and "average" not in line


def test_a_sur_after_earlier_surs_is_counted_once_and_its_cause_named_in_cards():
    game = last_deal_after_earlier_play("5D", "6H 2S", "4C 9H", Rules(sur_in_last_deal=True), surs=(1, 2))
    reason = explain(game, Move.parse("6Hx5D").code, Move.parse("2S").code, seed=1)
    assert reason is not None and reason.parts[0].part == "sur"
    line = reason_line(reason)
    assert "the other side's 4♣ sweeps 2♠+5♦ next move: a Sur" in line and "(Surs: 10 points)" in line, line
    assert "makes a Sur after lay 2♠, none after 6♥ × 5♦" in line, line
    persian = reason_line(reason, "fa")
    assert "سور" in persian and not any(character.isascii() and character.isdigit() for character in persian)


def test_a_position_with_every_card_known_is_judged_exactly_and_a_forced_move_is_forced():
    game = last_deal_after_earlier_play("AD", "10H 5S", "10S 3C", Rules(), surs=(0, 2))
    judged = judge_position(game, Move.parse("5S").code, seed=3)
    assert judged.exact and judged.samples == 1 and judged.loss_interval == (judged.loss, judged.loss)
    line = judgement_line(judged)
    assert f"loses {judged.loss:g} points exactly" in line and "every card known" in line and "95%" not in line
    assert judged.verdict == ("mistake" if judged.loss >= 1 else "inaccuracy" if judged.loss >= 0.3 else "good")
    forced = position("5D", "9C", last_deal=True)
    only = judge_position(forced, forced.legal_codes()[0], seed=3)
    assert only.verdict == "forced" and judgement_line(only) == "forced: the only legal move"


def test_a_hinted_move_is_never_called_a_loss_by_the_review_of_the_same_position():
    match = played_round(["greedy", "expert"], seed=8)
    contradictions, hinted = [], 0
    for task in analysis_tasks(match, [0], seed=5)[::2]:
        rules, deck, number, banked, before, _played, seed = task
        game = Round(rules, deck, number, banked, check_deck=False)
        for code in before:
            game.play_code(code)
        advice = hint(game.view(game.turn), game.legal_moves(), seed=seed)
        if advice is None:
            continue
        hinted += 1
        judged = judge_position(game, advice.move.code, seed + 1, Precision(ms=None, most=512))
        if judged.verdict in ("inaccuracy", "inaccuracy_or_mistake", "mistake"):
            contradictions.append((judged.round, judged.move, advice.reason, judgement_line(judged)))
    assert hinted >= 8 and not contradictions, contradictions
